package policy

import (
	"slices"
	"testing"
)

func TestIncrease(t *testing.T) {
	inc := pol(Increase, 40, 10)
	patInc := pat(func(p *Policy) { *p = p.With(ScoreMode, ScoreIncrease).With(ObjectivePatience, ObjectivesOff) })
	for _, c := range []struct {
		name        string
		w           walk
		score, incr result
	}{
		// A death penalty then recovery: 10 at 5, 0 at 30 (death), 10 at 35.
		// score: three changes, anchor 35, first check ≥ 75 is 80 (45).
		// increase: only 5 is a new best, first check ≥ 45 is 50 (45).
		{"death then recovery", walk{changes: map[int]int{5: 10, 30: 0, 35: 10}},
			result{80, 45, []string{"score_change@5", "score_change@30", "score_change@35"}},
			result{50, 45, []string{"score_change@5"}}},
		// A new best after a fall counts: 10 at 5, 0 at 20, 15 at 30 (> 10):
		// anchor 30, stop 70 (40) under both.
		{"new best after a fall", walk{changes: map[int]int{5: 10, 20: 0, 30: 15}},
			result{70, 40, []string{"score_change@5", "score_change@20", "score_change@30"}},
			result{70, 40, []string{"score_change@5", "score_change@30"}}},
		// The baseline is the score after turn 1 (a restored game at 25): a
		// fall to 20 and a climb back to 25 are no new best.
		{"restored game", walk{changes: map[int]int{1: 25, 10: 20, 20: 25}},
			result{60, 40, []string{"score_change@10", "score_change@20"}},
			result{40, 40, nil}},
		// Objectives are not progress under increase.
		{"objective", walk{objectives: []int{35}}, result{40, 40, nil}, result{40, 40, nil}},
	} {
		t.Run(c.name, func(t *testing.T) {
			for _, x := range []struct {
				p    Policy
				want result
			}{{v1, c.score}, {inc, c.incr}, {patInc, c.incr}} {
				got := c.w.run(x.p)
				if got.turn != x.want.turn || got.stuck != x.want.stuck || !slices.Equal(got.resets, x.want.resets) {
					t.Errorf("%s: stop %d (%d) resets %v; want %d (%d) %v", x.p, got.turn, got.stuck, got.resets,
						x.want.turn, x.want.stuck, x.want.resets)
				}
			}
		})
	}
}
