package tau2

import (
	"bytes"
	"io"
	"strconv"

	"github.com/lbanalyze/lbanalyze/episode"
	"github.com/lbanalyze/lbanalyze/internal/jsonscan"
	"github.com/lbanalyze/lbanalyze/source"
)

// scan reads a results file a simulation at a time with a jsonscan.Cursor,
// which checks every byte as goccy/go-json would and decodes only the
// members sim names into it, passing over the rest (raw_data, the bulk of
// contents) 8 bytes at a time, faster than goccy/go-json decodes it
// (docs/PERFORMANCE.md, "Runs judged by their result", gives the rates). At
// the first value the cursor is not sure of, it hands the rest of the file
// over to readDocument, so that every fault reads as goccy/go-json says it.
type scan struct {
	r       io.Reader
	eof     bool
	readErr error
	buf     []byte // buf[:c.B's length] is the file from byte base
	base    int64
	c       jsonscan.Cursor
	lines   int // newlines in the file before buf[counted]
	counted int

	run  results
	name string
	res  *source.Result
	emit func(*episode.Episode)

	held held
}

// held holds what the members of the simulation being read point to, for
// the next simulation to reuse, so that reading a member costs no garbage:
// a simulation's episode is made (hand) before the next is read, and keeps
// a copy of what it keeps. It holds no more values than the simulation has
// members, within the buffer's bound.
type held struct {
	floats  slab[float64]
	ints    slab[int64]
	bools   slab[bool]
	strs    slab[string]
	usages  slab[usage]
	rewards slab[rewardInfo]
	calls   slab[toolCall]
}

func (h *held) reset() {
	h.floats.reset()
	h.ints.reset()
	h.bools.reset()
	h.strs.reset()
	h.usages.reset()
	h.rewards.reset()
	h.calls.reset()
}

// slab is values of one type held for a simulation. A pointer to one stays
// good when the slab grows: it points into the array the slab left.
type slab[T any] struct{ v []T }

func (b *slab[T]) put(x T) *T {
	b.v = append(b.v, x)
	return &b.v[len(b.v)-1]
}

func (b *slab[T]) reset() { b.v = b.v[:0] }

// handover is where readDocument goes on: rest from byte at of the file,
// after lines newlines, prefix standing for what the scan read of the
// values it is in.
type handover struct {
	rest   io.Reader
	prefix string
	at     int64
	lines  int
	from   resume
}

// chunk is the scan's first buffer and how much it reads at a time; a
// simulation longer than the buffer grows it, to maxScanned. A longer one
// (the largest real one is some 300 KB) goes, with the rest of its file, to
// goccy/go-json, which holds one of up to maxSimulation, beside no more than
// maxScanned of the scan's.
const (
	chunk      = 1 << 20
	maxScanned = 8 << 20
)

func newScan(r io.Reader, name string, res *source.Result, emit func(*episode.Episode)) *scan {
	s := &scan{r: r, buf: make([]byte, chunk), name: name, res: res, emit: emit}
	s.c.B = s.buf[:0]
	return s
}

// read reads the document, or says where readDocument takes over.
func (s *scan) read() *handover {
	for s.c.End() && s.refill(0) {
	}
	switch s.c.Peek() {
	case '[':
		s.c.I++
		if h := s.simulations("["); h != nil {
			return h
		}
	case '{':
		if h := s.members(); h != nil {
			return h
		}
	default:
		s.c.At(0) // goccy/go-json says what it is, from the start
		return s.handover(fromStart, "")
	}
	return s.end()
}

// unsureOrMore is ErrMore at the buffer's end, else ErrUnsure.
func (s *scan) unsureOrMore() error {
	if s.c.End() {
		return jsonscan.ErrMore
	}
	return jsonscan.ErrUnsure
}

