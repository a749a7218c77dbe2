package steps

import (
	"bytes"
	"errors"
	"math"
	"regexp"
	"strconv"
	"strings"

	"github.com/cespare/xxhash/v2"

	"github.com/lbanalyze/lbanalyze/jsonl"
	"github.com/lbanalyze/lbanalyze/source"
)

// The members a field map names, found in one scan of a line
// (jsonl.ScanObject): keys matched exactly once their escapes are undone, as
// Python's json.loads matches them, a nested member by scanning only the
// object it is in; the last of two equal keys wins, as in json.loads. Only
// the members found are decoded: most bytes of a step (TALES's Prompt, tens
// of KB) are passed over at memchr speed.

// field indexes the members of a field map.
type field int

const (
	fScore field = iota
	fTurn
	fAction
	fRoom
	fResponse
	fTokens
	fCalls
	fMaxScore
	fEpisode
	fRestart
	fReward
	fError
	fMember // source.Options.Member
	nFields
)

// paths are the field map's paths by field.
func (f *Fields) paths() [nFields]Path {
	return [nFields]Path{f.Score, f.Turn, f.Action, f.Room, f.Response, f.Tokens, f.Calls, f.MaxScore, f.Episode, f.Restart, f.Reward, f.Error, f.member}
}

// key is how the field map names fd's member: its path, or the paths a
// count adds (tokens=a+b).
func (f *Fields) key(fd field) string {
	more := map[field][]Path{fTokens: f.MoreTokens, fCalls: f.MoreCalls}[fd]
	k := f.paths()[fd].String()
	for _, p := range more {
		k += "+" + p.String()
	}
	return k
}

// names are the field map's keys by field, for messages.
var names = [nFields]string{"score", "turn", "action", "room", "response", "tokens", "calls", "max_score", "episode", "restart", "reward", "error", "member asked for"}

// matcher is the tree of the mapped keys: the fields whose path ends at a
// key, and the keys inside the object under it. A member added to a count
// (Fields.MoreTokens) has a slot of its own past nFields; sums gives each
// count's added slots; paths, at the top, gives each slot's path (a
// table's columns).
type matcher struct {
	leaf  []field
	inner map[string]*matcher
	slots int
	sums  map[field][]field
	paths []Path
	under []field // the fields at or under it: a key met again drops what its first value gave
	// dotted are, at the top, the nested paths written as one key with dots
	// ("info.score"): a line that has such a key is told how to name it.
	dotted map[string]field
}

func newMatcher(f *Fields) *matcher {
	ps := f.paths()
	root := &matcher{slots: int(nFields), paths: ps[:]}
	for i, p := range ps {
		root.add(p, field(i))
		if len(p) > 1 {
			if root.dotted == nil {
				root.dotted = map[string]field{}
			}
			root.dotted[strings.Join(p, ".")] = field(i)
		}
	}
	for _, s := range []struct {
		count field
		more  []Path
	}{{fTokens, f.MoreTokens}, {fCalls, f.MoreCalls}} {
		for _, p := range s.more {
			slot := field(root.slots)
			root.slots++
			root.add(p, slot)
			root.paths = append(root.paths, p)
			if root.sums == nil {
				root.sums = map[field][]field{}
			}
			root.sums[s.count] = append(root.sums[s.count], slot)
		}
	}
	root.collect()
	return root
}

// collect sets under for m and the nodes under it.
func (m *matcher) collect() []field {
	m.under = append(m.under, m.leaf...)
	for _, in := range m.inner {
		m.under = append(m.under, in.collect()...)
	}
	return m.under
}

// add puts the path p of field f in the tree.
func (root *matcher) add(p Path, f field) {
	m := root
	for _, k := range p {
		if m.inner == nil {
			m.inner = map[string]*matcher{}
		}
		next := m.inner[k]
		if next == nil {
			next = &matcher{}
			m.inner[k] = next
		}
		m = next
	}
	if p != nil {
		m.leaf = append(m.leaf, f)
	}
}

// lookup is the node of key (raw, between its quotes), nil when no field
// names it.
func (m *matcher) lookup(key []byte) *matcher {
	k := jsonl.Unescape(key)
	if k == nil {
		return nil
	}
	return m.inner[string(k)] // no allocation for the lookup
}

// line is what one line (or a table's row) holds of the mapped members:
// their raw values by field, then those of the members added to a count;
// nil when absent. And the fields whose nested path it has as one key with
// dots; cells: the values are a table's cells.
type line struct {
	raw    [][]byte
	dotted [nFields]bool
	cells  bool
}

// get is the value of field (or slot) f.
func (l *line) get(f field) value { return value{raw: l.raw[f], cell: l.cells} }

// scan finds the mapped members of one line; an error when it is not one
// JSON object.
func (m *matcher) scan(b []byte, l *line) error {
	if len(l.raw) != m.slots {
		l.raw = make([][]byte, m.slots)
	}
	clear(l.raw)
	l.dotted = [nFields]bool{}
	return jsonl.ScanObject(b, m.visitor(l))
}

// scanHead is scan of the beginning of a line, as far as head holds it.
func (m *matcher) scanHead(head []byte, l *line) {
	l.raw = make([][]byte, m.slots)
	l.dotted = [nFields]bool{}
	jsonl.ScanHead(head, m.visitor(l))
}

