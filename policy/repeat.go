package policy

import (
	"fmt"
	"image/color"

	"github.com/lbanalyze/lbanalyze/episode"
)

// Repeat stops a run that takes the same action again and again
// (docs/policies.md, "Repetition rules").
const Repeat Name = "repeat"

func init() {
	register(Kind{Name: Repeat, New: newRepeat, Variant: true, Window: repetitionWindow,
		Color:    color.NRGBA{0x33, 0x22, 0x88, 0xFF}, // indigo (until policies without a colour are given one)
		Settings: []*Setting{Times, Then, Within},
		Needs:    episode.Signals(episode.Actions),
		Change:   "keep the last times actions in the game loop and end the run at the step where they are all the same",
		Description: "a repetition rule: stop at the step where the last times actions are the same (trimmed; a tool call by its name and arguments), " +
			"or with within N where the step's action is the times-th among the last N steps"})
}

func newRepeat(p Policy) Tracker {
	return newRepeating(p, actionKey, func(r *repeating, t, n int) string {
		return fmt.Sprintf("%s %d times %s", r.last(0), n, r.counted(t, n))
	})
}
