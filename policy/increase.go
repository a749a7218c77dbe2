package policy

import "image/color"

// Increase is the score policy in mode max: only a new best score is progress.
const Increase Name = "increase"

func init() {
	register(Kind{Name: Increase, New: newIncrease, Variant: true, ThresholdFree: true,
		Settings:    timed(MinDelta, MinTurns),
		Color:       color.NRGBA{0x00, 0x9E, 0x73, 0xFF}, // bluish green
		Description: "as score, but only a new best score is progress: a death penalty, or climbing back to a score already reached, does not reset the timer"})
}

// increase is patience with its score source in mode increase and nothing
// else: objectives and rooms are not progress. It has min_delta (a new best by
// less than D is not progress) and min_turns, but not the patience settings.
// Its anchor is the last new best, whatever W and I, and it stops at the
// first check turn from min_turns whose TurnsStuck reaches W: threshold-free
// (replay/increase_test.go checks the sweep's fast path against Run).
func newIncrease(p Policy) Tracker { return newPatienceTracker(p, ScoreIncrease, 0, 0) }