func (m *matcher) visitor(l *line) func(key, value []byte) bool {
	return func(key, value []byte) bool {
		node := m.lookup(key)
		if node == nil {
			if m.dotted != nil {
				if f, ok := m.dotted[string(jsonl.Unescape(key))]; ok {
					l.dotted[f] = true
				}
			}
			return true
		}
		for _, f := range node.under { // the last of a repeated key wins whole, as in json.loads
			l.raw[f] = nil
		}
		for _, f := range node.leaf {
			l.raw[f] = value
		}
		if node.inner != nil && len(value) > 0 && value[0] == '{' {
			jsonl.ScanObject(value, node.visitor(l)) // checked whole by the outer scan
		}
		return true
	}
}

// value is one mapped member's value as a line holds it: raw JSON, or, in a
// table, the text of a cell. Its readers say what it is in the terms of its
// kind: a JSON string is text and a JSON number a number; a cell is text, and
// a number when it reads as one.
type value struct {
	raw  []byte
	cell bool
}

// absent reports a member that is missing, null, or a Python NaN (read as
// null, as everywhere in lbanalyze); an empty cell, or one that says nan.
func (v value) absent() bool {
	if v.cell {
		c := bytes.TrimSpace(v.raw)
		return len(c) == 0 || bytes.EqualFold(c, []byte("nan"))
	}
	switch string(v.raw) {
	case "", "null", "NaN", "Infinity", "-Infinity":
		return true
	}
	return false
}

// maxWhole bounds numbers so that differences of whole scores are exact.
const maxWhole = source.MaxScore

// number reads a number, whole or not, within ±2^53: a JSON number, or a
// cell that holds a decimal as Python writes one (1, -0.2, 1.0, 2.5e-05);
// 0 with why otherwise.
func (v value) number() (float64, string) {
	raw := v.raw
	if v.cell {
		raw = bytes.TrimSpace(raw)
		if !decimal(raw) {
			return 0, "not a number"
		}
	} else if len(raw) > 0 && raw[0] == '"' {
		return 0, "a string, not a number"
	}
	f, err := strconv.ParseFloat(string(raw), 64)
	switch {
	case err != nil && errors.Is(err, strconv.ErrRange) || err == nil && (f > maxWhole || f < -maxWhole):
		return 0, "beyond ±2^53"
	case err != nil:
		return 0, "not a number"
	}
	return f, ""
}

// decimal matches text that is a decimal number: [+-] digits, a point and
// digits (either part may be empty, not both), an exponent.
var decimal = regexp.MustCompile(`^[+-]?([0-9]+\.?[0-9]*|\.[0-9]+)([eE][+-]?[0-9]+)?$`).Match

// whole reads a number that is a whole number (an integer, or a float with no
// fraction, as pandas writes a column with a missing value): 0 with why
// otherwise.
func (v value) whole() (int64, string) {
	if !v.cell {
		if w, err := strconv.ParseInt(string(v.raw), 10, 64); err == nil {
			if w > maxWhole || w < -maxWhole {
				return 0, "beyond ±2^53"
			}
			return w, ""
		}
	}
	f, why := v.number()
	switch {
	case why != "":
		return 0, why
	case f != math.Trunc(f):
		return 0, "not a whole number"
	}
	return int64(f), ""
}

// text decodes a JSON string, or gives a cell's text; false when a JSON
// value is not a string.
func (v value) text() (string, bool) {
	raw := v.raw
	if v.cell {
		return string(raw), true
	}
	if len(raw) < 2 || raw[0] != '"' {
		return "", false
	}
	if bytes.IndexByte(raw, '\\') < 0 {
		return string(raw[1 : len(raw)-1]), true
	}
	var s string
	if _, err := jsonl.Decode(raw, &s); err != nil {
		return "", false
	}
	return s, true
}

// flag reads a boolean: JSON's true or false, a cell's True, False (as
// Python writes them), true or false; false, false when it is neither.
func (v value) flag() (set, ok bool) {
	s := string(v.raw)
	if v.cell {
		s = strings.ToLower(strings.TrimSpace(s))
	}
	switch s {
	case "true":
		return true, true
	case "false":
		return false, true
	}
	return false, false
}

// hash identifies a response by the xxHash64 of its JSON string as written,
// or of a cell's text (a writer is deterministic: equal texts hash equally);
// 0 means none.
func (v value) hash() uint64 {
	if !v.cell && (len(v.raw) == 0 || v.raw[0] != '"') {
		return 0
	}
	return max(xxhash.Sum64(v.raw), 1)
}

// marker finds a text in JSON strings without decoding most of them: a
// string holds the marker only if its raw form holds the marker's longest run
// of characters a writer writes as they are, or holds a \u escape (which
// could spell any character); only those are decoded.
type marker struct {
	text  string
	plain []byte // the longest run of characters JSON writes unescaped
}

func newMarker(s string) *marker {
	if s == "" {
		return nil
	}
	m := &marker{text: s}
	run := 0
	for i := 0; i <= len(s); i++ {
		if i < len(s) && s[i] >= 0x20 && s[i] < 0x7f && s[i] != '"' && s[i] != '\\' && s[i] != '/' {
			run++
			continue
		}
		if run > len(m.plain) {
			m.plain = []byte(s[i-run : i])
		}
		run = 0
	}
	return m
}

// in reports whether the JSON string or the cell v holds the marker.
func (m *marker) in(v value) bool {
	raw := v.raw
	if v.cell {
		return bytes.Contains(raw, []byte(m.text))
	}
	if !bytes.Contains(raw, m.plain) && !bytes.Contains(raw, []byte(`\u`)) {
		return false
	}
	if bytes.IndexByte(raw, '\\') < 0 {
		return bytes.Contains(raw, []byte(m.text))
	}
	s, ok := v.text()
	return ok && strings.Contains(s, m.text)
}
