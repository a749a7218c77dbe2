package policy

import (
	"fmt"
	"image/color"

	"github.com/lbanalyze/lbanalyze/episode"
)

// Alternate stops a run that goes back and forth between two steps
// (docs/policies.md, "Repetition rules").
const Alternate Name = "alternate"

func init() {
	register(Kind{Name: Alternate, New: newAlternate, Variant: true, Window: repetitionWindow,
		Color:    color.NRGBA{0x88, 0x22, 0x55, 0xFF}, // wine (until policies without a colour are given one)
		Settings: []*Setting{Times, Then, Ignore, Compare},
		Needs:    episode.Signals(episode.Actions),
		Change:   "keep the last times (action, response) pairs in the game loop and end the run at the step where they alternate between two",
		Description: "a repetition rule: stop at the step where the last times steps alternate between two distinct (action, response) pairs, " +
			"A, B, A, B, … (ignore removing what it matches from the responses first), or with compare=action two distinct actions"})
}

// An alternation is consecutive by definition: it has no within.
func newAlternate(p Policy) Tracker {
	ignore := p.Get(Ignore)
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
