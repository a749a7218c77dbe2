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
	rec  record
	as   arenas
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
func decodeLine(line []byte, unterminated bool, codec jsonl.Codec, d *decoded) {
	d.info, d.mark, d.use, d.nproblem = nil, false, false, 0
	rec := &d.rec
	*rec = record{}
	et, fast, err := scan(line, rec, &d.as)
	if err != nil {
		if line, et, err = salvage(line, unterminated, err, d); err != nil {
			return
		}
		*rec = record{}
		fast = fastDecode(line, rec, &d.as)
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

// detach copies the strings of d's record into slab, so that they stay valid
// once the line's buffer is read over. The builder keeps copies of whatever it
// keeps, so slab may be reused once d has been applied.
func (d *decoded) detach(slab *[]byte) {
	r := &d.rec
	r.EventType = keepIn(slab, r.EventType)
	for _, p := range r.strings() {
		if *p != nil {
			**p = keepIn(slab, **p) // each field points to a string of its own
		}
	}
}

// strings are the string fields of a flattened record (extras are folded into
// it by then).
func (r *record) strings() [10]**string {
	return [10]**string{&r.EpisodeID, &r.Action, &r.Location, &r.Stage, &r.ToRoom,
		&r.RoomName, &r.Objective, &r.Reason, &r.Error, &r.GameFilePath}
}

// keepIn copies s to the end of slab, growing it into a new array when full:
// the strings already in the old one keep it alive.
func keepIn(slab *[]byte, s string) string {
	if len(s) == 0 {
		return ""
	}
	if cap(*slab)-len(*slab) < len(s) {
		*slab = make([]byte, 0, max(64<<10, len(s)))
	}
	start := len(*slab)
	*slab = append(*slab, s...)
	b := (*slab)[start:]
	return unsafe.String(unsafe.SliceData(b), len(s))
}
