package balrog_test

import (
	"fmt"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/lbanalyze/lbanalyze/episode"
	"github.com/lbanalyze/lbanalyze/internal/corpus"
	"github.com/lbanalyze/lbanalyze/source/balrog"
)

// BALROG's layout as a walk of it reads it with no flags, on the runs of
// testdata/balrog (of lbanalyze's own making, in the layout and the two column
// orders evaluator.py writes; worked by hand in its README): every run read,
// named by its path below the directory given; TextWorld's Reward the score,
// Crafter's and BabyAI's a reward summed into it; the summary's tokens
// spread over the steps, the first ones one more where they do not divide;
// its done a game over, its absence with the steps at the run's count the
// budget spent; a run without its summary said so.
func TestFixture(t *testing.T) {
	c := corpus.Read([]string{"../../testdata/balrog/submissions"}, corpus.Options{Jobs: 2})
	if len(c.Messages) > 0 || len(c.Skipped) > 0 {
		t.Errorf("messages %q, skipped %+v", c.Messages, c.Skipped)
	}
	type run struct {
		id            string
		env, task     string
		model         string
		scores        []episode.Score
		tokens        []int64 // the first and the last step's
		end           episode.EndReason
		maxTurns      int
		noteOfSummary bool
		tokensFact    string
	}
	const a, b = "20250101_naive_model-a/", "20250102_cot_model-b/"
	want := []run{
		{a + "babyai/BabyAI-MixedTrainLocal-v0/goto/BabyAI-MixedTrainLocal-v0/goto_run_00", "babyai", "BabyAI-MixedTrainLocal-v0/goto", "model-a",
			[]episode.Score{0, 0, 0, 0, 0, 0.8125}, []int64{51, 51}, episode.EndGameOver, 0, false, "306"},
		{a + "crafter/default/default_run_00", "crafter", "default", "model-a",
			[]episode.Score{0, 1, 1, 0.9, 0.9, 1, 1, 2, 2, 2}, []int64{52, 52}, episode.EndGameOver, 0, false, "520"},
		{a + "textworld/treasure_hunter/treasure_hunter_run_00", "textworld", "treasure_hunter", "model-a",
			[]episode.Score{0, 0, 0, 1, 1, 1, 1, 1, 1, 1, 1, 2}, []int64{103, 102}, episode.EndGameOver, 0, false, "1234"},
		{a + "textworld/treasure_hunter/treasure_hunter_run_01", "textworld", "treasure_hunter", "model-a",
			[]episode.Score{0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0}, []int64{50, 50}, episode.EndMaxTurns, 12, false, "600"},
		{b + "crafter/default/default_run_00", "crafter", "default", "",
			[]episode.Score{0, 0, 1, 1, 1.1}, []int64{0, 0}, episode.EndNone, 0, true, ""},
		{b + "textworld/treasure_hunter/treasure_hunter_run_00", "textworld", "treasure_hunter", "model-b",
			[]episode.Score{0, 0, 1, 1, 2, 2, 2, 3}, []int64{101, 101}, episode.EndGameOver, 0, false, "808"},
	}
	var got []run
	for _, ep := range c.Episodes {
		if ep.Format != balrog.Format || !ep.IDFromPath || ep.ProblemCount > 0 {
			t.Errorf("%s: format %q, id from its path %v, problems %q", ep.ID, ep.Format, ep.IDFromPath, ep.ProblemMessages())
		}
		var scores []episode.Score
		var total int64
		for _, tu := range ep.Turns {
			scores = append(scores, tu.Score)
			total += tu.Tokens
		}
		if s := ep.Fact("tokens"); s != "" && s != fmt.Sprint(total) || ep.Estimated.Has(episode.Tokens) != (s != "") {
			t.Errorf("%s: %d tokens over the steps, fact %q, estimated %v", ep.ID, total, s, ep.Estimated.Has(episode.Tokens))
		}
		got = append(got, run{ep.ID, ep.Fact("env"), ep.Fact("task"), ep.Fact("model"), scores,
			[]int64{ep.Turns[0].Tokens, ep.Turns[ep.N()-1].Tokens}, ep.End.Reason, ep.MaxTurns,
			slices.ContainsFunc(ep.Notes, func(n string) bool { return strings.HasPrefix(n, "its summary, default_run_00.json, is not there") }),
			ep.Fact("tokens")})
	}
	slices.SortFunc(got, func(x, y run) int { return strings.Compare(x.id, y.id) })
	if !reflect.DeepEqual(got, want) {
		t.Errorf("runs\n%+v\nwant\n%+v", got, want)
	}
}