// members reads the outer object's members.
func (s *scan) members() *handover {
	s.c.I++ // '{'
	seen := map[string]bool{}
	for first := true; ; first = false {
		prefix := `{"_":""`
		if first {
			prefix = "{"
		}
		var key string
		var raw []byte
		done := false
		if !s.try(func() error {
			var err error
			if done, err = s.next(first, '}'); done || err != nil {
				return err
			}
			k, err := s.c.Key()
			if key = string(k); err != nil || seen[key] {
				return ifNil(err, jsonscan.ErrUnsure) // a repeat merges as goccy/go-json merges it
			}
			switch key {
			case "simulations":
				if s.c.Peek() != '[' {
					return s.unsureOrMore() // goccy/go-json says what it is
				}
				return nil
			case "info", "model", "domain":
				raw, err = s.c.Value()
				return err
			}
			return s.c.Skip()
		}) {
			return s.handover(fromMembers, prefix)
		}
		if done {
			return nil
		}
		switch key {
		case "simulations":
			open := prefix + `,"simulations":[`
			if first {
				open = `{"simulations":[`
			}
			s.c.I++ // '['
			if h := s.simulations(open); h != nil {
				return h
			}
		case "info", "model", "domain":
			s.run.member(key, raw)
		}
		seen[key] = true
	}
}

func ifNil(err, or error) error {
	if err == nil {
		return or
	}
	return err
}

// next passes the comma before a member or element (none before the first),
// or the closing byte, done.
func (s *scan) next(first bool, closing byte) (done bool, err error) {
	switch k := s.c.Peek(); {
	case k == closing:
		s.c.I++
		return true, nil
	case first:
		return false, nil
	case k == ',':
		s.c.I++
		return false, nil
	default:
		return false, s.unsureOrMore()
	}
}

// simulations reads the simulations, each handed over as it is read; open
// stands for the document up to the list's '['.
func (s *scan) simulations(open string) *handover {
	var sm sim
	for first := true; ; first = false {
		line := 0
		done := false
		if !s.try(func() error {
			var err error
			if done, err = s.next(first, ']'); done || err != nil {
				return err
			}
			s.c.Space()
			line = s.lineAt(s.c.I)
			return s.simulation(&sm)
		}) {
			if first {
				return s.handover(fromSimulations, open)
			}
			return s.handover(fromPastSimulation, open+`""`)
		}
		if done {
			return nil
		}
		s.res.Segments++
		hand(&sm, s.run, s.name, s.res, line, s.emit)
	}
}

// end reads what follows the document: nothing but space. goccy/go-json
// says what else, from the document's end.
func (s *scan) end() *handover {
	at := s.c.I
	for s.c.End() {
		if !s.refill(at) {
			if !s.eof || s.readErr != nil {
				break
			}
			s.count(s.c.I)
			s.res.Lines += s.lines + 1
			return nil
		}
		at = 0
	}
	s.c.I = at
	return s.handover(fromEnd, "")
}

// try runs parse from the cursor's place; where the buffer ends inside what
// it reads, it reads on and runs it again. False: the cursor is back at its
// place, for readDocument to go on from.
func (s *scan) try(parse func() error) bool {
	for {
		at := s.c.I
		err := parse()
		if err == nil {
			s.count(s.c.I)
			return true
		}
		s.c.At(at)
		if err != jsonscan.ErrMore || !s.refill(at) {
			return false
		}
	}
}

// refill drops the buffer before keep and reads more of the file after what
// it holds, growing it while what it holds from keep on is within
// maxScanned; false when nothing more is read.
func (s *scan) refill(keep int) bool {
	if s.eof {
		return false
	}
	s.count(keep)
	n := copy(s.buf, s.buf[keep:len(s.c.B)])
	s.base += int64(keep)
	s.counted, s.c.I = 0, s.c.I-keep
	if n > maxScanned {
		return false // for readDocument to read
	}
	if n == len(s.buf) {
		s.buf = append(s.buf, make([]byte, min(len(s.buf), maxScanned+chunk-len(s.buf)))...)
	}
	m := 0
	for empty := 0; n+m < len(s.buf) && !s.eof; { // the buffer full: a simulation is read again only when the buffer grows
		k, err := s.r.Read(s.buf[n+m:])
		m += k
		if k == 0 && err == nil {
			if empty++; empty == 100 {
				err = io.ErrNoProgress // as bufio says it
			}
		}
		if err != nil {
			s.eof = true
			if err != io.EOF {
				s.readErr = err
			}
		}
	}
	s.c.B = s.buf[:n+m]
	return m > 0
}

