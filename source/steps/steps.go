// Package steps is the source of any log that writes one JSON object, or one
// row of a CSV or TSV table, per step of an agent's run (TextQuests, a loop of
// the user's own), read through a field map that says which member or column
// is the score (or the reward), the step's number, the action, the tokens
// (docs/sources.md, "Any per-step JSONL", "Per-step tables"). A preset is a
// harness's own field map and layout: TALES's rollouts (source/tales),
// BALROG's runs (source/balrog).
package steps

import (
	"bytes"
	"errors"
	"io"
	"maps"
	"slices"

	"github.com/lbanalyze/lbanalyze/episode"
	"github.com/lbanalyze/lbanalyze/jsonl"
	"github.com/lbanalyze/lbanalyze/source"
)

// Format is the log_format of the logs read through a field map.
const Format = "jsonl"

// Source reads per-step JSONL through its field map.
type Source struct {
	Fields Fields
	// Preset, when set, makes this a harness's own source (TALES).
	Preset *Preset
}

// Preset is what a harness's own source adds to its field map: its
// log_format, how it recognises its files, and what the layout of its logs
// says of an episode.
type Preset struct {
	Format string
	Claims func(head []byte) bool
	// For, when set, is the field map of the log at path, where the layout
	// decides it (BALROG's environments log a score or a reward); an error
	// says why it cannot, and the file is left to an explicit field map.
	For func(path string) (Fields, error)
	// Finish completes an episode read from path: its id, facts, end and
	// notes, from where the file lies and what its steps say; several, when
	// the file holds more than one run (its steps start again), so that what
	// lies beside the file for the whole of it is not credited to each.
	Finish func(ep *episode.Episode, path string, several bool)
}

// Format is the log_format of its episodes.
func (s Source) Format() string {
	if s.Preset != nil {
		return s.Preset.Format
	}
	return Format
}

// Opens takes a JSON Lines file, plain or compressed.
func (Source) Opens(name string) bool { return source.JSONLName(name) }

// Claims takes a file only by its first object: its first non-blank line
// is a JSON object with the field map's score or reward member (and step member, if
// mapped), nested ones too, as Python's json.loads reads it. A line longer
// than the head is judged by the members the head holds whole: it is taken
// once they are there, never for want of a sight of them (the corpus asks
// again as more of a stream comes in).
func (s Source) Claims(head []byte) bool {
	if s.Preset != nil {
		return s.Preset.Claims(head)
	}
	first, whole := jsonl.FirstLine(head)
	if len(first) == 0 || first[0] != '{' {
		return false
	}
	var l line
	m := newMatcher(&s.Fields)
	if err := m.scan(first, &l); err != nil {
		if whole {
			return false // a broken first line: not an object
		}
		m.scanHead(first, &l)
	}
	return (l.raw[fScore] != nil || l.raw[fReward] != nil) && (s.Fields.Turn == nil || l.raw[fTurn] != nil)
}

// Unclaimed says why a file that begins with head is not claimed when its
// first object has, as one key with dots, a member the field map names
// nested ("info.score"): how to name that key. "" otherwise.
func (s Source) Unclaimed(head []byte) string {
	if s.Preset != nil {
		return ""
	}
	first, _ := jsonl.FirstLine(head)
	var l line
	m := newMatcher(&s.Fields)
	m.scanHead(first, &l)
	for _, f := range []field{fScore, fReward, fTurn} {
		if p := s.Fields.paths()[f]; l.dotted[f] && l.raw[f] == nil {
			return "its first object's " + dotHint(p)
		}
	}
	keys, _, ok := HeadKeys(head)
	if !ok {
		return ""
	}
	have := slices.Sorted(maps.Keys(keys)) // for the nearest, in a stable order
	// The members a claim needs, and the object has.
	needed := func(k int, _ Path) bool {
		f := field(k)
		return f != fScore && f != fReward && f != fTurn || l.raw[f] != nil
	}
	if why := lacking(m, "key", have, needed); why != "" {
		return "its first object has " + why
	}
	return ""
}

// HeadKeys are the top-level keys of the first non-blank line of head, as
// far as head holds it; whole says the line ends within head; false when it
// is not (the beginning of) a JSON object.
func HeadKeys(head []byte) (keys map[string]bool, whole, ok bool) {
	first, whole := jsonl.FirstLine(head)
	if len(first) == 0 || first[0] != '{' {
		return nil, whole, false
	}
	keys = map[string]bool{}
	err := jsonl.ScanObject(first, func(k, _ []byte) bool {
		keys[string(k)] = true
		return true
	})
	return keys, whole, err == nil || !whole
}

// Read streams the log r into its episodes: one a file, or one a value of
// the episode member.
func (s Source) Read(r io.Reader, name string, opt source.Options, emit func(*episode.Episode)) *source.Result {
	b := newBuilder(s, name, opt, emit)
	rd := jsonl.NewReader(r, jsonl.LineOptions{MaxLine: b.opt.MaxLine})
	defer rd.Close()
	var l line
	for {
		text, n, err := rd.Next()
		if errors.Is(err, jsonl.ErrLineTooLong) {
			b.runs.Last(n).problem(n, true, "line longer than %s, skipped", jsonl.Size(int64(b.opt.MaxLine)))
			continue
		}
		if err != nil {
			if !errors.Is(err, io.EOF) {
				b.res.Cut = &episode.Problem{Line: n, Msg: "read error: " + err.Error()}
			}
			break
		}
		if len(bytes.TrimSpace(text)) == 0 {
			continue
		}
		if err := b.match.scan(text, &l); err != nil {
			b.runs.Last(n).problem(n, true, "%s", notObject(err, rd.Unterminated))
			continue
		}
		b.step(&l, n)
	}
	b.res.Lines = rd.Line()
	return b.finish()
}

func notObject(err error, unterminated bool) string {
	if unterminated {
		return "truncated last line (no newline at the end of the file): " + err.Error()
	}
	return "invalid JSON: " + err.Error()
}
