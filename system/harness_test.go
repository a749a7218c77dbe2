package system

import (
	"strings"
	"testing"

	"github.com/lbanalyze/lbanalyze/episode"
	"github.com/lbanalyze/lbanalyze/policy"
)

// The block a harness is given: its rule in one sentence, where the lines go,
// and Python that runs it (cmd/lbanalyze's TestHarnessPython runs it on
// logged episodes); every line fits 80 columns. A policy that needs more
// than a score per step gets none.
func TestHarnessBlock(t *testing.T) {
	got, err := Harness.Block(policy.Policy{Name: policy.Increase})
	want := `# Stop rule (lbanalyze: increase 40/10): at each step t that is a multiple of
# 10, stop the run if its score has not risen above its best so far in the last
# 40 steps (t-40+1 to t); the score after step 1 is the first one compared, so
# a move during step 1 does not count.
# In the step loop: loop_break = LoopBreak() before it; after each step,
#   if loop_break.stop(score): break      # score: the score after the step
# TALES: in benchmark.py's evaluate(), LoopBreak() before "for step in ...",
#   and the if after "results.append(...)", so that the last step is logged.
class LoopBreak:
    MAX_TURNS_STUCK, CHECK_INTERVAL = 40, 10

    def __init__(self):
        self.step, self.last, self.tracked = 0, 0, None

    def stop(self, score):
        self.step += 1
        if self.tracked is None:  # step 1 sets the score compared
            self.tracked = score
        elif score > self.tracked:  # a new best
            self.tracked, self.last = score, self.step
        return (self.step % self.CHECK_INTERVAL == 0
                and self.step - self.last >= self.MAX_TURNS_STUCK)
`
	if err != nil || got != want {
		t.Errorf("increase 40/10:\n%s%v\nwant\n%s", got, err, want)
	}
	for _, c := range []struct {
		p    policy.Policy
		want []string
	}{
		{policy.Policy{Name: policy.Patience}.With(policy.ObjectivePatience, policy.ObjectivesOff).
			With(policy.ScoreMode, policy.ScoreIncrease).With(policy.MinDelta, 5000).With(policy.MinTurns, 50),
			[]string{"from step 50 on", "risen by at least 5 above the score of its last rise", "MIN_DELTA, MIN_TURNS = 40, 10, 5, 50",
				"elif score - self.tracked >= self.MIN_DELTA:", "and self.step >= self.MIN_TURNS"}},
		{policy.Policy{Name: policy.Patience}.With(policy.ObjectivePatience, policy.ObjectivesOff).With(policy.MinDelta, 3000),
			[]string{"moved by at least 3, up or down", "elif abs(score - self.tracked) >= self.MIN_DELTA:"}},
		{at(policy.Score, 30, 1), []string{"at every step t, stop the run if its score has not changed (up or down) in the last 30",
			"elif score != self.tracked:  # any change, up or down"}},
		// zorkburr's counter before or after step t (docs/zorkgpt2.md, "The stuck rule"): at 6/2 a
		// step t stops the run when no move came in t-5..t or in t-6..t-1.
		{at(policy.Zorkburr, 6, 2), []string{"or in the 6 steps before step t; the score before step 1 counts", "max(before, self.count) >= self.MAX_TURNS_STUCK"}},
		{at(policy.None, 40, 10), []string{"never stop the run before its budget", "return False"}},
	} {
		got, err := Harness.Block(c.p)
		flat := strings.ReplaceAll(got, "\n# ", " ") // the comment's sentence on one line
		for _, s := range c.want {
			if err != nil || !strings.Contains(flat, s) {
				t.Errorf("%s: %q lacks %q (%v)", c.p, got, s, err)
			}
		}
		for l := range strings.Lines(got) {
			if len(strings.TrimSuffix(l, "\n")) > blockWidth {
				t.Errorf("%s: %q is over %d columns", c.p, l, blockWidth)
			}
		}
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
	if s != OfAll(real) {
		t.Error("two harnesses for logs of one kind")
	}
	// The Python compares a move with MIN_DELTA to 9 decimals, as the
	// tracker does: 0.65 - 0.4 is 0.25000000000000006... or below in binary.
	for _, c := range []struct {
		p    policy.Policy
		says []string
	}{
		{policy.Policy{Name: policy.Increase}, []string{"risen by at least 1 above the score of its last rise",
			"MIN_DELTA = 40, 10, 1", "elif score - self.tracked + 1e-9 >= self.MIN_DELTA:"}},
		{policy.Policy{Name: policy.Increase}.With(policy.MinDelta, 250), []string{"risen by at least 0.25 above the score of its last rise",
			"MIN_DELTA = 40, 10, 0.25", "elif score - self.tracked + 1e-9 >= self.MIN_DELTA:"}},
		{policy.Policy{Name: policy.Patience}.With(policy.ObjectivePatience, policy.ObjectivesOff).With(policy.MinDelta, 100),
			[]string{"moved by at least 0.1, up or down", "elif abs(score - self.tracked) + 1e-9 >= self.MIN_DELTA:"}},
		{policy.Policy{Name: policy.Increase}.With(policy.MinDelta, 0), []string{"risen above its best so far", "elif score > self.tracked:"}},
		{policy.Policy{Name: policy.Score}, []string{"changed (up or down)", "elif score != self.tracked:"}}, // score has no min_delta: any move
	} {
		got, err := s.Block(c.p)
		flat := strings.ReplaceAll(got, "\n# ", " ")
		for _, want := range c.says {
			if err != nil || !strings.Contains(flat, want) {
				t.Errorf("%s on real scores: %q (%v), want it to say %q", c.p, got, err, want)
			}
		}
	}
}

// BALROG's logs are told where the lines go in BALROG's loop, and what the
// score is there; every other harness's, in TALES's.
func TestHarnessOnBALROG(t *testing.T) {
	ep := func(format string, scores ...episode.Score) *episode.Episode {
		e := &episode.Episode{Format: format}
		for _, s := range scores {
			e.Turns = append(e.Turns, episode.Turn{Score: s})
		}
		return e
	}
	for _, c := range []struct {
		eps          []*episode.Episode
		says, lacks  string
		realDecimals bool
	}{
		{[]*episode.Episode{ep("balrog", 0, 1)}, "# BALROG: in evaluator.py's run_episode()", "# TALES:", false},
		{[]*episode.Episode{ep("balrog", 0, 0.5), ep("balrog", 1)}, "score: episode_return (TextWorld", "# TALES:", true},
		{[]*episode.Episode{ep("balrog", 0, 1), ep("tales", 1)}, "# TALES: in benchmark.py's evaluate()", "# BALROG:", false},
	} {
		s := OfAll(c.eps)
		got, err := s.Block(policy.Policy{Name: policy.Increase})
		flat := strings.ReplaceAll(got, "\n#   ", " ")
		if err != nil || !strings.Contains(flat, c.says) || strings.Contains(got, c.lacks) || s.Shows.RealScores != c.realDecimals {
			t.Errorf("%d episodes: %q (%v), want %q and no %q; real scores %v", len(c.eps), got, err, c.says, c.lacks, s.Shows.RealScores)
		}
		for l := range strings.Lines(got) {
			if len(strings.TrimSuffix(l, "\n")) > blockWidth {
				t.Errorf("%q is over %d columns", l, blockWidth)
			}
		}
	}
}
