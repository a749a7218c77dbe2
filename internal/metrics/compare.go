package metrics

import (
	"math"

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

// Episode is what a metric reads of an episode besides its outcome.
type Episode struct {
	Turns      int
	Objectives []episode.Completion
	Signals    episode.Signals
}

// EpisodeOf is what a metric reads of ep.
func EpisodeOf(ep *episode.Episode) Episode {
	return Episode{Turns: ep.N(), Objectives: ep.Objectives, Signals: ep.Signals}
}

// Pair is an episode and its outcomes under the two policies compared.
type Pair struct {
	Episode
	Baseline, After replay.Outcome
}

// PairOf is ep with its outcomes under the two policies compared.
func PairOf(ep *episode.Episode, baseline, after replay.Outcome) Pair {
	return Pair{EpisodeOf(ep), baseline, after}
}

// Pairs are the episodes compared, each with its two outcomes.
type Pairs []Pair

// Len is how many.
func (ps Pairs) Len() int { return len(ps) }

// Get writes the i-th into p.
func (ps Pairs) Get(i int, p *Pair) { *p = ps[i] }

// Compared gives the episodes compared, one at a time: a dataset of many
// episodes holds them compacted, and makes each whole as it is read
// (docs/PERFORMANCE.md, "Many episodes").
type Compared interface {
	Len() int
	Get(i int, p *Pair)
}

// Compare computes every metric over the episodes, the baseline's outcome
// against the after policy's on each, with the interval of each change by
// its entry's method: those that apply to their logs (a), the cost
// saved as well when c prices it, and the tokens saved when some episode's
// log records tokens.
func Compare(pairs Compared, c Costs, a Applies) []Metric {
	n := pairs.Len()
	var p Pair
	costs, tokens := n > 0, false
	for i := range n {
		pairs.Get(i, &p)
		costs = costs && p.Signals.Has(episode.Costs)
		tokens = tokens || p.Signals.Has(episode.Tokens)
	}
	c.Recorded = costs // as Costs.For
	defs := registry(c, tokens, a)
	// side is an episode's numerator and denominator of metric d under one
	// policy (s: 0 baseline, 1 after): computed where read, not held, so
	// that many episodes cost no column a metric.
	side := func(d *entry, p *Pair, s int) (num, den float64) {
		o := &p.Baseline
		if s == 1 {
			o = &p.After
		}
		num, den = d.num(p.Episode, o), 1
		if d.den != nil {
			den = d.den(p.Episode, o)
		}
		return num, den
	}
	// One pass: each metric's sums under each policy, episode by episode
	// in order, and the counts of the shares' pairs.
	sums := make([][4]float64, len(defs)) // baseline num, den, after num, den
	shares := make([]shareCounts, len(defs))
	for i := range n {
		pairs.Get(i, &p)
		for k := range defs {
			d, t := &defs[k], &sums[k]
			bn, bd := side(d, &p, 0)
			an, ad := side(d, &p, 1)
			t[0], t[1], t[2], t[3] = t[0]+bn, t[1]+bd, t[2]+an, t[3]+ad
			if d.interval == PairedProportions {
				shares[k].add(bn != 0, an != 0)
			}
		}
	}
	metrics := make([]Metric, len(defs))
	var boot []int // the sums and means: the paired bootstrap's intervals, or the normal ones
	for k := range defs {
		d, m := &defs[k], &metrics[k]
		m.Name, m.Label, m.Unit, m.Expected = d.name, d.label, d.unit, d.expect
		m.Headline, m.Better, m.Lengths, m.Method = d.headline, d.better, d.lengths, d.interval
		m.Baseline, m.BaselineOK = d.value(sums[k][0], sums[k][1])
		m.After, m.AfterOK = d.value(sums[k][2], sums[k][3])
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
			m.proportions(d, n, shares[k])
		}
	}
	if n >= MinN && len(boot) > 0 {
		sub := make([]entry, len(boot))
		for j, k := range boot {
			sub[j] = defs[k]
		}
		ci, pct, sides, method := intervals(sub, n, func(i, j int, r []float64) {
			pairs.Get(i, &p) // intervals reads a metric's column at a time: i changes at every call
			for s := range 2 {
				r[2*s], r[2*s+1] = side(&sub[j], &p, s)
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

// shareCounts count the episodes by whether they have a property under
// each policy.
type shareCounts struct{ both, afterOnly, baseOnly int }

func (c *shareCounts) add(base, after bool) {
	switch {
	case after && base:
		c.both++
	case after:
		c.afterOnly++
	case base:
		c.baseOnly++
	}
}

// proportions sets the intervals of a metric of d, PairedProportions, over
// n episodes counted in c. The value is scale·k/n (perEpisode) or scale·k,
// so the intervals of the shares are scaled alike.
func (m *Metric) proportions(d *entry, n int, c shareCounts) {
	if n == 0 {
		return
	}
	both, afterOnly, baseOnly := c.both, c.afterOnly, c.baseOnly
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
