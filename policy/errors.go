package policy

import (
	"fmt"

	"github.com/lbanalyze/lbanalyze/episode"
)

// Errored stops a run whose steps keep failing (docs/policies.md,
// "Repetition rules").
const Errored Name = "errors"

func init() {
	registerRepetition(Kind{Name: Errored, New: newErrored,
		Settings:    []*Setting{Times, Then, Within, SameAction},
		Needs:       episode.Signals(episode.Errors),
		Description: "stop at the step where the last times steps errored (with action=same, errors of one action), or with within=N at the times-th errored step among the last N"})
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
