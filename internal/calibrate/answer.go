package calibrate

import (
	"math"
	"strings"

	"github.com/lbanalyze/lbanalyze/episode"
	"github.com/lbanalyze/lbanalyze/internal/metrics"
	"github.com/lbanalyze/lbanalyze/internal/sweep"
	"github.com/lbanalyze/lbanalyze/policy"
	"github.com/lbanalyze/lbanalyze/system"
)

// This file is the one place that knows how `lbanalyze sweep` is run and how
// its answer is laid out: the grid and settings of the command with no flags,
// and which intervals the answer prints, each with the quantity it speaks
// of. The rest of the study reads only Answer. When the answer changes,
// this file changes with it (TestAdapterReadsEveryInterval says when an
// interval is printed that it does not read).

// Answer is what the study reads of a sweep's answer.
type Answer struct {
	// Verdict is the sweep's; a sweep with no answer withholds one, as
	// NoClearWinner does.
	Verdict sweep.Verdict
	// Config is the config the answer tells to run (the current one when
	// kept); Now the current setting; Leader the rule's choice, the change
	// compared with now (Now when the rule chose it).
	Config, Now, Leader policy.Policy
	// Shown: the comparison with now alone would ship Leader; Stability
	// and Agree (of Folds) are the evidence the thresholds judge
	// (sweep.MinStability, sweep.MinFoldsAgreeing).
	Shown        bool
	Stability    float64
	Agree, Folds int
	// Versus is the printed interval of the change of the false-termination
	// rate against now, as a share (nil when none is printed); Worse and
	// Saved the leader's own share of episodes worse than now and turns
	// saved an episode more than now, on the sample (NaN with no change).
	Versus       *[2]float64
	Worse, Saved float64
	// Intervals are every interval the answer prints.
	Intervals []Interval
	// Safer: Leader is a change the other way (sweep.Answer.Safer). Settle
	// and BreakEven are the answer's (nil when not printed): BreakEven of
	// Leader, Settle of the pairs the verdict was taken on, SettleOf (the
	// leader's own, or the folds' choices held out); N the episodes.
	Safer     bool
	Settle    *sweep.Settle
	SettleOf  []Part
	BreakEven *sweep.BreakEven
	N         int
	// TwoSided are the 95% intervals whose lower (cost: upper) bound the
	// answer prints alone, "at least" ("at most"), as computed: judged
	// beside them, to show what the one-sided wording leaves out.
	TwoSided []Interval
	// Margin is the answer's --ft-margin, a share.
	Margin float64
}

// Interval is a printed 95% interval, in the units of its quantity's figure
// (shares as fractions, sums over the sample as means per episode).
type Interval struct {
	Label  string // where it is printed and of what: "ship · in sample: false-termination rate"
	Lo, Hi float64
	Of     Quantity
	// Headline says it is one of the two intervals the answer's goals name,
	// whatever the verdict: the false-termination rate of the config the
	// answer tells to run (answerRate), or its change against now
	// (versusRate).
	Headline string
}

// The two headline intervals (Interval.Headline).
const (
	answerRate = "the answer's false-termination rate"
	versusRate = "versus now: the change of the false-termination rate"
)

// grid is what `lbanalyze sweep` searches when given only ZorkGPT logs and
// no flag: score, score-or-objective and window at max_turns_stuck 10–150
// by 5 and check intervals 1, 5 and 10 (every other setting at its
// default).
func grid() []policy.Policy {
	vals := make([][]int, len(policy.Settings()))
	for i, s := range policy.Settings() {
		switch s {
		case policy.MaxTurnsStuck:
			for w := 10; w <= 150; w += 5 {
				vals[i] = append(vals[i], w)
			}
		case policy.CheckInterval:
			vals[i] = []int{1, 5, 10}
		default:
			vals[i] = []int{s.Default}
		}
	}
	g := &policy.Grid{}
	for _, n := range []policy.Name{policy.Score, policy.ScoreOrObjective, policy.Window} {
		g.Product(n, vals)
	}
	return g.Policies()
}

