package policy

import (
	"fmt"

	"github.com/lbanalyze/lbanalyze/episode"
)

// Repeat stops a run that takes the same action again and again
// (docs/policies.md, "Repetition rules").
const Repeat Name = "repeat"

func init() {
	registerRepetition(Kind{Name: Repeat, New: newRepeat,
		Settings:    []*Setting{Times, Then, Within},
		Needs:       episode.Signals(episode.Actions),
		Description: "stop at the step where the last times actions are the same, or with within=N at the step whose action is the times-th alike among the last N steps"})
}

func newRepeat(p Policy) Tracker {
	return newRepeating(p, actionKey, func(r *repeating, t, n int) string {
		return fmt.Sprintf("%s %d times %s", r.last(0), n, r.counted(t, n))
	})
}
