package sweep

import (
	"fmt"
	"math"
	"slices"
	"testing"

	"github.com/lbanalyze/lbanalyze/episode"
	"github.com/lbanalyze/lbanalyze/internal/testlogs"
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

// grid is the policies of specs.
func grid(specs ...string) []policy.Policy {
	var ps []policy.Policy
	for _, s := range specs {
		p, _ := policy.Parse(s, nil)
		ps = append(ps, p)
	}
	return ps
}

// TestQuartileTimeCap: trials whose steps cannot be replayed (ticks of
// their agent's time) get the cap at the 75th percentile of their
// durations, a time cap. Worked by hand: 8 trials of 40, 90, 120, 150, 200,
// 300, 610 and 900 s (the last ended by its own timeout), those of 40, 120,
// 300 and 610 s solved. The 75th percentile by nearest rank is the 6th of
// 8, 300 s. time:max=300 stops the trial of 610 s at its 10th tick (300 s),
// losing its solve, and the one of 900 s at its 10th of 30, failed; the
// one of 300 s ends at its 10th tick, its last, and is not stopped. Ticks:
// 2+3+4+5+7+10+21+30 = 82, saved 11 + 20 = 31 (37.8%); 1 of 8 runs
// stopped before its solve (12.5%), Wilson's 95% interval
// (0.125 + 0.2401 ± 1.96·√(0.125·0.875/8 + 0.015006)) / 1.4802 = 2.2% …
// 47.1%. An untimed trial among them leaves no cap to give.
func TestQuartileTimeCap(t *testing.T) {
	var eps []*episode.Episode
	for i, d := range []float64{40, 90, 120, 150, 200, 300, 610, 900} {
		end := episode.EndGameOver
		if d == 900 {
			end = episode.EndCap
		}
		eps = append(eps, testlogs.Trial(fmt.Sprint(i), d, end, d == 40 || d == 120 || d == 300 || d == 610))
	}
	own := policy.Policy{Name: policy.OwnCap}
	r := Run(eps, grid("time:max=120", "time:max=300"), own, opts())
	want := "time max 300, the 75th percentile of these runs' durations in seconds: 1 solves lost, 1 of 8 runs stopped before their solve (12.5%, 95% CI 2.2% … 47.1%), turns saved 37.8%"
	if l := r.quartileLine(); len(l) != 1 || l[0].Text != want {
		t.Errorf("line %+v\nwant %q", l, want)
	}
	if j := r.quartileJSON(); j == nil || j.Config != "time max 300" || j.MaxSteps != nil || j.MaxSeconds == nil || *j.MaxSeconds != 300 ||
		j.Index == nil || *j.Index != 1 || j.Figures == nil || j.Figures.ScoreForgone != 1 || j.Figures.FalseTerminations != 1 ||
		math.Abs(j.Figures.TurnsSavedPct-100*31.0/82) > 1e-6 || j.StoppedCI == nil || math.Abs(j.StoppedCI[0]-2.2) > 0.05 || math.Abs(j.StoppedCI[1]-47.1) > 0.05 {
		t.Errorf("p75_cap %+v", j)
	}
	r = Run(eps, grid("time:max=120"), own, opts())
	if l := r.quartileLine(); len(l) != 1 || l[0].Text != "time max 300, the 75th percentile of these runs' durations in seconds, is not in the grid: add 300 to --max-seconds to see it" {
		t.Errorf("line %+v", l)
	}
	untimed := testlogs.Trial("untimed", 0, episode.EndGameOver, false)
	untimed.Signals = 0 // one tick without a time
	r = Run(append(eps, untimed), grid("time:max=300"), own, opts())
	if l, j := r.quartileLine(), r.quartileJSON(); l != nil || j != nil {
		t.Errorf("with an untimed trial: line %+v, p75_cap %+v; want none", l, j)
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
	if q := quartileSteps.quartile(eps); q != 15 {
		t.Fatalf("75th percentile %d, want 15", q)
	}
	r := Run(eps, grid("steps:max=10", "steps:max=15"), policy.Policy{Name: policy.None}, opts())
	want := "steps max 15, the 75th percentile of these runs' steps: 3 solves lost, 3 of 20 runs stopped before their solve (15.0%, 95% CI 5.2% … 36.0%), turns saved 7.1%"
	if l := r.quartileLine(); len(l) != 1 || l[0].Text != want {
		t.Errorf("line %+v\nwant %q", l, want)
	}
	// The answer's p75_cap gives the same figures.
	if j := r.quartileJSON(); j == nil || j.Config != "steps max 15" || j.MaxSteps == nil || *j.MaxSteps != 15 || j.MaxSeconds != nil || j.Index == nil || *j.Index != 1 || j.Figures == nil ||
		j.Figures.ScoreForgone != 3 || j.Figures.FalseTerminations != 3 || j.Figures.N != 20 || math.Abs(j.Figures.TurnsSavedPct-100*15.0/210) > 1e-6 ||
		j.StoppedCI == nil || math.Abs(j.StoppedCI[0]-5.2) > 0.05 || math.Abs(j.StoppedCI[1]-36.0) > 0.05 {
		t.Errorf("p75_cap %+v", j)
	}
	r = Run(eps, grid("steps:max=10"), policy.Policy{Name: policy.None}, opts())
	if l := r.quartileLine(); len(l) != 1 || l[0].Text != "steps max 15, the 75th percentile of these runs' steps, is not in the grid: add 15 to --max-steps to see it" {
		t.Errorf("line %+v", l)
	}
	if j := r.quartileJSON(); j == nil || j.Index != nil || j.Figures != nil || j.StoppedCI != nil || j.MaxSteps == nil || *j.MaxSteps != 15 {
		t.Errorf("p75_cap not in the grid %+v", j)
	}
}