// DefaultNow is what `lbanalyze sweep` compares with when given only ZorkGPT
// logs and no --config: ZorkGPT's defaults.
func DefaultNow() policy.Policy { return system.ZorkGPT.Now }

// answerMargin is sweep's default --ft-margin (2 pp), what every answer the
// study judges is decided by; Options.Margin is the judge's, and may differ.
const answerMargin = 0.02

// Sweep runs the sweep over eps as `lbanalyze sweep` does with no flag but
// --config now (on one worker: its result does not depend on the workers).
func Sweep(eps []*episode.Episode, now policy.Policy) *sweep.Result {
	return sweep.Run(eps, grid(), now, sweep.Options{MaxFalseRate: 0.05, MaxCensored: 0.10, FTMargin: answerMargin, Folds: 5,
		Costs: metrics.Costs{CallsPerTurn: 4}, Jobs: 1})
}

// answer runs the sweep over a sample and reads its answer.
func answer(eps []*episode.Episode, now policy.Policy) Answer {
	return read(Sweep(eps, now))
}

// read reads the answer of r: its verdict, and every interval its sections
// print (sweep.Result.Sections) with what each speaks of, in their order.
// A held-out figure speaks of the config the rule chose on all the episodes
// (the one named), as it is printed as what to expect of it; a comparison
// held out, of that config against now.
func read(r *sweep.Result) Answer {
	a := r.Answer
	now := r.Current.Policy
	out := Answer{Verdict: sweep.NoClearWinner, Now: now, Config: now, Leader: now}
	if a == nil {
		return out
	}
	out.Shown, out.Stability, out.Agree, out.Folds = a.Shown, a.Stability, a.CV.Agree, a.CV.Folds
	if a.Config >= 0 {
		out.Leader = r.Configs[a.Config].Policy
	}
	// The comparison with now under the leader's name is its own, on all
	// the episodes; held out, of the rule as a procedure: each fold's
	// episodes under the config chosen on the others.
	own := []Part{{out.Leader, 1}}
	out.Safer, out.Settle, out.BreakEven, out.Margin, out.N = a.Safer, a.Settle, a.BreakEven, r.FTMargin, r.N
	out.SettleOf = own
	if a.Settle != nil && a.Settle.HeldOut && !a.HeldOutIsOwn() {
		out.SettleOf = mixture(r, &a.CV)
	}
	verdict := map[sweep.Verdict]string{sweep.Ship: "ship", sweep.Keep: "keep", sweep.NoClearWinner: "withhold"}[a.Verdict]
	comparisons := func() {
		out.versus(verdict+" · versus now", a.Versus, own, now, r.N)
		if a.HeldOut != nil && !a.HeldOutIsOwn() {
			out.versus(verdict+" · held out", a.HeldOut, mixture(r, &a.CV), now, r.N)
		}
	}
	out.Verdict = a.Verdict
	switch a.Verdict {
	case sweep.Ship:
		out.Config = out.Leader
		if a.Safer {
			out.cost(r, a, own, now)
		}
		comparisons()
		out.inSample("ship · in sample", &a.In, out.Leader)
		out.Intervals[len(out.Intervals)-1].Headline = answerRate
	case sweep.Keep:
		out.inSample("keep · now", &a.Now, now)
		out.Intervals[len(out.Intervals)-1].Headline = answerRate
		if a.Config >= 0 {
			comparisons()
		}
	case sweep.NoClearWinner:
		comparisons()
		out.inSample("withhold · now", &a.Now, now)
		out.Intervals[len(out.Intervals)-1].Headline = answerRate
	}
	out.Worse, out.Saved = math.NaN(), math.NaN()
	for i := range a.Versus {
		switch m := &a.Versus[i]; m.Name {
		case "false_termination_rate":
			out.Versus = &[2]float64{m.CI[0] / 100, m.CI[1] / 100}
			out.Worse = float64(m.Discordant[0]) / float64(r.N)
		case "turns_saved":
			out.Saved = m.Change / float64(r.N)
		}
	}
	if o := r.BestOverall; o != nil {
		best := r.Configs[o.Config].Policy
		out.versus("best overall · adds over the answer", o.Over, []Part{{best, 1}}, out.Config, r.N)
	}
	return out
}

