package policy

import (
	"fmt"
	"image/color"

	"github.com/lbanalyze/lbanalyze/episode"
)

// Errored stops a run whose steps keep failing (docs/policies.md,
// "Repetition rules").
const Errored Name = "errors"

func init() {
	register(Kind{Name: Errored, New: newErrored, Variant: true, Window: repetitionWindow,
		Color:    color.NRGBA{0xAA, 0x44, 0x99, 0xFF}, // purple (until policies without a colour are given one)
		Settings: []*Setting{Times, Then, Within, SameAction},
		Needs:    episode.Signals(episode.Errors),
		Change:   "count the steps in a row whose action failed in the game loop and end the run when they reach times",
		Description: "a repetition rule: stop at the step where the last times steps errored (with action=same, the same action each time), " +
			"or with within N where the step is the times-th errored among the last N steps"})
}

func newErrored(p Policy) Tracker {
	same := p.Get(SameAction) == 1
	key := func(o Observation) uint64 {
		switch {
		case !o.Errored:
			return 0
		case same:
			return actionKey(o)
		}
		return 1
	}
	return newRepeating(p, key, func(r *repeating, t, n int) string {
		if same {
			return fmt.Sprintf("%s errored %d times %s", r.last(0), n, r.counted(t, n))
		}
		return fmt.Sprintf("%d errored steps %s", n, r.counted(t, n))
	})
}
