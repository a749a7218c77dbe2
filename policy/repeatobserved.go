package policy

import (
	"fmt"

	"github.com/lbanalyze/lbanalyze/episode"
)

// RepeatObserved stops a run that takes the same action and gets the same
// response again and again (docs/policies.md, "Repetition rules").
const RepeatObserved Name = "repeat-observed"

func init() {
	registerRepetition(Kind{Name: RepeatObserved, New: newRepeatObserved,
		Settings:    []*Setting{Times, Then, Ignore, Within},
		Needs:       episode.Signals(0).With(episode.Actions, episode.Responses),
		Description: "as repeat, for (action, response) pairs, ignore=REGEX removing what it matches from the responses first"})
}

func newRepeatObserved(p Policy) Tracker {
	ignore := ignored(p)
	return newRepeating(p, func(o Observation) uint64 { return pairKey(o, ignore) }, func(r *repeating, t, n int) string {
		return fmt.Sprintf("%s with the same response %d times %s", r.last(0), n, r.counted(t, n))
	})
}
