package report

import (
	"math"
	"math/rand/v2"
	"slices"

	"github.com/lbanalyze/lbanalyze/replay"
)

// Bootstrap settings: fixed, so that the same episodes give the same intervals.
const (
	Resamples     = 10_000
	BootstrapSeed = 1
	// MinN is the smallest number of episodes an interval is given for (with
	// fewer, percentiles of a resampled statistic say little).
	MinN = 5
)

// Metric is one line of the baseline/after table (docs/semantics.md §6.3).
type Metric struct {
	Name  string // JSON name, e.g. false_termination_rate
	Label string // words for tables
	Unit  unit
	// Baseline and After are the values over all n episodes; BaselineOK and
	// AfterOK are false when the metric is undefined (a mean over no episodes).
	Baseline, After     float64
	BaselineOK, AfterOK bool
	Change              float64  // After − Baseline
	ChangePct           *float64 // Change / Baseline in %, nil when Baseline is 0 or undefined
	// CI is the 95% interval of Change from the paired bootstrap, CIPct that of
	// ChangePct; nil when n < MinN or too few resamples were defined.
	CI, CIPct *[2]float64
	Expected  Expectation
	Verdict   string
}

type unit int

const (
	count   unit = iota // episodes, turns, points: whole numbers
	mean                // a mean, 1 decimal
	percent             // a share in %, 1 decimal
	dollars             // money, 2 decimals
)

// Expectation is the specification's expected change (its section 8).
type Expectation struct {
	Text   string  // as shown: "-30% to -50%", "no change", ""
	Lo, Hi float64 // the range of the relative change in %, for a range
	Kind   int     // expectNone, expectRange, expectSame
}

const (
	expectNone = iota
	expectRange
	expectSame
)

// sides holds per-episode values under the baseline (0) and the after (1) policy.
type sides [2][]float64

// metricDef says how a metric is computed over a set of episodes, each with
// the outcome of one policy: scale·Σnum/Σden, scale·Σnum/n (perEpisode) or
// scale·Σnum. A metric is defined once, over (episode, outcome), whichever
// policies a command compares.
type metricDef struct {
	name, label string
	unit        unit
	num, den    func(ep *replay.Episode, o *replay.Outcome) float64
	perEpisode  bool    // divide by n
	scale       float64 // multiplies the value (100 for %, calls per turn)
	expect      Expectation
}

// value is the metric from its summed numerator and denominator; false when
// it is undefined (a mean over no episodes).
func (d *metricDef) value(num, den float64) (float64, bool) {
	if d.den != nil || d.perEpisode {
		if den == 0 {
			return 0, false
		}
		return d.scale * num / den, true
	}
	return d.scale * num, true
}

func b2f(b bool) float64 {
	if b {
		return 1
	}
	return 0
}

// metricDefs are the metrics of §6.3 with their definitions.
func metricDefs(callsPerTurn int) []metricDef {
	return []metricDef{
		{name: "episodes_terminated", label: "episodes terminated", unit: count, scale: 1,
			num: func(ep *replay.Episode, o *replay.Outcome) float64 { return b2f(o.Terminated()) }},
		{name: "false_termination_candidates", label: "false-termination candidates", unit: count, scale: 1,
			num: func(ep *replay.Episode, o *replay.Outcome) float64 { return b2f(o.FalseTerminationCandidate()) }},
		{name: "false_termination_rate", label: "false-termination rate", unit: percent, perEpisode: true, scale: 100,
			num:    func(ep *replay.Episode, o *replay.Outcome) float64 { return b2f(o.FalseTerminationCandidate()) },
			expect: Expectation{Text: "-30% to -50%", Lo: -50, Hi: -30, Kind: expectRange}},
		{name: "avg_turns_per_episode", label: "average turns per episode", unit: mean, perEpisode: true, scale: 1,
			num:    func(ep *replay.Episode, o *replay.Outcome) float64 { return float64(o.Length) },
			expect: Expectation{Text: "+10% to +20%", Lo: 10, Hi: 20, Kind: expectRange}},
		{name: "avg_turns_stuck_at_termination", label: "average turns stuck at termination", unit: mean, scale: 1,
			num: func(ep *replay.Episode, o *replay.Outcome) float64 {
				if o.Terminated() {
					return float64(o.TurnsStuck)
				}
				return 0
			},
			den: func(ep *replay.Episode, o *replay.Outcome) float64 { return b2f(o.Terminated()) }},
		{name: "objective_completions_in_terminated", label: "objective completions in terminated episodes", unit: count, scale: 1,
			num: func(ep *replay.Episode, o *replay.Outcome) float64 {
				return b2f(o.Terminated()) * float64(len(ep.Objectives))
			}},
		{name: "episodes_with_objective_completions", label: "episodes with objective completions", unit: count, scale: 1,
			num: func(ep *replay.Episode, o *replay.Outcome) float64 {
				length := o.Length
				return b2f(slices.ContainsFunc(ep.Objectives, func(c replay.Completion) bool { return c.Turn <= length }))
			},
			expect: Expectation{Text: "no change", Kind: expectSame}},
		{name: "truly_stuck_terminations", label: "truly stuck terminations", unit: count, scale: 1,
			num:    func(ep *replay.Episode, o *replay.Outcome) float64 { return b2f(o.TrulyStuck()) },
			expect: Expectation{Text: "no change", Kind: expectSame}},
		{name: "turns_saved", label: "turns saved", unit: count, scale: 1,
			num: func(ep *replay.Episode, o *replay.Outcome) float64 { return float64(o.TurnsSaved) }},
		{name: "turns_saved_pct", label: "turns saved, share of logged turns", unit: percent, scale: 100,
			num: func(ep *replay.Episode, o *replay.Outcome) float64 { return float64(o.TurnsSaved) },
			den: func(ep *replay.Episode, o *replay.Outcome) float64 { return float64(ep.N()) }},
		{name: "llm_calls_saved", label: "LLM calls saved", unit: count, scale: float64(callsPerTurn),
			num: func(ep *replay.Episode, o *replay.Outcome) float64 { return float64(o.TurnsSaved) }},
		{name: "score_forgone", label: "score forgone", unit: count, scale: 1,
			num: func(ep *replay.Episode, o *replay.Outcome) float64 { return float64(o.ScoreForgone) }},
		{name: "censored", label: "censored outcomes", unit: count, scale: 1,
			num: func(ep *replay.Episode, o *replay.Outcome) float64 { return b2f(o.Censored) }},
	}
}

