package replay

import (
	"bytes"
	"fmt"
	"unsafe"

	"github.com/lbanalyze/lbanalyze/jsonl"
)

// decoded is what reading one line gives the builder. Decoding needs nothing
// of the builder, so that the lines of a large file can be decoded on several
// cores (parallel.go) and handed over in order.
type decoded struct {
	info *eventInfo // the line's event; nil when lbanalyze knows none
	mark bool       // the event type counts (for the era), even if not decoded
	use  bool       // rec holds the event, to be handled
	rec  record     // its values are in the line, in the arenas, or detached
	// problems found in the line, in order: a salvaged record, a repair, or
	// why it could not be decoded.
	problems [2]lineProblem
	nproblem int
}

type lineProblem struct {
	skipped bool
	msg     string
}

func (d *decoded) problem(skipped bool, format string, args ...any) {
	d.problems[d.nproblem] = lineProblem{skipped, fmt.Sprintf(format, args...)}
	d.nproblem++
}

// decodeLine reads one non-blank line: one scan finds the event type and
// decodes the fields, and for nearly every line that matters nothing is left
// to do; the rest go to codec.
func decodeLine(line []byte, unterminated bool, codec jsonl.Codec, d *decoded, as *arenas) {
	d.info, d.mark, d.use, d.nproblem = nil, false, false, 0
	rec := &d.rec
	*rec = record{}
	et, fast, err := scan(line, rec, as)
	if err != nil {
		if line, et, err = salvage(line, unterminated, err, d); err != nil {
			return
		}
		*rec = record{}
		fast = fastDecode(line, rec, as)
	}
	info := events[string(et)]
	if info == nil {
		return
	}
	d.info = info
	if !info.decode || info.need != nil && !bytes.Contains(line, info.need) {
		d.mark = true
		return
	}
	if !fast || !cleanText(line) {
		*rec = record{}
		rep, err := codec.Decode(line, rec)
		if err != nil {
			d.problem(true, "cannot decode %s: %v", info.name, err)
			return
		}
		if rep&jsonl.RepairedUTF8 != 0 {
			d.problem(false, "invalid UTF-8 in %s, replaced with U+FFFD", info.name)
		}
	}
	rec.flatten()
	d.mark, d.use = true, true
}

// salvage handles a line that is not one JSON object. A killed run can leave a
// partial record that the next run's first record continues on the same line:
// the complete one is kept. Otherwise the line is reported and skipped.
func salvage(line []byte, unterminated bool, err error, d *decoded) ([]byte, []byte, error) {
	if i := bytes.LastIndex(line, []byte(`{"timestamp": `)); i > 0 {
		if et, err2 := peek(line[i:]); err2 == nil {
			d.problem(true, "a broken record (%v) runs into a complete one at column %d: only the complete one is used", err, i+1)
			return line[i:], et, nil
		}
	}
	if unterminated {
		d.problem(true, "truncated last line (no newline at the end of the file): %v", err)
	} else {
		d.problem(true, "invalid JSON: %v", err)
	}
	return nil, nil, err
}

// apply hands line n's decoding to the segment being built.
func (b *builder) apply(d *decoded, n int) {
	b.cur.lines++
	b.lineNo = n
	for _, p := range d.problems[:d.nproblem] {
		b.cur.problem(n, p.skipped, "%s", p.msg)
	}
	if d.mark {
		b.mark(d.info)
	}
	if d.use {
		b.event(d.info.name, &d.rec, n)
	}
}

// detach copies the values of d's record (strings, numbers: whatever it
// points to) into v, so that they stay valid once the line's buffer is read
// over and the arenas are used again: a region's lines wait for the builder
// with a few hundred bytes each. The builder keeps copies of whatever it
// keeps, so v may be reused once d has been applied.
func (d *decoded) detach(v *detached) {
	r := &d.rec
	r.EventType = v.text(r.EventType)
	p := r.pointers()
	for _, f := range p.strs {
		if *f != nil {
			*f = v.strs.put(v.text(**f))
		}
	}
	for _, f := range p.ints {
		if *f != nil {
			*f = v.ints.put(**f)
		}
	}
	for _, f := range p.flts {
		if *f != nil {
			*f = v.flts.put(**f)
		}
	}
	for _, f := range p.resps {
		if *f != nil {
			*f = v.resps.put(**f)
		}
	}
	if r.CriticEnabled != nil {
		r.CriticEnabled = v.bools.put(*r.CriticEnabled)
	}
	if r.Objectives != nil {
		r.Objectives = v.counts.put(*r.Objectives)
	}
}

// fields are the pointer fields of a flattened record (extras are folded
// into it by then), by type.
type fields struct {
	strs  [10]**string
	ints  [15]**int64
	flts  [2]**float64
	resps [2]**responseText
}

func (r *record) pointers() fields {
	return fields{
		strs: [10]**string{&r.EpisodeID, &r.Action, &r.Location, &r.Stage, &r.ToRoom,
			&r.RoomName, &r.Objective, &r.Reason, &r.Error, &r.GameFilePath},
		ints: [15]**int64{&r.Turn, &r.TurnNumber, &r.Score, &r.ToRoomID, &r.RoomID, &r.FinalScore,
			&r.TurnsStuck, &r.OldScore, &r.NewScore, &r.WasStuckFor, &r.MaxTurns, &r.LocationID,
			&r.RecentVisits, &r.LoopStartTurn, &r.TurnsInLoop},
		flts:  [2]**float64{&r.BaseConfidence, &r.AdjustedConfidence},
		resps: [2]**responseText{&r.ZorkResponse, &r.RawZorkResponse},
	}
}

// detached holds the values the records of a batch point to.
type detached struct {
	chars  []byte // the bytes of the strings
	strs   slab[string]
	ints   slab[int64]
	flts   slab[float64]
	resps  slab[responseText]
	bools  slab[bool]
	counts slab[listLen]
}

func (v *detached) reset() {
	v.chars = v.chars[:0]
	v.strs.reset()
	v.ints.reset()
	v.flts.reset()
	v.resps.reset()
	v.bools.reset()
	v.counts.reset()
}

// text copies s to the end of the text, growing it into a new array when
// full: the strings already in the old one keep it alive.
func (v *detached) text(s string) string {
	if len(s) == 0 {
		return ""
	}
	if cap(v.chars)-len(v.chars) < len(s) {
		v.chars = make([]byte, 0, max(64<<10, len(s)))
	}
	start := len(v.chars)
	v.chars = append(v.chars, s...)
	b := v.chars[start:]
	return unsafe.String(unsafe.SliceData(b), len(s))
}

// slab hands out places for values that never move, a piece at a time.
type slab[T any] struct {
	pieces [][]T
	n      int // places handed out
}

const slabPiece = 1024

func (s *slab[T]) put(x T) *T {
	i := s.n / slabPiece
	if i == len(s.pieces) {
		s.pieces = append(s.pieces, make([]T, slabPiece))
	}
	p := &s.pieces[i][s.n%slabPiece]
	*p = x
	s.n++
	return p
}

func (s *slab[T]) reset() { s.n = 0 }
