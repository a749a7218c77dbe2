package source

import (
	"cmp"
	"fmt"
	"strconv"
	"strings"
	"sync/atomic"
	"unicode/utf8"

	"github.com/cespare/xxhash/v2"

	"github.com/lbanalyze/lbanalyze/episode"
)

// What every source keeps of the lines it could not use, and of the strings
// that repeat from turn to turn, said once here.

// Problems are what was wrong with the lines of one episode: the first Max
// word for word (a file of a million bad lines must not cost a million
// messages), all counted, and how many lines they skipped.
type Problems struct {
	Max int
	// File is the file the lines are in, when not the episode's Source (an
	// application directory's log.jsonl).
	File    string
	List    []episode.Problem
	Count   int
	Skipped int
}

// Add notes what was wrong with line n (0: not about one line); skipped:
// the line could not be used.
func (p *Problems) Add(n int, skipped bool, format string, args ...any) {
	p.Count++
	if skipped {
		p.Skipped++
	}
	if len(p.List) < p.Max {
		p.List = append(p.List, episode.Problem{Line: n, Msg: fmt.Sprintf(format, args...), Skipped: skipped, File: p.File})
	}
}

// Set gives ep its problems.
func (p *Problems) Set(ep *episode.Episode) {
	ep.Problems, ep.ProblemCount, ep.SkippedLines = p.List, p.Count, p.Skipped
}

// Leftovers are the problems of the parts of a log that cannot be replayed:
// the first Max over the whole log word for word, the rest counted.
type Leftovers struct {
	Max  int
	List []episode.Problem
	More int
}

// Keep keeps the problems of a part that cannot be replayed.
func (l *Leftovers) Keep(p *Problems) {
	room := max(l.Max-len(l.List), 0)
	keep := p.List[:min(room, len(p.List))]
	l.List = append(l.List, keep...)
	l.More += p.Count - len(keep)
}

// AddTo adds them to the log's result.
func (l *Leftovers) AddTo(res *Result) {
	res.Problems = append(res.Problems, l.List...)
	if l.More > 0 {
		res.Problems = append(res.Problems, episode.Problem{Msg: fmt.Sprintf("… and %d more problems in segments that cannot be replayed", l.More)})
	}
}

// MaxText bounds a text an episode keeps from a log (an id, an action, a
// room, an objective, why it ended): no output shows more of one whole, and
// 3,000 turns of distinct actions of 60 KB must not cost 180 MB
// (docs/PERFORMANCE.md, "Memory").
const MaxText = 1 << 9

// Text is s as an episode keeps it: a copy; past MaxText bytes, its first
// bytes and the length and hash of the whole, so that texts equal or
// distinct in the log stay so.
func Text(s string) string {
	if len(s) <= MaxText {
		return strings.Clone(s)
	}
	cut := MaxText - 64
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return s[:cut] + fmt.Sprintf("… (%d bytes, xxh64 %016x)", len(s), xxhash.Sum64String(s))
}

// SameText says whether raw, a text of a log, is kept, as Text keeps it.
func SameText(raw, kept string) bool {
	if len(raw) <= MaxText {
		return raw == kept
	}
	return len(kept) <= MaxText && Text(raw) == kept
}

// textBudget is the bytes an episode's distinct texts may take whole, each
// counted with textEntry for its place in Texts's table: 200,000 turns of
// distinct actions and responses of MaxText bytes take 200 MB whole, and 8
// MiB of them whole take a log at the turn cap past 64 MiB of RSS
// (docs/PERFORMANCE.md, "Memory").
const textBudget = 1 << 20

// textEntry is what a text kept whole costs beside its bytes: its key and
// value in the table, and the table's slack.
const textEntry = 64

// Texts keeps the texts of one episode (actions, rooms, responses): equal
// texts share one copy, kept as Text keeps them, and past textBudget bytes of
// distinct ones a new distinct text is kept short (its first bytes, length
// and hash), still equal to another only when they are equal, but for a
// 64-bit hash's collisions. A text given may point into the line being read:
// what is kept is a copy.
type Texts struct {
	budget    int // textBudget when 0
	kept      map[string]string
	bytes     int
	shortened int // the texts kept short, each time
}

// Text is s as the episode keeps it.
func (x *Texts) Text(s string) string {
	key := s
	if len(s) > MaxText {
		key = Text(s)
	}
	if k, ok := x.kept[key]; ok {
		return k
	}
	if x.bytes+len(key)+textEntry > cmp.Or(x.budget, textBudget) {
		if len(s) > shortLen {
			x.shortened++
			return short(s)
		}
		return strings.Clone(s)
	}
	if x.kept == nil {
		x.kept = map[string]string{}
	}
	if len(s) <= MaxText {
		key = strings.Clone(s)
	}
	x.kept[key] = key
	x.bytes += len(key) + textEntry
	return key
}

