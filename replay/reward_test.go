package replay

import (
	"math"
	"os"
	"testing"

	"github.com/lbanalyze/lbanalyze/episode"
	"github.com/lbanalyze/lbanalyze/policy"
	"github.com/lbanalyze/lbanalyze/source"
	stepsrc "github.com/lbanalyze/lbanalyze/source/steps"
)

// rewardEpisode reads testdata/steps/rewards.csv: 14 steps whose rewards sum
// to the scores 0.1, 0.2, 0.4, 0.4, 0.5, 0.55, 0.65, 0.65, 0.35, 0.85, 0.85,
// 0.85, 1.1, 1.1.
func rewardEpisode(t *testing.T) *episode.Episode {
	t.Helper()
	f, err := os.Open("../testdata/steps/rewards.csv")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	fields, _ := stepsrc.ParseFields("turn=Step,reward=Reward")
	eps, _ := source.ReadAll(stepsrc.Table{Fields: fields}, f, "rewards.csv", source.Options{})
	want := []episode.Score{0.1, 0.2, 0.4, 0.4, 0.5, 0.55, 0.65, 0.65, 0.35, 0.85, 0.85, 0.85, 1.1, 1.1}
	if len(eps) != 1 || eps[0].N() != len(want) {
		t.Fatalf("%d episodes", len(eps))
	}
	for i, s := range want {
		if eps[0].Turns[i].Score != s {
			t.Fatalf("turn %d: score %v, want %v exactly", i+1, eps[0].Turns[i].Score, s)
		}
	}
	return eps[0]
}

// A stop rule over a reward log with min_delta, worked by hand at
// max_turns_stuck 4, checked every 2 turns (increase: only a rise of at least
// min_delta above the tracked score is progress; turn 1 only sets it, 0.1):
//
//	delta 0.25: 0.4 at 3 is 0.3 above 0.1; 0.65 at 7 is 0.25 above 0.4
//	(exactly D counts, though 0.65 − 0.4 is not 0.25 in binary); 0.85 at 10
//	is only 0.2 above 0.65; 1.1 at 13 is. At the checks the timer is 2 (2),
//	1 (4), 3 (6), 1 (8), 3 (10), 5 (12): stop at 12, 5 stuck, at 0.85, and
//	1.1 at 13 forgoes 0.25, a later gain of +0.25 at 13: premature.
//	delta 1: no rise of 1 until 1.1 at 13 (1.0 above 0.1): stop at the first
//	check, 4, at 0.4; the best after is 1.1 (0.7 forgone), and 0.5 at 5 is
//	the first gain, +0.1.
//	delta 0: every rise counts (2, 3, 5, 6, 7, 10, 13): the timer is at most
//	2 at a check, no stop.
func TestMinDeltaOverRewards(t *testing.T) {
	ep := rewardEpisode(t)
	at := func(delta int) policy.Policy {
		return policy.Policy{Name: policy.Increase}.With(policy.MaxTurnsStuck, 4).With(policy.CheckInterval, 2).With(policy.MinDelta, delta)
	}
	for _, c := range []struct {
		p                   policy.Policy
		stop, stuck, saved  int
		score, forgone      string
		gainTurn            int
		gain                string
		premature, shownHow string
	}{
		{at(250), 12, 5, 2, "0.85", "0.25", 13, "0.25", "true", "increase 4/2 delta 0.25"},
		{at(1000), 4, 4, 10, "0.4", "0.7", 5, "0.1", "true", "increase 4/2"},
		{at(0), 0, 0, 0, "0", "0", 0, "", "false", "increase 4/2 delta 0"},
	} {
		o := Run(ep, c.p)
		gainTurn, gain := 0, ""
		if o.LaterGain != nil {
			gainTurn, gain = o.LaterGain.Turn, o.LaterGain.Points.String()
		}
		got := []any{o.TerminationTurn, o.TurnsStuck, o.TurnsSaved, o.ScoreAtTermination.String(), o.ScoreForgone.String(), gainTurn, gain,
			map[bool]string{true: "true", false: "false"}[o.FalseTerminationCandidate()], c.p.String()}
		want := []any{c.stop, c.stuck, c.saved, c.score, c.forgone, c.gainTurn, c.gain, c.premature, c.shownHow}
		for i := range got {
			if got[i] != want[i] {
				t.Errorf("%s: got %v, want %v", c.p, got, want)
				break
			}
		}
		if o.Terminated() {
			if d := float64(o.ScoreForgone) - (1.1 - float64(o.ScoreAtTermination)); math.Abs(d) > 1e-12 {
				t.Errorf("%s: forgone %v is not the best after the stop less the score at it", c.p, o.ScoreForgone)
			}
		}
	}
}
