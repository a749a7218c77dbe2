package policy

import (
	"fmt"
	"image/color"

	"github.com/lbanalyze/lbanalyze/episode"
)

// RepeatObserved stops a run that takes the same action and gets the same
// response again and again (docs/policies.md, "Repetition rules").
const RepeatObserved Name = "repeat-observed"

func init() {
	register(Kind{Name: RepeatObserved, New: newRepeatObserved, Variant: true, Window: repetitionWindow,
		Color:    color.NRGBA{0x11, 0x77, 0x33, 0xFF}, // green (until policies without a colour are given one)
		Settings: []*Setting{Times, Then, Ignore, Within},
		Needs:    episode.Signals(0).With(episode.Actions, episode.Responses),
		Change:   "keep the last times (action, response) pairs in the game loop and end the run at the step where they are all the same",
		Description: "a repetition rule: stop at the step where the last times steps took the same action and got the same response " +
			"(ignore removing what it matches from the responses first), or with within N where the step's pair is the times-th among the last N steps"})
}

func newRepeatObserved(p Policy) Tracker {
	ignore := p.Get(Ignore)
	return newRepeating(p, func(o Observation) uint64 { return pairKey(o, ignore) }, func(r *repeating, t, n int) string {
		return fmt.Sprintf("%s with the same response %d times %s", r.last(0), n, r.counted(t, n))
	})
}
