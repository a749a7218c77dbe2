package source

import (
	"cmp"
	"fmt"
	"strings"
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
// distinct actions and responses of MaxText bytes held 200 MB
// (docs/PERFORMANCE.md, "Memory").
const textBudget = 8 << 20

// textEntry is what a text kept whole costs beside its bytes: its key and
// value in the table, and the table's slack.
const textEntry = 64

// Texts keeps the texts of one episode (actions, rooms, responses): equal
// texts share one copy, kept as Text keeps them, and past textBudget bytes of
// distinct ones a new distinct text is kept short (short), still equal to
// another only when they are equal, but for a 64-bit hash's collisions. A
// text given may point into the line being read: what is kept is a copy.
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
// "go north…512:1f3a9c0d12345678".
func short(s string) string {
	cut := min(shortHead, len(s))
	for cut > 0 && cut < len(s) && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return fmt.Sprintf("%s…%d:%016x", s[:cut], len(s), xxhash.Sum64String(s))
}

// reserveAt is the turns past which an episode's turns are reserved at
// MaxTurn (AppendTurn).
const reserveAt = 1 << 14

// AppendTurn is turns with tu added. A slice grown by copying holds the old
// turns and the new at once, and the garbage of the copies before (a log at
// MaxTurn peaked at 113-130 MiB); past reserveAt turns the slice is made for
// MaxTurn once, whose pages no turn is written to take no memory
// (docs/PERFORMANCE.md, "Memory").
func AppendTurn(turns []episode.Turn, tu episode.Turn) []episode.Turn {
	if n := len(turns); n == cap(turns) && n >= reserveAt && n < MaxTurn {
		grown := make([]episode.Turn, n, MaxTurn)
		copy(grown, turns)
		turns = grown
	}
	return append(turns, tu)
}

// KeepTurns is turns as an episode keeps them: a reserved slice less than
// half used is copied to its length, so that an episode held with others
// holds at most twice its turns.
func KeepTurns(turns []episode.Turn) []episode.Turn {
	if cap(turns) > reserveAt && cap(turns) > 2*len(turns) {
		kept := make([]episode.Turn, len(turns))
		copy(kept, turns)
		return kept
	}
	return turns
}
