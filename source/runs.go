package source

import (
	"fmt"
	"slices"

	"github.com/cespare/xxhash/v2"
)

// Where a run of a log begins and ends, said once for every source whose
// lines number the turns (or steps, or entries) of a run: the rules of
// docs/bad-input.md, "Runs in one file".
//
//   - A run begins again only where its numbers restart: a line numbered 0
//     or 1 after higher numbers, when the line after it does not go on from
//     the old run (then it was a stray line, named and skipped); or at a
//     recorded end (EndRun), or under another key.
//   - A repeated number, or one lower than the last that is not a restart,
//     is a line out of place: named (file:line) and skipped.
//   - A number past the next leaves the numbers between missing (the source
//     makes them up), within MaxGap, MaxTurn and a budget in proportion to
//     the lines placed; past them the line is corrupt, named and skipped.
//   - Lines of several keys (a field map's episode member) are runs of their
//     own, however they interleave; at most MaxOpen are open at once.

// MaxOpen is how many runs of distinct keys a file may have open at once:
// the least recently used is ended to open another, and a key met again
// after its run was ended so begins a run of its own, with a word.
const MaxOpen = 16

// Runs sorts the numbered lines of one log into runs of R, the source's
// state of a run being read. Its functions are the source's.
type Runs[R any] struct {
	Numbering
	// New begins a run of key; End hands a run over once it is over (a run
	// begun that turns out to be a stray line is let go, never ended).
	New func(key string) R
	End func(R)
	// Problem notes what was wrong with line n of run r.
	Problem func(r R, n int, skipped bool, msg string)

	lanes  []*lane[R] // the open runs, the least recently used first
	opened int        // lanes opened, for their order
	held   int64      // numbers placed or made up in the open runs
	gone   map[uint64]bool
}

// lane is the open run of one key.
type lane[R any] struct {
	key   string
	order int
	run   R
	seq   sequence
	// pending is a run begun again (its numbers restarted) until the next
	// numbered line says whether it is one.
	pending *restart[R]
}

type restart[R any] struct {
	run  R
	seq  sequence
	line int
}

// sequence is the numbers of a run so far.
type sequence struct {
	placed      bool
	first, last int64
}

// Line says which run line n, numbered num, of key belongs to: false when it
// is skipped (the problem given to its run).
func (rs *Runs[R]) Line(key string, num int64, n int) (R, bool) {
	l := rs.lane(key, n)
	if p := l.pending; p != nil {
		l.pending = nil
		if num == l.seq.last+1 { // the lines go on from the old run
			rs.Problem(l.run, p.line, true, fmt.Sprintf("%s %d after %s %d, while the lines after it go on from %d: a stray line, skipped",
				rs.Noun, p.seq.first, rs.Noun, l.seq.last, num))
		} else {
			rs.end(l)
			l.run, l.seq = p.run, p.seq
			rs.held += l.seq.span()
		}
	}
	return rs.place(l, num, n)
}

func (rs *Runs[R]) place(l *lane[R], num int64, n int) (R, bool) {
	var none R
	why, again := rs.Numbering.judge(&l.seq, num)
	switch {
	case again:
		// A restart, or a stray line: the next numbered line tells.
		p := &restart[R]{run: rs.New(l.key), line: n}
		rs.Numbering.take(&p.seq, num)
		l.pending = p
		return p.run, true
	case why != "":
		rs.Problem(rs.current(l), n, true, why)
		return none, false
	}
	before := l.seq.span()
	rs.Numbering.take(&l.seq, num)
	rs.held += l.seq.span() - before
	rs.bound(l)
	return l.run, true
}

// Numbering is how the numbers of a log go on: what Runs and Sequence share.
type Numbering struct {
	// Min is the lowest number a line may have: 1 for turns, 0 for logs that
	// may count from 0 (steps, Burr's sequence ids).
	Min int64
	// Unbounded says the numbers are not turns (Burr's sequence ids): no
	// bound on them or their gaps, as nothing is made up for a gap.
	Unbounded bool
	// Noun names a numbered line in messages: "TURN", "step".
	Noun string

	made   int64 // numbers made up for gaps, over the file
	placed int64 // lines placed, over the file
}

// OutOfRange says why a line numbered num is skipped, below min or past
// MaxTurn: one message for a log that numbers its lines and one numbered by
// its place (docs/bad-input.md, "Runs in one file").
func OutOfRange(noun string, num, min int64) string {
	return fmt.Sprintf("%s %d is out of range %d..%d: skipped", noun, num, min, MaxTurn)
}

// judge says why num cannot follow s ("" when it can), or that it goes back
// to the start of a numbering, a restart.
func (r *Numbering) judge(s *sequence, num int64) (why string, restart bool) {
	if num < r.Min || !r.Unbounded && num > MaxTurn {
		return OutOfRange(r.Noun, num, r.Min), false
	}
	var gap int64
	switch {
	case !s.placed:
		gap = max(num-max(r.Min, 1), 0)
	case num > s.last:
		gap = num - s.last - 1
	case num == s.last:
		return fmt.Sprintf("%s %d again: a repeat, skipped", r.Noun, num), false
	case num <= 1:
		return "", true
	default:
		return fmt.Sprintf("%s %d after %s %d: out of order, skipped", r.Noun, num, r.Noun, s.last), false
	}
	switch {
	case gap == 0 || r.Unbounded:
	case gap > MaxGap:
		return fmt.Sprintf("%s %d comes %d after %s %d: ignored as corrupt", r.Noun, num, gap+1, r.Noun, s.last), false
	case r.made+gap > r.budget():
		return fmt.Sprintf("%s %d comes %d after %s %d: ignored as corrupt, as this file already leaves out %d numbers, more than its lines allow",
			r.Noun, num, gap+1, r.Noun, s.last, r.made), false
	}
	return "", false
}