// count counts the newlines before buf[i].
func (s *scan) count(i int) {
	s.lines += bytes.Count(s.c.B[s.counted:i], []byte{'\n'})
	s.counted = i
}

// lineAt is the line of buf[i], counted from 1.
func (s *scan) lineAt(i int) int {
	return s.lines + bytes.Count(s.c.B[s.counted:i], []byte{'\n'}) + 1
}

// handover hands the rest of the file, from the cursor's place, to
// readDocument.
func (s *scan) handover(from resume, prefix string) *handover {
	i := s.c.I
	s.count(i)
	rest := io.Reader(bytes.NewReader(s.c.B[i:]))
	switch {
	case s.readErr != nil:
		rest = io.MultiReader(rest, failing{s.readErr})
	case !s.eof:
		rest = io.MultiReader(rest, s.r)
	}
	return &handover{rest: rest, prefix: prefix, at: s.base + int64(i), lines: s.lines, from: from}
}

// failing gives the read error the scan met.
type failing struct{ err error }

func (f failing) Read([]byte) (int, error) { return 0, f.err }

// member is how one member an object's type T names is read into it.
type member[T any] struct {
	name string
	read func(s *scan, v *T) error
}

// field reads the member key of an object into v by its entry in members,
// and passes over one members does not name. Each member is read once: a
// repeated one, marked in got by its place in members, is left to
// goccy/go-json, which merges repeats its own way.
func field[T any](s *scan, v *T, got *uint16, members []member[T], key []byte) error {
	for i := range members {
		if string(key) != members[i].name {
			continue
		}
		if *got&(1<<i) != 0 {
			return jsonscan.ErrUnsure
		}
		*got |= 1 << i
		return members[i].read(s, v)
	}
	return s.c.Skip()
}

// put is a pointer to v, held in b; nil when null.
func put[T any](b *slab[T], v T, null bool, err error) (*T, error) {
	if null || err != nil {
		return nil, err
	}
	return b.put(v), nil
}

func (s *scan) str() (*string, error) {
	t, null, err := s.c.Text()
	return put(&s.held.strs, jsonscan.View(t), null, err)
}

func (s *scan) int() (*int64, error) {
	n, null, err := s.c.Int()
	return put(&s.held.ints, n, null, err)
}

func (s *scan) float() (*float64, error) {
	f, null, err := s.c.Float()
	return put(&s.held.floats, f, null, err)
}

func (s *scan) bool() (*bool, error) {
	b, null, err := s.c.Bool()
	return put(&s.held.bools, b, null, err)
}

// text reads a string, "" when null. A text the scan reads is a view
// (jsonscan.View): it lies in the buffer, or in what the cursor unescaped,
// until the next read, by when the simulation's episode is made, keeping
// copies (source.Text) of the texts it keeps.
func (s *scan) text() (string, error) {
	t, _, err := s.c.Text()
	return jsonscan.View(t), err
}

var simMembers = []member[sim]{
	{"id", func(s *scan, sm *sim) (err error) { sm.ID, err = s.str(); return }},
	{"task_id", func(s *scan, sm *sim) (err error) { sm.TaskID, err = s.anyValue(); return }},
	{"trial", func(s *scan, sm *sim) (err error) { sm.Trial, err = s.int(); return }},
	{"start_time", func(s *scan, sm *sim) (err error) { sm.StartTime, err = s.str(); return }},
	{"termination_reason", func(s *scan, sm *sim) (err error) { sm.TerminationReason, err = s.str(); return }},
	{"reward_info", func(s *scan, sm *sim) (err error) { sm.RewardInfo, err = s.rewardInfo(); return }},
	{"messages", func(s *scan, sm *sim) (err error) { sm.Messages, err = s.messages(sm.Messages); return }},
}

// simulation reads a simulation into sm, which holds contents and
// arguments where they lie in the buffer, until the next read.
func (s *scan) simulation(sm *sim) error {
	*sm = sim{Messages: sm.Messages[:0]}
	s.held.reset()
	var got uint16
	return s.c.Object(func(key []byte) error { return field(s, sm, &got, simMembers, key) })
}