// mixture is what the held-out figures of a cross-validation speak of: each
// fold's config, chosen on the other folds, weighted by the fold's share of
// the episodes.
func mixture(r *sweep.Result, cv *sweep.CV) []Part {
	var n int
	for _, k := range cv.Sizes {
		n += k
	}
	var out []Part
	for k, i := range cv.Chosen {
		p := r.Current.Policy
		if i >= 0 {
			p = r.Configs[i].Policy
		}
		out = append(out, Part{p, float64(cv.Sizes[k]) / float64(n)})
	}
	return out
}

func (a *Answer) add(label string, lo, hi float64, q Quantity) {
	a.Intervals = append(a.Intervals, Interval{Label: label, Lo: lo, Hi: hi, Of: q})
}

// inSample is a config's false-termination rate (its high bound) on the
// sample.
func (a *Answer) inSample(where string, f *sweep.Figures, p policy.Policy) {
	a.add(where+": false-termination rate", f.FalseRateCI[0], f.FalseRateCI[1], Quantity{Figure: FalseRate, Of: p})
}

// versusFigures are the figures of the metrics a comparison prints (its
// headline metrics) and how a printed value becomes one: a change of a rate
// in percentage points ÷ 100, of a sum over the n episodes ÷ n.
var versusFigures = map[string]struct {
	figure Figure
	sum    bool
}{
	"false_termination_rate": {FalseRate, false},
	"turns_saved":            {SavedPerEpisode, true},
	"censored":               {CensoredShare, true},
}

// versus are the intervals of the changes from base to mix that a
// comparison prints.
func (a *Answer) versus(where string, ms []metrics.Metric, mix []Part, base policy.Policy, n int) {
	for i := range ms {
		m := &ms[i]
		if !m.Headline || m.CI == nil {
			continue
		}
		f, ok := versusFigures[m.Name]
		if !ok {
			panic("calibrate: the answer prints a change of " + m.Name + ", which the adapter does not read")
		}
		scale := 100.0
		if f.sum {
			scale = float64(n)
		}
		hi, q := m.CI[1]/scale, Quantity{Figure: f.figure, Mix: mix, Base: base, Versus: true}
		if sweep.AtLeast[m.Name] {
			a.TwoSided = append(a.TwoSided, Interval{Label: where + ": " + m.Label, Lo: m.CI[0] / scale, Hi: hi, Of: q})
			hi = math.Inf(1) // printed as "at least" its lower bound
		}
		a.add(where+": "+m.Label, m.CI[0]/scale, hi, q)
		if m.Name == "false_termination_rate" && strings.HasSuffix(where, "versus now") && !strings.HasPrefix(where, "best overall") {
			a.Intervals[len(a.Intervals)-1].Headline = versusRate
		}
	}
}

// cost is the cost of a safer ship its headline states, in turns: at most
// minus the lower bound of the turns saved of the pairs the verdict was
// taken on (sweep's shipWhy), of the leader's own or the folds' choices.
func (a *Answer) cost(r *sweep.Result, s *sweep.Answer, own []Part, now policy.Policy) {
	ms, mix := s.HeldOut, mixture(r, &s.CV)
	if ms == nil || s.HeldOutIsOwn() {
		ms, mix = s.Versus, own
	}
	for i := range ms {
		if m := &ms[i]; m.Name == "turns_saved" && m.CI != nil {
			q := Quantity{Figure: SavedPerEpisode, Mix: mix, Base: now, Versus: true, Negated: true}
			n := float64(r.N)
			a.TwoSided = append(a.TwoSided, Interval{Label: "ship · its cost in turns", Lo: -m.CI[1] / n, Hi: -m.CI[0] / n, Of: q})
			a.add("ship · its cost in turns", math.Inf(-1), -m.CI[0]/n, q)
		}
	}
}
