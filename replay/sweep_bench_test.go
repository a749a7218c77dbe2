package replay

import (
	"path/filepath"
	"runtime"
	"sync"
	"testing"

	"github.com/lbanalyze/lbanalyze/episode"
	"github.com/lbanalyze/lbanalyze/policy"
)

var bundled struct {
	once sync.Once
	eps  []*episode.Episode
}

// bundledEpisodes reads the 75 bundled episodes once.
func bundledEpisodes(b *testing.B) []*episode.Episode {
	bundled.once.Do(func() {
		paths, _ := filepath.Glob("../testdata/episodes/2025-*/episode_log.jsonl")
		for _, p := range paths {
			bundled.eps = append(bundled.eps, readFile(b, p)...)
		}
	})
	if len(bundled.eps) != 75 {
		b.Fatalf("%d bundled episodes, want 75", len(bundled.eps))
	}
	return bundled.eps
}

// benchGrid is the benchmark's 99,828 configs: the 3 policies ×
// max_turns_stuck 10..150 (141) × check interval 1..59 × warning threshold
// 5, 10, 15, 20.
func benchGrid() []policy.Policy {
	return grid([]policy.Name{policy.Score, policy.ScoreOrObjective, policy.Window}, values(10, 150, 1), values(1, 59, 1), []int{5, 10, 15, 20})
}

// metrics is a metric pass's per-config accumulation.
type metrics []struct{ terminated, candidates, censored, warned, length, saved, forgone int }

func newMetrics(n int) metrics { return make(metrics, n) }

func (m metrics) add(from int, out []Outcome) {
	m = m[from : from+len(out)]
	for k := range out {
		o, a := &out[k], &m[k]
		if o.Terminated() {
			a.terminated++
		}
		if o.FalseTerminationCandidate() {
			a.candidates++
		}
		if o.Censored {
			a.censored++
		}
		if o.WarningStartTurn > 0 {
			a.warned++
		}
		a.length += o.Length
		a.saved += o.TurnsSaved
		a.forgone += int(o.ScoreForgone)
	}
}

// BenchmarkSweep is the fast path over 99,828 configs × the 75 bundled
// episodes, on GOMAXPROCS workers, with a metric pass over every Outcome
// (parsing excluded).
func BenchmarkSweep(b *testing.B) {
	eps, ps := bundledEpisodes(b), benchGrid()
	acc := newMetrics(len(ps)) // each policy's are added by one worker only
	for b.Loop() {
		Sweep(eps, ps, runtime.GOMAXPROCS(0), func(_, _, from int, out []Outcome) { acc.add(from, out) })
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(eps)*len(ps)), "ns/outcome")
}

// BenchmarkSweepOutcomesOnly is BenchmarkSweep without the metric pass.
func BenchmarkSweepOutcomesOnly(b *testing.B) {
	eps, ps := bundledEpisodes(b), benchGrid()
	for b.Loop() {
		Sweep(eps, ps, runtime.GOMAXPROCS(0), func(int, int, int, []Outcome) {})
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(eps)*len(ps)), "ns/outcome")
}

// BenchmarkSweepBruteForce is BenchmarkSweep with Run per (episode, config),
// on every 100th config of the grid (998 of 99,828): multiply by 100 for the
// whole grid (the extrapolated-s/op metric).
func BenchmarkSweepBruteForce(b *testing.B) {
	eps, all := bundledEpisodes(b), benchGrid()
	var ps []policy.Policy
	for i := 0; i < len(all); i += 100 {
		ps = append(ps, all[i])
	}
	workers := runtime.GOMAXPROCS(0)
	acc := make([]metrics, workers) // Run's best order: one episode at a time, all its configs
	for w := range acc {
		acc[w] = newMetrics(len(ps))
	}
	for b.Loop() {
		var wg sync.WaitGroup
		for w := range workers {
			wg.Go(func() {
				out := make([]Outcome, len(ps))
				for i := w; i < len(eps); i += workers {
					for j, p := range ps {
						out[j] = Run(eps[i], p)
					}
					acc[w].add(0, out)
				}
			})
		}
		wg.Wait()
	}
	perOutcome := float64(b.Elapsed().Nanoseconds()) / float64(b.N*len(eps)*len(ps))
	b.ReportMetric(perOutcome, "ns/outcome")
	b.ReportMetric(perOutcome*float64(len(eps)*len(all))/1e9, "extrapolated-s/op")
}

// BenchmarkRun is the replay's cost per turn, for each policy, over the
// bundled episodes.
func BenchmarkRun(b *testing.B) {
	eps := bundledEpisodes(b)
	turns := 0
	for _, ep := range eps {
		turns += ep.N()
	}
	for _, name := range policy.Names() {
		b.Run("policy="+string(name), func(b *testing.B) {
			p := policy.Policy{Name: name}.With(policy.MaxTurnsStuck, 1000) // never stop: replay every turn
			for b.Loop() {
				for _, ep := range eps {
					Run(ep, p)
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*turns), "ns/turn")
		})
	}
}
