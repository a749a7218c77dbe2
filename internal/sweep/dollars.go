package sweep

import (
	"math/rand/v2"
	"runtime"
	"slices"
	"sync"

	"github.com/lbanalyze/lbanalyze/episode"
	"github.com/lbanalyze/lbanalyze/internal/metrics"
	"github.com/lbanalyze/lbanalyze/internal/stats"
	"github.com/lbanalyze/lbanalyze/policy"
	"github.com/lbanalyze/lbanalyze/replay"
)

// Dollars is what a config saves over the episodes in dollars, when the
// sweep is priced (--cost-per-mtok, --cost-per-call), with its 95%
// interval: the percentile bootstrap over episodes of batch's metrics
// (metrics.Resamples resamples, metrics.BootstrapSeed), nil below metrics.MinN
// episodes.
type Dollars struct {
	Saved float64
	CI    *[2]float64
}

// price gives the dollars saved by the configs the answer and the front
// show (every config of the front, the answer's, the best overall's) and by
// the current setting, by policy; nil when the sweep is not priced. All are
// measured on the same resamples.
func (r *Result) price(eps []*episode.Episode) map[policy.Policy]Dollars {
	costs := r.Costs
	if !costs.Priced() {
		return nil
	}
	idx := slices.Clone(r.Front)
	if a := r.Answer; a != nil {
		idx = append(idx, a.Config)
	}
	if o := r.BestOverall; o != nil {
		idx = append(idx, o.Config)
	}
	slices.Sort(idx)
	idx = slices.Compact(idx)
	ps := make([]policy.Policy, 0, len(idx)+1)
	for _, i := range idx {
		ps = append(ps, r.Configs[i].Policy)
	}
	ps = append(ps, r.Current.Policy)
	// saved[c][e]: what config c saves on episode e.
	saved := make([][]float64, len(ps))
	for c := range saved {
		saved[c] = make([]float64, len(eps))
	}
	out := make([]replay.Outcome, len(ps))
	for e, ep := range eps {
		replay.NewSweeper(ep).Outcomes(ps, out)
		for c := range out {
			saved[c][e], _ = costs.CostSaved(&out[c])
		}
	}
	cis := bootstrapSums(saved)
	prices := make(map[policy.Policy]Dollars, len(ps))
	for c, p := range ps {
		d := Dollars{CI: cis[c]}
		for _, v := range saved[c] {
			d.Saved += v
		}
		prices[p] = d
	}
	return prices
}

// bootstrapSums gives, for each row of x (a value an episode), the 95%
// percentile interval of its sum over resampled episodes, every row on the
// same resamples; nil intervals below metrics.MinN episodes. The rows are
// shared among the cores; each draws the resamples from the seed, so that
// the result does not depend on how many there are.
func bootstrapSums(x [][]float64) []*[2]float64 {
	ci := make([]*[2]float64, len(x))
	if len(x) == 0 || len(x[0]) < metrics.MinN {
		return ci
	}
	n := len(x[0])
	var wg sync.WaitGroup
	workers := min(len(x), runtime.GOMAXPROCS(0))
	for w := range workers {
		wg.Go(func() {
			rows := make([]int, 0, len(x)/workers+1)
			for c := w; c < len(x); c += workers {
				rows = append(rows, c)
			}
			sums := make([][]float64, len(rows))
			for k := range sums {
				sums[k] = make([]float64, metrics.Resamples)
			}
			rng := rand.New(rand.NewPCG(metrics.BootstrapSeed, uint64(n)))
			for b := range metrics.Resamples {
				for range n {
					e := rng.IntN(n)
					for k, c := range rows {
						sums[k][b] += x[c][e]
					}
				}
			}
			for k, c := range rows {
				p := stats.Percentiles(sums[k])
				ci[c] = &p
			}
		})
	}
	wg.Wait()
	return ci
}
