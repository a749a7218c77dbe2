package sweep

import (
	"fmt"
	"math"
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

// TestQuartileCap: runs of 1 to 20 steps, those of an even length solved;
// the 75th percentile of their steps is 15 (the 15th of 20 by nearest
// rank), and steps:max=15 stops the runs of 16 to 20 steps, losing the
// solves of 16, 18 and 20 (3 of 20 runs stopped before their solve: 15.0%,
// Wilson's 95% interval (0.15 + 0.096 ± 1.96·√(0.15·0.85/20 + 0.0024)) / 1.192
// = 5.2% … 36.0%) and saving 1+2+3+4+5 = 15 of the 210 turns (7.1%).
// Without it in the grid the line says how to add it.
func TestQuartileCap(t *testing.T) {
	var eps []*episode.Episode
	for n := 1; n <= 20; n++ {
		ep := &episode.Episode{ID: fmt.Sprint(n), Format: "tau2", Turns: make([]episode.Turn, n), End: episode.End{Reason: episode.EndGameOver, Turn: n}}
		r := episode.Score(1 - n%2)
		ep.SetResult(&r)
		eps = append(eps, ep)
	}
	if q := quartileSteps(eps); q != 15 {
		t.Fatalf("75th percentile %d, want 15", q)
	}
	grid := func(specs ...string) []policy.Policy {
		var ps []policy.Policy
		for _, s := range specs {
			p, _ := policy.Parse(s, nil)
			ps = append(ps, p)
		}
		return ps
	}
	r := Run(eps, grid("steps:max=10", "steps:max=15"), policy.Policy{Name: policy.None}, opts())
	want := "steps max 15, the 75th percentile of these runs' steps: 3 solves lost, 3 of 20 runs stopped before their solve (15.0%, 95% CI 5.2% … 36.0%), turns saved 7.1%"
	if l := r.quartileLine(); len(l) != 1 || l[0].Text != want {
		t.Errorf("line %+v\nwant %q", l, want)
	}
	// The answer's p75_cap gives the same figures.
	if j := r.quartileJSON(); j == nil || j.Config != "steps max 15" || j.MaxSteps != 15 || j.Index == nil || *j.Index != 1 || j.Figures == nil ||
		j.Figures.ScoreForgone != 3 || j.Figures.FalseTerminations != 3 || j.Figures.N != 20 || math.Abs(j.Figures.TurnsSavedPct-100*15.0/210) > 1e-6 ||
		j.StoppedCI == nil || math.Abs(j.StoppedCI[0]-5.2) > 0.05 || math.Abs(j.StoppedCI[1]-36.0) > 0.05 {
		t.Errorf("p75_cap %+v", j)
	}
	r = Run(eps, grid("steps:max=10"), policy.Policy{Name: policy.None}, opts())
	if l := r.quartileLine(); len(l) != 1 || l[0].Text != "steps max 15, the 75th percentile of these runs' steps, is not in the grid: add 15 to --max-steps to see it" {
		t.Errorf("line %+v", l)
	}
	if j := r.quartileJSON(); j == nil || j.Index != nil || j.Figures != nil || j.StoppedCI != nil || j.MaxSteps != 15 {
		t.Errorf("p75_cap not in the grid %+v", j)
	}
}
