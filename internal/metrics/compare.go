package metrics

import (
	"math"
	"slices"

	"github.com/lbanalyze/lbanalyze/episode"
	"github.com/lbanalyze/lbanalyze/internal/stats"
	"github.com/lbanalyze/lbanalyze/replay"
)

// Metric is one metric of two policies over the same episodes, a baseline
// and an after policy: a line of batch's table (docs/semantics.md, "6.3 Dataset metrics").
type Metric struct {
	Name  string // JSON name, e.g. false_termination_rate
	Label string // words for tables
	Unit  Unit
	// Baseline and After are the values over all n episodes; BaselineOK and
	// AfterOK are false when the metric is undefined (a mean over no episodes).
	Baseline, After     float64
	BaselineOK, AfterOK bool
	Change              float64  // After − Baseline
	ChangePct           *float64 // Change / Baseline in %, nil when Baseline is 0 or undefined
	// Method is how the intervals are made: the entry's, or PairedNormal
	// for a sum or a mean from NormalFrom episodes.
	Method Method
	// CI is the 95% interval of Change, CIPct that of ChangePct (sums and
	// means only), made by Method; nil below MinN episodes or, for the
	// bootstrap, when too few resamples defined the statistic.
	CI, CIPct *[2]float64
	// BaselineCI and AfterCI are the 95% intervals of each policy's value:
	// Wilson's for a share of episodes, by Method else.
	BaselineCI, AfterCI *[2]float64
	// Discordant, for PairedProportions, counts the episodes with the
	// property under one policy only: [0] the after policy's, [1] the
	// baseline's.
	Discordant [2]int
	Expected   Expectation
	Verdict    string
	// Headline: one of the few figures a sweep states beside its answer;
	// Better says which way such a figure improves: +1 up, -1 down.
	Headline bool
	Better   int
	// Lengths: the metric rests on the episodes' lengths, which a censored
	// outcome makes lower bounds.
	Lengths bool
}

// Pair is an episode and its outcomes under the two policies compared.
type Pair struct {
	Ep              *episode.Episode
	Baseline, After *replay.Outcome
}

// Compare computes every metric over the episodes, the baseline's outcome
// against the after policy's on each, with the interval of each change by
// its entry's method: those that apply to their logs (a), the cost
// saved as well when c prices it, and the tokens saved when some episode's
// log records tokens.
func Compare(pairs []Pair, c Costs, a Applies) []Metric {
	eps := make([]*episode.Episode, len(pairs))
	for i := range pairs {
		eps[i] = pairs[i].Ep
	}
	defs := registry(c.For(eps...), slices.ContainsFunc(eps, func(ep *episode.Episode) bool { return ep.Signals.Has(episode.Tokens) }), a)
	n := len(pairs)
	// side is episode i's numerator and denominator of metric d under one
	// policy (s: 0 baseline, 1 after): computed where read, not held, so
	// that many episodes cost no column a metric.
	side := func(d *entry, i, s int) (num, den float64) {
		p := &pairs[i]
		o := p.Baseline
		if s == 1 {
			o = p.After
		}
		num, den = d.num(p.Ep, o), 1
		if d.den != nil {
			den = d.den(p.Ep, o)
		}
		return num, den
	}
	value := func(d *entry, s int) (float64, bool) {
		var num, den float64
		for i := range n {
			x, y := side(d, i, s)
			num += x
			den += y
		}
		return d.value(num, den)
	}
	metrics := make([]Metric, len(defs))
	var boot []int // the sums and means: the paired bootstrap's intervals, or the normal ones
	for k := range defs {
		d, m := &defs[k], &metrics[k]
		m.Name, m.Label, m.Unit, m.Expected = d.name, d.label, d.unit, d.expect
		m.Headline, m.Better, m.Lengths, m.Method = d.headline, d.better, d.lengths, d.interval
		m.Baseline, m.BaselineOK = value(d, 0)
		m.After, m.AfterOK = value(d, 1)
		if m.BaselineOK && m.AfterOK {
			m.Change = m.After - m.Baseline
			if m.Baseline != 0 {
				pct := 100 * m.Change / m.Baseline
				m.ChangePct = &pct
			}
		}
		switch d.interval {
		case PairedBootstrap:
			boot = append(boot, k)
		case PairedProportions:
			m.proportions(d, n, func(i int) (base, after bool) {
				b, _ := side(d, i, 0)
				a, _ := side(d, i, 1)
				return b != 0, a != 0
			})
		}
	}
	if n >= MinN && len(boot) > 0 {
		sub := make([]entry, len(boot))
		for j, k := range boot {
			sub[j] = defs[k]
		}
		ci, pct, sides, method := intervals(sub, n, func(i int, row []float64) {
			for j := range sub {
				for s := range 2 {
					row[4*j+2*s], row[4*j+2*s+1] = side(&sub[j], i, s)
				}
			}
		})
		for j, k := range boot {
			metrics[k].CI, metrics[k].CIPct = ci[j], pct[j]
			metrics[k].BaselineCI, metrics[k].AfterCI = sides[j][0], sides[j][1]
			metrics[k].Method = method[j]
		}
	}
	for k := range metrics {
		metrics[k].Verdict = verdictOf(&metrics[k], n)
	}
	return metrics
}

