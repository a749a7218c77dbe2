package policy

import (
	"image/color"

	"github.com/lbanalyze/lbanalyze/episode"
)

// Increase is the score policy in mode max: only a new best score is progress.
const Increase Name = "increase"

func init() {
	register(Kind{Name: Increase, New: newIncrease, Variant: true,
		Settings:       timed(MinDelta, MinTurns),
		Color:          color.NRGBA{0x00, 0x9E, 0x73, 0xFF}, // bluish green
		Offered:        []episode.System{episode.Harness, episode.ZorkGPT2},
		Rule:           func(p Policy) string { return scoreRule(p, true) },
		Description:    "the score policy counting only a new best score as progress: a death penalty, or climbing back to a score already reached, does not reset the timer",
		Change:         "in _track_score_for_progress_detection, reset the timer only when current_score exceeds _last_tracked_score, and leave _last_tracked_score alone when the score falls",
		ZorkGPT2Change: "in record_results, reset turns_since_progress only when the score rises above its best so far, not during turn 1, " + afterResults})
}

// increase is patience with its score source in mode increase and nothing
// else: objectives and rooms are not progress. It has min_delta (a new best by
// less than D is not progress) and min_turns, but not the patience settings.
func newIncrease(p Policy) Tracker { return newPatienceTracker(p, ScoreIncrease, 0, 0) }
