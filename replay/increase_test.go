package replay

import (
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/lbanalyze/lbanalyze/episode"
	"github.com/lbanalyze/lbanalyze/policy"
)

// increaseGrid is increase under W and I of a wide grid, warnings from 20
// and 5, and its own settings: min_delta 0, 0.5, 1 and 2.5 (in
// thousandths), min_turns 0, 1, below, at and past a check turn, past most
// logs and past any.
func increaseGrid() []policy.Policy {
	var ps []policy.Policy
	for _, d := range []int{0, 500, 1000, 2500} {
		for _, m := range []int{0, 1, 9, 10, 11, 250, 1 << 40} {
			for _, p := range grid([]policy.Name{policy.Increase}, append(values(1, 30, 1), 37, 41, 60, 100, 1000, 1<<40), []int{1, 3, 5, 10, 50, 250}, []int{20, 5}) {
				ps = append(ps, p.With(policy.MinDelta, d).With(policy.MinTurns, m))
			}
		}
	}
	return ps
}

// TestIncreaseFastPathEqualsRun: the sweep's fast path gives increase the
// outcome Run gives it, on every config of a wide grid (its own settings
// too, in grid order and shuffled), over random episodes and the bundled
// logs; so ThresholdFree holds for it.
func TestIncreaseFastPathEqualsRun(t *testing.T) {
	rng := rand.New(rand.NewPCG(23, 5))
	ps := increaseGrid()
	shuffled := slices.Clone(ps)
	rng.Shuffle(len(shuffled), func(i, j int) { shuffled[i], shuffled[j] = shuffled[j], shuffled[i] })
	fastPathOnRandom(t, policy.Increase, rng, 12, ps, shuffled)
	for _, path := range datasetLogs(t)[:8] {
		for _, ep := range readFile(t, path) {
			sweepMatchesRun(t, path, ep, ps)
		}
	}
}

// TestIncreaseWarmUpByHand: the fast path's stops under min_turns, worked
// by hand. The score is 0 to turn 2, 5 from turn 3 to 10, 3 from turn 11 on
// (20 turns): increase's last progress is turn 3 (the drop at 11 is no new
// best), so TurnsStuck is t − 3.
//   - W 4, I 1: the first turn with t − 3 ≥ 4 is 7; from turn 10, 10.
//   - W 4, I 4: check turns 4 (1 stuck) and 8 (5): 8; from turn 10 the
//     first check turn is 12 (9 stuck): 12; from turn 17, 20; from 21, none.
//   - W 20, I 1: t − 3 reaches 20 at 23, past the log: none.
func TestIncreaseWarmUpByHand(t *testing.T) {
	ep := &episode.Episode{ID: "warm-up", Turns: make([]episode.Turn, 20)}
	for i := range ep.Turns {
		switch {
		case i+1 >= 11:
			ep.Turns[i].Score = 3
		case i+1 >= 3:
			ep.Turns[i].Score = 5
		}
	}
	cases := []struct{ w, i, m, stop int }{
		{4, 1, 0, 7}, {4, 1, 10, 10}, {4, 4, 0, 8}, {4, 4, 10, 12}, {4, 4, 17, 20}, {4, 4, 21, 0}, {20, 1, 0, 0},
	}
	out := swept(ep, cases, func(c struct{ w, i, m, stop int }) policy.Policy {
		return policy.Policy{Name: policy.Increase}.WithTimer(policy.Timer{MaxTurnsStuck: c.w, CheckInterval: c.i, WarningThreshold: 20}).With(policy.MinTurns, c.m)
	})
	for k, c := range cases {
		if out[k].TerminationTurn != c.stop {
			t.Errorf("W %d, I %d, min_turns %d: stop at %d, want %d", c.w, c.i, c.m, out[k].TerminationTurn, c.stop)
		}
		if c.stop > 0 && out[k].TurnsStuck != c.stop-3 {
			t.Errorf("W %d, I %d, min_turns %d: %d turns stuck, want %d", c.w, c.i, c.m, out[k].TurnsStuck, c.stop-3)
		}
	}
}
