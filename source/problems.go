package source

import (
	"fmt"
	"strings"

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

// Interner shares the strings that repeat turn after turn (room names,
// actions). A string given may point into the line being read: what is kept
// is a copy.
type Interner map[string]string

// Intern is s, shared.
func (in Interner) Intern(s string) string {
	if len(s) > 64 {
		return strings.Clone(s)
	}
	if v, ok := in[s]; ok {
		return v
	}
	s = strings.Clone(s)
	in[s] = s
	return s
}
