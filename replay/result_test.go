package replay

import (
	"testing"

	"github.com/lbanalyze/lbanalyze/episode"
	"github.com/lbanalyze/lbanalyze/policy"
)

// TestJudgedByResult replays steps:max=3 over runs of 6 steps judged by
// their result (docs/semantics.md, "6.4 Runs judged by their result"),
// worked by hand: the score is 0 until step 6, which takes the result, so
// the stop at 3 has a later gain exactly when the result is above 0.
//
//   - solved (1): premature, 1 forgone, whatever the gain horizon (2 here,
//     the solve 3 steps after the stop);
//   - partial credit 0.25: premature, 0.25 forgone;
//   - failed (0): truly stuck, 3 steps saved;
//   - result unknown: unknown, not truly stuck;
//   - failed, ended by its own cap at 6 (cut): the stop at 3 is truly
//     stuck (the result says it failed), and steps:max=7 is censored.
func TestJudgedByResult(t *testing.T) {
	run := func(result *episode.Score, end episode.EndReason) *episode.Episode {
		ep := &episode.Episode{Format: "tau2", Turns: make([]episode.Turn, 6), End: episode.End{Reason: end, Turn: 6}}
		ep.SetResult(result)
		return ep
	}
	score := func(s episode.Score) *episode.Score { return &s }
	at3, _ := policy.Parse("steps:max=3", nil)
	at7, _ := policy.Parse("steps:max=7", nil)
	cases := []struct {
		name      string
		ep        *episode.Episode
		p         policy.Policy
		premature bool
		unknown   bool
		stuck     bool
		censored  bool
		forgone   episode.Score
	}{
		{"solved", run(score(1), episode.EndGameOver), at3, true, false, false, false, 1},
		{"partial", run(score(0.25), episode.EndGameOver), at3, true, false, false, false, 0.25},
		{"failed", run(score(0), episode.EndGameOver), at3, false, false, true, false, 0},
		{"unknown", run(nil, episode.EndGameOver), at3, false, true, false, false, 0},
		{"capped", run(score(0), episode.EndCap), at3, false, false, true, false, 0},
		{"capped, looser", run(score(0), episode.EndCap), at7, false, false, false, true, 0},
	}
	for _, c := range cases {
		o := Run(c.ep, c.p)
		o.GainHorizon = 2
		if o.FalseTerminationCandidate() != c.premature || o.Unknown() != c.unknown || o.TrulyStuck() != c.stuck ||
			o.Censored != c.censored || o.ScoreForgone != c.forgone {
			t.Errorf("%s: premature %v, unknown %v, stuck %v, censored %v, forgone %v", c.name,
				o.FalseTerminationCandidate(), o.Unknown(), o.TrulyStuck(), o.Censored, o.ScoreForgone)
		}
		out := make([]Outcome, 1)
		NewSweeper(c.ep).Outcomes([]policy.Policy{c.p}, out)
		if out[0].GainHorizon = o.GainHorizon; !SameResult(&o, &out[0]) {
			t.Errorf("%s: the sweep's outcome differs from Run's", c.name)
		}
	}
}
