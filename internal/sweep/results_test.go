package sweep

import (
	"fmt"
	"slices"
	"testing"

	"github.com/lbanalyze/lbanalyze/episode"
	"github.com/lbanalyze/lbanalyze/policy"
)

// TestSolvesLost: over runs judged by their result the front's column of
// score forgone is the solves lost, each a solved run a step cap stops
// before its end: 20 runs of 10 steps, every other solved, so steps:max=5
// loses 10 solves; over ZorkGPT's bundled logs it stays the score forgone.
func TestSolvesLost(t *testing.T) {
	var eps []*episode.Episode
	for i := range 20 {
		ep := &episode.Episode{ID: fmt.Sprint(i), Format: "tau2", Turns: make([]episode.Turn, 10), End: episode.End{Reason: episode.EndGameOver, Turn: 10}}
		r := episode.Score(i % 2)
		ep.SetResult(&r)
		eps = append(eps, ep)
	}
	cap5, _ := policy.Parse("steps:max=5", nil)
	r := Run(eps, []policy.Policy{cap5}, policy.Policy{Name: policy.None}, opts())
	if h := r.FrontHeader(); !slices.Contains(h, "solves lost") || slices.Contains(h, "score forgone") {
		t.Errorf("header %q", h)
	}
	if c := r.Configs[0]; c.Tally.ScoreForgone != 10 {
		t.Errorf("steps max 5 forgoes %v, want 10 solves", c.Tally.ScoreForgone)
	}
	if h := Run(bundled(t), defaultGrid()[:2], policy.Policy{Name: policy.None}, opts()).FrontHeader(); !slices.Contains(h, "score forgone") {
		t.Errorf("bundled logs: header %q", h)
	}
}
