package sweep

import (
	"os"
	"testing"

	"github.com/lbanalyze/lbanalyze/internal/benchdata"
	"github.com/lbanalyze/lbanalyze/internal/corpus"
	"github.com/lbanalyze/lbanalyze/internal/metrics"
	"github.com/lbanalyze/lbanalyze/policy"
	"github.com/lbanalyze/lbanalyze/replay"
	"github.com/lbanalyze/lbanalyze/system"
)

// grid100k is 3 policies × max_turns_stuck 10..150 × check_interval 1..236:
// 99,828 configs.
func grid100k() []policy.Policy {
	var ps []policy.Policy
	for _, n := range []policy.Name{policy.Score, policy.ScoreOrObjective, policy.Window} {
		for w := 10; w <= 150; w++ {
			for iv := 1; iv <= 236; iv++ {
				p := policy.Policy{Name: n}.With(policy.MaxTurnsStuck, w).With(policy.CheckInterval, iv)
				ps = append(ps, p)
			}
		}
	}
	return ps
}

// BenchmarkRun100k is the whole sweep — every metric of every config, the
// front, the recommendation with its bootstrap, stability and
// cross-validation — of 99,828 configs over the 75 bundled episodes, the
// parse excluded.
func BenchmarkRun100k(b *testing.B) {
	eps, grid := bundled(b), grid100k()
	o := opts()
	for b.Loop() {
		Run(eps, grid, current, o)
	}
	b.ReportMetric(float64(len(grid)), "configs")
}

// BenchmarkRunDefaultGrid is `lbanalyze sweep testdata/episodes` less the parse.
func BenchmarkRunDefaultGrid(b *testing.B) {
	eps, grid := bundled(b), defaultGrid()
	o := opts()
	for b.Loop() {
		Run(eps, grid, current, o)
	}
}

// BenchmarkBruteForce100k replays every 100th config of the 100k grid with
// replay.Run, one at a time: multiply by 100 for the whole grid.
func BenchmarkBruteForce100k(b *testing.B) {
	eps, grid := bundled(b), grid100k()
	o := opts()
	for b.Loop() {
		defs := metrics.NewDefs(metrics.Costs{CallsPerTurn: o.CallsPerTurn}, false, system.ZorkGPT.Shows.Applies)
		c := defs.NewContribution()
		for i := 0; i < len(grid); i += 100 {
			sums := defs.NewSumsSlab(1)
			for _, ep := range eps {
				out := replay.Run(ep, grid[i])
				defs.Contribute(c, ep, &out)
				c.AddTo(&sums[0])
			}
		}
	}
}

// BenchmarkEvaluate100k is every metric of batch for each of 99,828 configs
// over the 75 bundled episodes, and the front: the sweep less its
// recommendation (bootstrap, stability, cross-validation), the parse excluded.
func BenchmarkEvaluate100k(b *testing.B) {
	eps, grid := bundled(b), grid100k()
	r := &Result{Options: opts(), N: len(eps), Defs: metrics.NewDefs(metrics.Costs{CallsPerTurn: opts().CallsPerTurn}, false, system.ZorkGPT.Shows.Applies)}
	for b.Loop() {
		cs := r.evaluate(eps, grid, nil)
		front(cs, all(len(cs)), r.saved)
	}
}

// BenchmarkStability is the rule chosen again on StabilityResamples
// bootstrap resamples of the bundled episodes, among the default grid's
// configs: the tallies along the chain (chain.go).
func BenchmarkStability(b *testing.B) {
	eps := ordered(bundled(b))
	r := Run(eps, defaultGrid(), current, opts())
	f := r.figures(eps, all(len(r.Configs)), nil)
	pools := [][]int{all(len(f.cells) - 1)}
	stop := benchdata.CPU(b)
	for b.Loop() {
		r.resample(f, pools)
	}
	stop()
}

// BenchmarkRunSet1000 is `lbanalyze sweep` over the 1,000 synthetic episodes
// less the reading, when LBANALYZE_SET1000 names their directory
// (docs/PERFORMANCE.md, "Many episodes"): what the sweep does once the
// episodes are read.
func BenchmarkRunSet1000(b *testing.B) {
	dir := os.Getenv("LBANALYZE_SET1000")
	if dir == "" {
		b.Skip("set LBANALYZE_SET1000 to the directory of synth --seed 1 --episodes 1000")
	}
	eps := corpus.Read([]string{dir}, corpus.Options{Jobs: 2}).Episodes
	grid, o := defaultGrid(), opts()
	stop := benchdata.CPU(b)
	for b.Loop() {
		Run(eps, grid, current, o)
	}
	stop()
}
