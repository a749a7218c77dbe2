package system

import (
	"strings"
	"testing"

	"github.com/lbanalyze/lbanalyze/episode"
	"github.com/lbanalyze/lbanalyze/policy"
)

// The block a harness is given: its rule in words and its settings; a policy
// that needs more than a score per step gets none.
func TestHarnessBlock(t *testing.T) {
	got, err := Harness.Block(policy.Policy{Name: policy.Increase})
	want := `# Stop rule (lbanalyze: increase 40/10), checked after every step:
#   At each step t that is a multiple of 10, stop the run if its score has not risen above
#   its best so far in the last 40 steps (t-40+1 to t); the score after step 1 is the
#   first one compared, so a move during step 1 does not count.
stop_rule = "increase"
max_turns_stuck = 40
check_interval = 10
min_delta = 1
min_turns = 0
`
	if err != nil || got != want {
		t.Errorf("increase 40/10:\n%s%v\nwant\n%s", got, err, want)
	}
	p := policy.Policy{Name: policy.Patience}.With(policy.ObjectivePatience, policy.ObjectivesOff).
		With(policy.ScoreMode, policy.ScoreIncrease).With(policy.MinDelta, 5000).With(policy.MinTurns, 50)
	got, err = Harness.Block(p)
	for _, s := range []string{"from step 50 on", "risen by at least 5 above the score of its last rise", `score_mode = "increase"`, "objective_patience = -1", "room_patience = 0"} {
		if err != nil || !strings.Contains(got, s) {
			t.Errorf("patience with score settings: %q lacks %q (%v)", got, s, err)
		}
	}
	// zorkburr's counter before or after step t (docs/zorkgpt2.md, "The stuck rule"): at 6/2 a
	// step t stops the run when no move came in t-5..t or in t-6..t-1.
	got, err = Harness.Block(at(policy.Zorkburr, 6, 2))
	want = `# Stop rule (lbanalyze: zorkburr 6/2), checked after every step:
#   At each step t that is a multiple of 2, stop the run if its score has not changed (up
#   or down) in the last 6 steps (t-6+1 to t), or in the 6 steps before step t; the score
#   before step 1 counts as 0, so a move during step 1 counts.
stop_rule = "zorkburr"
max_turns_stuck = 6
check_interval = 2
`
	if err != nil || got != want {
		t.Errorf("zorkburr 6/2:\n%s%v\nwant\n%s", got, err, want)
	}
	// none has no setting: its block is its rule alone.
	got, err = Harness.Block(at(policy.None, 40, 10))
	want = "# Stop rule (lbanalyze: none), checked after every step:\n#   Never stop the run before its budget: no stop rule.\nstop_rule = \"none\"\n"
	if err != nil || got != want {
		t.Errorf("none:\n%s%v\nwant\n%s", got, err, want)
	}
	for _, q := range []policy.Policy{at(policy.Window, 40, 10), at(policy.ScoreOrObjective, 40, 10), at(policy.Patience, 40, 10), at(policy.Supervisor, 40, 10)} {
		if _, err := Harness.Block(q); err == nil || !strings.Contains(err.Error(), "needs more than a score") {
			t.Errorf("%s: %v, want an error: it needs objectives", q, err)
		}
	}
}

// On logs with scores that are not whole, OfAll gives the harness whose rules
// say min_delta whatever it is: under the default of 1 a rise of 0.5 is no
// progress, so "risen above its best so far" would not be the rule replayed.
func TestHarnessOnRealScores(t *testing.T) {
	ep := func(scores ...episode.Score) *episode.Episode {
		e := &episode.Episode{Format: "csv"}
		for _, s := range scores {
			e.Turns = append(e.Turns, episode.Turn{Score: s})
		}
		return e
	}
	whole, real := []*episode.Episode{ep(0, 1, 3)}, []*episode.Episode{ep(0, 1, 3), ep(0, 0.5)}
	if s := OfAll(whole); s != Harness || s.Shows.RealScores {
		t.Errorf("whole scores: %s, real %v", s.Name, s.Shows.RealScores)
	}
	s := OfAll(real)
	if s.Name != Harness.Name || !s.Shows.RealScores {
		t.Fatalf("real scores: %s, real %v", s.Name, s.Shows.RealScores)
	}
	for _, c := range []struct {
		p    policy.Policy
		says string
	}{
		{policy.Policy{Name: policy.Increase}, "risen by at least 1 above the score of its last rise"},
		{policy.Policy{Name: policy.Increase}.With(policy.MinDelta, 250), "risen by at least 0.25 above the score of its last rise"},
		{policy.Policy{Name: policy.Increase}.With(policy.MinDelta, 0), "risen above its best so far"},
		{policy.Policy{Name: policy.Score}, "changed (up or down)"}, // score has no min_delta: any move
	} {
		got, err := s.Block(c.p)
		if err != nil || !strings.Contains(strings.Join(strings.Fields(strings.ReplaceAll(got, "#", "")), " "), c.says) {
			t.Errorf("%s on real scores: %q (%v), want it to say %q", c.p, got, err, c.says)
		}
	}
}