// proportions sets the intervals of a metric of d, PairedProportions: has
// says whether episode i of n has the property under each policy. The value
// is scale·k/n (perEpisode) or scale·k, so the intervals of the shares are
// scaled alike.
func (m *Metric) proportions(d *entry, n int, has func(i int) (base, after bool)) {
	if n == 0 {
		return
	}
	var both, afterOnly, baseOnly, neither int
	for i := range n {
		switch b, a := has(i); {
		case a && b:
			both++
		case a:
			afterOnly++
		case b:
			baseOnly++
		default:
			neither++
		}
	}
	scale := d.scale
	if !d.perEpisode {
		scale *= float64(n)
	}
	side := func(k int) *[2]float64 {
		lo, hi := stats.Wilson(k, n)
		return &[2]float64{scale * lo, scale * hi}
	}
	_, lo, hi := stats.TangoPaired(afterOnly, baseOnly, n)
	m.CI = &[2]float64{scale * lo, scale * hi}
	m.BaselineCI, m.AfterCI = side(both+baseOnly), side(both+afterOnly)
	m.Discordant = [2]int{afterOnly, baseOnly}
}

// Significant reports whether the 95% interval of the change lies on one
// side of 0 (false without an interval).
func (m *Metric) Significant() bool { return m.CI != nil && (m.CI[0] > 0 || m.CI[1] < 0) }

// verdictOf compares a change with its interval and the expected change.
// "~" marks a change whose interval contains 0 (not significant), as
// benchstat does.
func verdictOf(m *Metric, n int) string {
	if !m.BaselineOK || !m.AfterOK {
		return "undefined"
	}
	if m.CI == nil {
		if n < MinN {
			return "n too small"
		}
		return "no interval"
	}
	significant := m.Significant()
	switch m.Expected.Kind {
	case expectSame:
		if significant {
			return "changed (expected no change)"
		}
		return "~ (unchanged, as expected)"
	case expectRange:
		if !significant {
			return "~ (expected " + m.Expected.Text + ")"
		}
		if m.ChangePct == nil {
			return "significant"
		}
		p, e := *m.ChangePct, m.Expected
		dir := math.Copysign(1, e.Lo+e.Hi) // the expected direction
		near, far := min(math.Abs(e.Lo), math.Abs(e.Hi)), max(math.Abs(e.Lo), math.Abs(e.Hi))
		switch {
		case p*dir <= 0:
			return "opposite to expected"
		case math.Abs(p) < near:
			return "smaller than expected"
		case math.Abs(p) > far:
			return "larger than expected"
		}
		return "as expected"
	}
	if significant {
		return "significant"
	}
	return "~"
}
