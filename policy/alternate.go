package policy

import (
	"fmt"

	"github.com/lbanalyze/lbanalyze/episode"
)

// Alternate stops a run that goes back and forth between two steps
// (docs/policies.md, "Repetition rules").
const Alternate Name = "alternate"

func init() {
	registerRepetition(Kind{Name: Alternate, New: newAlternate,
		Settings:    []*Setting{Times, Then, Ignore, Compare},
		Needs:       episode.Signals(episode.Actions),
		Description: "stop at the step where the last times steps alternate between two distinct (action, response) pairs, A, B, A, B, …, or with compare=action between two distinct actions"})
}

// An alternation is consecutive by definition: it has no within.
func newAlternate(p Policy) Tracker {
	ignore := ignored(p)
	key := func(o Observation) uint64 { return pairKey(o, ignore) }
	if p.Get(Compare) == 0 {
		key = actionKey
	}
	r := newRepeating(p, key, func(r *repeating, t, n int) string {
		return fmt.Sprintf("%s and %s in alternation over %d steps (%d–%d)", r.last(1), r.last(0), n, t-n+1, t)
	})
	r.count = alternating
	return r
}