// anyValue reads a task id as goccy/go-json reads it into an any: a
// string, a number, a boolean or null; an object or a list is left to it.
func (s *scan) anyValue() (any, error) {
	if s.c.Peek() == '"' {
		t, _, err := s.c.Text()
		return jsonscan.View(t), err
	}
	if k := s.c.Peek(); k == '{' || k == '[' {
		return nil, jsonscan.ErrUnsure // goccy/go-json merges an object's repeated members in its own way
	}
	v, err := s.c.Value()
	if err != nil {
		return nil, err
	}
	switch v[0] {
	case 'n':
		return nil, nil
	case 't', 'f':
		return v[0] == 't', nil
	}
	f, err := strconv.ParseFloat(string(v), 64)
	if err != nil {
		return nil, jsonscan.ErrUnsure
	}
	return f, nil
}

// object reads null (false) or an object into v, each member by members.
func object[T any](s *scan, v *T, members []member[T]) (bool, error) {
	if s.c.Peek() != '{' {
		return false, s.c.Null()
	}
	var got uint16
	return true, s.c.Object(func(key []byte) error { return field(s, v, &got, members, key) })
}

// optional reads null (nil) or an object of type T by members, held in b.
func optional[T any](s *scan, b *slab[T], members []member[T]) (*T, error) {
	var zero T
	v := b.put(zero)
	ok, err := object(s, v, members)
	if !ok || err != nil {
		return nil, err
	}
	return v, nil
}

var rewardInfoMembers = []member[rewardInfo]{
	{"reward", func(s *scan, r *rewardInfo) (err error) { r.Reward, err = s.float(); return }},
}

func (s *scan) rewardInfo() (*rewardInfo, error) {
	return optional(s, &s.held.rewards, rewardInfoMembers)
}

func (s *scan) messages(ms []message) ([]message, error) {
	if s.c.Peek() != '[' {
		return nil, s.c.Null()
	}
	err := s.c.Array(func() error {
		ms = append(ms, message{})
		return s.message(&ms[len(ms)-1])
	})
	return ms, err
}

var messageMembers = []member[message]{
	{"role", func(s *scan, m *message) (err error) { m.Role, err = s.text(); return }},
	{"content", func(s *scan, m *message) error {
		v, err := s.c.Value()
		if err == nil {
			m.Content.hold(v)
		}
		return err
	}},
	{"tool_calls", func(s *scan, m *message) (err error) { m.ToolCalls, err = s.toolCalls(); return }},
	{"cost", func(s *scan, m *message) (err error) { m.Cost, err = s.float(); return }},
	{"usage", func(s *scan, m *message) (err error) { m.Usage, err = s.usage(); return }},
	{"timestamp", func(s *scan, m *message) (err error) { m.Timestamp, err = s.str(); return }},
	{"error", func(s *scan, m *message) (err error) { m.Error, err = s.bool(); return }},
}

func (s *scan) message(m *message) error {
	ok, err := object(s, m, messageMembers)
	if err == nil && !ok {
		err = jsonscan.ErrUnsure // a null message: goccy/go-json's zero value
	}
	return err
}

var toolCallMembers = []member[toolCall]{
	{"name", func(s *scan, t *toolCall) (err error) { t.Name, err = s.text(); return }},
	{"arguments", func(s *scan, t *toolCall) error {
		v, err := s.c.Value()
		if err == nil {
			t.Arguments = v
		}
		return err
	}},
}

func (s *scan) toolCalls() ([]toolCall, error) {
	if s.c.Peek() != '[' {
		return nil, s.c.Null()
	}
	held := &s.held.calls
	start := len(held.v)
	err := s.c.Array(func() error {
		ok, err := object(s, held.put(toolCall{}), toolCallMembers)
		if err == nil && !ok {
			err = jsonscan.ErrUnsure
		}
		return err
	})
	if len(held.v) == start {
		return nil, err
	}
	return held.v[start:len(held.v):len(held.v)], err
}

var usageMembers = []member[usage]{
	{"prompt_tokens", func(s *scan, u *usage) (err error) { u.PromptTokens, err = s.int(); return }},
	{"completion_tokens", func(s *scan, u *usage) (err error) { u.CompletionTokens, err = s.int(); return }},
}

func (s *scan) usage() (*usage, error) { return optional(s, &s.held.usages, usageMembers) }