// Metrics computes every metric over the episodes, comparing the policy of
// column base (Outcomes[base]) with that of column after, with paired
// bootstrap intervals (the same resampled episodes for both policies).
func Metrics(eps []Episode, base, after, callsPerTurn int) []Metric {
	cols := [2]int{base, after}
	defs := metricDefs(callsPerTurn)
	n := len(eps)
	// Per-episode numerators and denominators, per metric and side.
	type vals struct{ num, den sides }
	v := make([]vals, len(defs))
	for k, d := range defs {
		for s := range 2 {
			v[k].num[s] = make([]float64, n)
			v[k].den[s] = make([]float64, n)
			for i := range eps {
				ep, o := eps[i].Ep, &eps[i].Outcomes[cols[s]]
				v[k].num[s][i] = d.num(ep, o)
				v[k].den[s][i] = 1
				if d.den != nil {
					v[k].den[s][i] = d.den(ep, o)
				}
			}
		}
	}
	value := func(k int, s int, idx []int) (float64, bool) {
		d := defs[k]
		var num, den float64
		for _, i := range idx {
			num += v[k].num[s][i]
			den += v[k].den[s][i]
		}
		return d.value(num, den)
	}

	all := make([]int, n)
	for i := range all {
		all[i] = i
	}
	metrics := make([]Metric, len(defs))
	for k, d := range defs {
		m := &metrics[k]
		m.Name, m.Label, m.Unit, m.Expected = d.name, d.label, d.unit, d.expect
		m.Baseline, m.BaselineOK = value(k, 0, all)
		m.After, m.AfterOK = value(k, 1, all)
		if m.BaselineOK && m.AfterOK {
			m.Change = m.After - m.Baseline
			if m.Baseline != 0 {
				pct := 100 * m.Change / m.Baseline
				m.ChangePct = &pct
			}
		}
	}
	if n >= MinN {
		// One stream of resamples for all metrics: deterministic, and paired.
		rng := rand.New(rand.NewPCG(BootstrapSeed, uint64(n)))
		changes := make([][]float64, len(defs))
		pcts := make([][]float64, len(defs))
		idx := make([]int, n)
		for range Resamples {
			for i := range idx {
				idx[i] = rng.IntN(n)
			}
			for k := range defs {
				b, okb := value(k, 0, idx)
				a, oka := value(k, 1, idx)
				if !okb || !oka {
					continue
				}
				changes[k] = append(changes[k], a-b)
				if b != 0 {
					pcts[k] = append(pcts[k], 100*(a-b)/b)
				}
			}
		}
		for k := range defs {
			metrics[k].CI = percentiles(changes[k])
			metrics[k].CIPct = percentiles(pcts[k])
		}
	}
	for k := range metrics {
		metrics[k].Verdict = verdictOf(&metrics[k], n)
	}
	return metrics
}

// percentiles gives the 2.5th and 97.5th percentiles, or nil when fewer than
// half the resamples defined the statistic.
func percentiles(x []float64) *[2]float64 {
	if len(x) < Resamples/2 {
		return nil
	}
	slices.Sort(x)
	q := func(p float64) float64 {
		// Linear interpolation between order statistics (R's type 7).
		h := p * float64(len(x)-1)
		lo := math.Floor(h)
		return x[int(lo)] + (h-lo)*(x[min(int(lo)+1, len(x)-1)]-x[int(lo)])
	}
	return &[2]float64{q(0.025), q(0.975)}
}

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
	significant := m.CI[0] > 0 || m.CI[1] < 0
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