// take places num, which judge allowed, in s.
func (r *Numbering) take(s *sequence, num int64) {
	if !r.Unbounded {
		if !s.placed {
			r.made += max(num-max(r.Min, 1), 0)
		} else {
			r.made += num - s.last - 1
		}
	}
	if !s.placed {
		s.placed, s.first = true, min(num, max(r.Min, 1)) // the numbers made up before it included
	}
	s.last = num
	r.placed++
}

// budget is how many numbers a file may leave out: plenty for real gaps (a
// crashed turn, a run of failures), but no more than the lines it places
// and 10,000, so that lines that jump ahead cost at most twice the memory
// of the lines read.
func (r *Numbering) budget() int64 { return 10*MaxGap + r.placed }

// Sequence is the numbers of a log that holds one run (a snapshot's
// history, the turns of a Burr application): the rules of Runs, where a
// number back to 0 or 1 is out of order.
type Sequence struct {
	Numbering
	seq sequence
}

// NewSequence is the sequence of numbers from min named noun in messages.
func NewSequence(min int64, noun string) *Sequence {
	return &Sequence{Numbering: Numbering{Min: min, Noun: noun}}
}

// Place places num after the numbers so far: "" when it is placed, else why
// it is skipped.
func (s *Sequence) Place(num int64) string {
	why, again := s.judge(&s.seq, num)
	if again {
		why = fmt.Sprintf("%s %d after %s %d: out of order, skipped", s.Noun, num, s.Noun, s.seq.last)
	}
	if why == "" {
		s.take(&s.seq, num)
	}
	return why
}

// span is how many numbers the sequence covers, those made up included.
func (s sequence) span() int64 {
	if !s.placed {
		return 0
	}
	return s.last - s.first + 1
}

// current is the run a line of lane l goes to: the run begun again, if any.
func (rs *Runs[R]) current(l *lane[R]) R {
	if l.pending != nil {
		return l.pending.run
	}
	return l.run
}

// Current is the run a line of key that has no number belongs to (the one
// begun last).
func (rs *Runs[R]) Current(key string, n int) R { return rs.current(rs.lane(key, n)) }

// Last is the run of the key met last (of "" before any), for a line whose
// key is not known: one that cannot be read.
func (rs *Runs[R]) Last(n int) R {
	if k := len(rs.lanes); k > 0 {
		return rs.current(rs.lanes[k-1])
	}
	return rs.Current("", n)
}

// EndRun ends the run of key at its recorded end (ZorkGPT2's EPISODE_END):
// the next line of key begins another.
func (rs *Runs[R]) EndRun(key string) {
	if i := rs.find(key); i >= 0 {
		rs.end(rs.lanes[i])
		rs.lanes = slices.Delete(rs.lanes, i, i+1)
	}
}

// Close ends every open run, in the order they began.
func (rs *Runs[R]) Close() {
	slices.SortFunc(rs.lanes, func(a, b *lane[R]) int { return a.order - b.order })
	for _, l := range rs.lanes {
		rs.end(l)
	}
	rs.lanes = nil
}

// end hands over lane l's run, and the run begun again after it.
func (rs *Runs[R]) end(l *lane[R]) {
	rs.End(l.run)
	rs.held -= l.seq.span()
	if p := l.pending; p != nil {
		l.pending = nil
		rs.End(p.run)
	}
}

func (rs *Runs[R]) find(key string) int {
	return slices.IndexFunc(rs.lanes, func(l *lane[R]) bool { return l.key == key })
}

// lane is the open run of key, the most recently used from now on; opened,
// ending the least recently used when MaxOpen are open.
func (rs *Runs[R]) lane(key string, n int) *lane[R] {
	if i := rs.find(key); i >= 0 {
		l := rs.lanes[i]
		if i != len(rs.lanes)-1 {
			rs.lanes = append(slices.Delete(rs.lanes, i, i+1), l)
		}
		return l
	}
	if len(rs.lanes) == MaxOpen {
		rs.evict()
	}
	rs.opened++
	l := &lane[R]{key: key, order: rs.opened, run: rs.New(key)}
	rs.lanes = append(rs.lanes, l)
	if rs.gone[xxhash.Sum64String(key)] {
		rs.Problem(l.run, n, false, fmt.Sprintf("lines of %q again, after its run was ended to keep at most %d runs open at once: read as a run of its own", key, MaxOpen))
	}
	return l
}

// bound ends the least recently used runs other than l's while the open
// runs hold more than MaxTurn numbers: lines of many keys interleaved must
// not hold more than one long run would.
func (rs *Runs[R]) bound(l *lane[R]) {
	for rs.held > MaxTurn && len(rs.lanes) > 1 && rs.lanes[0] != l {
		rs.evict()
	}
}

// evict ends the least recently used run, remembering its key.
func (rs *Runs[R]) evict() {
	l := rs.lanes[0]
	rs.lanes = rs.lanes[1:]
	rs.end(l)
	if rs.gone == nil {
		rs.gone = map[uint64]bool{}
	}
	if len(rs.gone) < 1<<16 {
		rs.gone[xxhash.Sum64String(l.key)] = true
	}
}
