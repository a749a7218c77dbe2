package sweep

import (
	"math"
	"testing"
)

// The break-even by hand, from the bounds of the intervals: a change that
// saves at least 45 turns over at most 3.654 more episodes stopped before a
// later gain (0 of 75 differing: z²/(75+z²)·75) pays below 45/3.654 = 12.3
// turns an episode; one that avoids at least 5.6 such episodes at a cost of
// at most 1491 turns pays above 1491/5.6 = 266.25.
func TestRate(t *testing.T) {
	inf := math.Inf(1)
	for _, c := range []struct {
		saved, episodes float64
		safer           bool
		want            float64
	}{
		{45, 3.654, false, 45 / 3.654},
		{45, -1, false, inf}, // no more such episodes at the bound: at any value
		{45, 0, false, inf},
		{-10, 3.654, false, 0}, // it may save nothing: at no value
		{0, 3.654, false, 0},
		{-1491, -5.6, true, 266.25},
		{-1491, 0.5, true, inf}, // it may avoid none: only at no finite value
		{20, -5.6, true, 0},     // it costs nothing at the bound: at any value
	} {
		if got := rate(c.saved, c.episodes, c.safer); math.Abs(got-c.want) > 1e-9 && got != c.want {
			t.Errorf("rate(%v, %v, %v) = %v, want %v", c.saved, c.episodes, c.safer, got, c.want)
		}
	}
	r := &Result{Options: Options{ValuePerPoint: 10}}
	b := &BreakEven{Rate: 45 / 3.654, Saved: 45, Episodes: 3.654}
	if w := b.words(r); w != "ship if a lost solve (an episode stopped before a later gain) is worth less than 12.3 turns to you "+
		"(+45 turns over 3.7 more, the intervals' bounds); at --value-per-point 10.0 turns the trade-off favours the change, on "+
		"the intervals' bounds (the verdict above is the rule's, which the value does not change)" {
		t.Errorf("words: %q", w)
	}
	if b.verdict(13, "turns") == b.verdict(10, "turns") {
		t.Error("the verdict at 13 turns, above the break-even of 12.3, is the same as at 10")
	}
}
