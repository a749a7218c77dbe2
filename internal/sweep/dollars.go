package sweep

import (
	"slices"

	"github.com/lbanalyze/lbanalyze/episode"
	"github.com/lbanalyze/lbanalyze/internal/metrics"
	"github.com/lbanalyze/lbanalyze/policy"
	"github.com/lbanalyze/lbanalyze/replay"
)

// Dollars is what a config saves over the episodes in dollars, when the
// sweep is priced (--cost-per-mtok, --cost-per-call), with its 95%
// interval, made as batch's metrics' (metrics.SumIntervals), nil below
// metrics.MinN episodes.
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
	cis := metrics.SumIntervals(saved)
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
