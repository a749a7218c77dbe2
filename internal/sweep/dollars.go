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
	if a := r.Answer; a != nil && a.Config >= 0 {
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
// same resamples; nil intervals below metrics.MinN episodes. Rows equal on
// every episode are summed once; the episodes' values lie together, so that
// a resample adds each drawn episode's in one pass. The resamples are drawn
// in blocks, each from its own seeded generator, shared among the cores: the
// result does not depend on how many there are.
func bootstrapSums(x [][]float64) []*[2]float64 {
	ci := make([]*[2]float64, len(x))
	if len(x) == 0 || len(x[0]) < metrics.MinN {
		return ci
	}
	n := len(x[0])
	var uniq [][]float64 // the distinct rows
	col := make([]int, len(x))
	for c, row := range x {
		col[c] = slices.IndexFunc(uniq, func(u []float64) bool { return slices.Equal(u, row) })
		if col[c] < 0 {
			col[c] = len(uniq)
			uniq = append(uniq, row)
		}
	}
	width := len(uniq)
	byEpisode := make([]float64, n*width) // episode e's values at [e*width, (e+1)*width)
	for u, row := range uniq {
		for e, v := range row {
			byEpisode[e*width+u] = v
		}
	}
	sums := make([][]float64, width) // by distinct row, a sum a resample
	for u := range sums {
		sums[u] = make([]float64, metrics.Resamples)
	}
	const block = 256
	blocks := (metrics.Resamples + block - 1) / block
	next := make(chan int, blocks)
	for b := range blocks {
		next <- b
	}
	close(next)
	var wg sync.WaitGroup
	for range min(blocks, runtime.GOMAXPROCS(0)) {
		wg.Go(func() {
			acc := make([]float64, width)
			for b := range next {
				rng := rand.New(rand.NewPCG(metrics.BootstrapSeed, uint64(n)<<32|uint64(b)))
				for r := b * block; r < min((b+1)*block, metrics.Resamples); r++ {
					clear(acc)
					for range n {
						e := rng.IntN(n)
						for u, v := range byEpisode[e*width : (e+1)*width] {
							acc[u] += v
						}
					}
					for u, v := range acc {
						sums[u][r] = v
					}
				}
			}
		})
	}
	wg.Wait()
	for c := range x {
		p := stats.Percentiles(slices.Clone(sums[col[c]]))
		ci[c] = &p
	}
	return ci
}
