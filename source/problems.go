package source

import (
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

// Interner shares the strings that repeat turn after turn (room names,
// actions). A string given may point into the line being read: what is kept
// is a copy (Text).
type Interner map[string]string

// Intern is s, shared.
func (in Interner) Intern(s string) string {
	if len(s) > 64 {
		return Text(s)
	}
	if v, ok := in[s]; ok {
		return v
	}
	s = strings.Clone(s)
	in[s] = s
	return s
}