// Note says, once, that texts were kept short, "" when none was.
func (x *Texts) Note() string {
	if x.shortened == 0 {
		return ""
	}
	return fmt.Sprintf("%d texts (actions, rooms, responses) past the first %d MiB of distinct ones are kept as their first bytes, length and hash: equal texts stay equal and distinct ones distinct (docs/PERFORMANCE.md, \"Memory\")",
		x.shortened, cmp.Or(x.budget, textBudget)>>20)
}

// shortHead is the bytes of a text short keeps, and shortLen the most a
// text kept short takes (a head, "…", a length of 3 digits, ":" and 16 hex
// digits: 32 bytes, the size of its allocation).
const (
	shortHead = 8
	shortLen  = shortHead + len("…") + 3 + 1 + 16
)

// short is s as its first bytes, its length and its 64-bit hash, e.g.
// "go north…512:1f3a9c0d12345678", made in one allocation: past the budget
// every step may make one.
func short(s string) string {
	cut := min(shortHead, len(s))
	for cut > 0 && cut < len(s) && !utf8.RuneStart(s[cut]) {
		cut--
	}
	var digits [20]byte
	n := strconv.AppendInt(digits[:0], int64(len(s)), 10)
	var b strings.Builder
	b.Grow(cut + len("…") + len(n) + 1 + 16)
	b.WriteString(s[:cut])
	b.WriteString("…")
	b.Write(n)
	b.WriteByte(':')
	h := xxhash.Sum64String(s)
	for shift := 60; shift >= 0; shift -= 4 {
		b.WriteByte("0123456789abcdef"[h>>shift&15])
	}
	return b.String()
}

// turnBlock is the turns a block of Turns holds (480 KB), and reserveAt the
// turns past which they are reserved at MaxTurn.
const (
	turnBlock = 1 << 12
	reserveAt = 16 * turnBlock
)

// Turns collects the turns of an episode being read, bounding the memory a
// long log takes while it grows (docs/PERFORMANCE.md, "Memory"). A slice
// grown by copying holds the old turns and the new at once, and the garbage
// of the copies before: at MaxTurn, several times the turns' own 23 MiB. Past
// turnBlock turns they are held in blocks, each filled before the next is
// made, and copied once into a slice of their number; past reserveAt, in a
// slice made for MaxTurn turns, whose pages no turn is written to take no
// memory (a copy of the blocks would double a long log), copied to its
// length when less than half used.
type Turns struct {
	blocks   [][]episode.Turn
	reserved []episode.Turn
	n        int
}

// longRead says whether this process has read an episode past reserveAt turns.
var longRead atomic.Bool

// Long says whether this process has read an episode of more than 65,536
// turns: one whose turns alone take 7.5 MiB or more, for which a command
// bounds the memory its collector lets grow (docs/PERFORMANCE.md, "Memory").
func Long() bool { return longRead.Load() }

// Len is the number of turns.
func (ts *Turns) Len() int { return ts.n }

// Add adds a turn.
func (ts *Turns) Add(tu episode.Turn) {
	ts.n++
	if ts.reserved != nil {
		ts.reserved = append(ts.reserved, tu)
		return
	}
	if ts.n > reserveAt && reserveAt < MaxTurn {
		longRead.Store(true)
		ts.reserved = append(ts.gather(MaxTurn), tu)
		return
	}
	k := len(ts.blocks) - 1
	if k < 0 || len(ts.blocks[k]) == turnBlock {
		var b []episode.Turn
		if k >= 0 {
			b = make([]episode.Turn, 0, turnBlock)
		}
		ts.blocks, k = append(ts.blocks, b), k+1
	}
	ts.blocks[k] = append(ts.blocks[k], tu) // the first grows as append grows it
}

// gather copies the blocks into a slice of capacity c, and lets them go.
func (ts *Turns) gather(c int) []episode.Turn {
	turns := make([]episode.Turn, 0, c)
	for _, b := range ts.blocks {
		turns = append(turns, b...)
	}
	ts.blocks = nil
	return turns
}

// Last is the last turn added; Len must be above 0.
func (ts *Turns) Last() episode.Turn {
	if ts.reserved != nil {
		return ts.reserved[ts.n-1]
	}
	b := ts.blocks[len(ts.blocks)-1]
	return b[len(b)-1]
}

// Slice is the turns, in one slice.
func (ts *Turns) Slice() []episode.Turn {
	switch {
	case ts.reserved != nil && cap(ts.reserved) > 2*ts.n:
		ts.blocks = [][]episode.Turn{ts.reserved}
		ts.reserved = nil
		return ts.gather(ts.n)
	case ts.reserved != nil:
		return ts.reserved
	case len(ts.blocks) == 1:
		return ts.blocks[0]
	}
	return ts.gather(ts.n)
}
