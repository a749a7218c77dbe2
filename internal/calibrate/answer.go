package calibrate

import (
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

// Verdict is what an answer says.
type Verdict int

const (
	// Withhold: no answer, or no clear winner.
	Withhold Verdict = iota
	// Keep the current setting.
	Keep
	// Ship a change.
	Ship
)

func (v Verdict) String() string { return [...]string{"withhold", "keep", "ship"}[v] }

// Answer is what the study reads of a sweep's answer.
type Answer struct {
	Verdict Verdict
	// Config is the config the answer tells to run (the current one when
	// kept); Now the current setting.
	Config, Now policy.Policy
	// Intervals are every interval the answer prints.
	Intervals []Interval
}

// Interval is a printed 95% interval, in the units of its quantity's figure
// (shares as fractions, sums over the sample as means per episode).
type Interval struct {
	Label  string // where it is printed and of what: "ship · in sample: false-termination rate"
	Lo, Hi float64
	Of     Quantity
}

// grid is what `lbanalyze sweep` searches and compares with when given only
// ZorkGPT logs and no flag: score, score-or-objective and window at
// max_turns_stuck 10–150 by 5 and check intervals 1, 5 and 10 (every other
// setting at its default), against ZorkGPT's defaults.
func grid() (configs []policy.Policy, now policy.Policy) {
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
	return g.Policies(), system.ZorkGPT.Now
}

// Sweep runs the sweep over eps as `lbanalyze sweep` does with no flag (on
// one worker: its result does not depend on the workers).
func Sweep(eps []*episode.Episode) *sweep.Result {
	configs, now := grid()
	return sweep.Run(eps, configs, now, sweep.Options{MaxFalseRate: 0.05, MaxCensored: 0.10, Folds: 5, Costs: metrics.Costs{CallsPerTurn: 4}, Jobs: 1})
}

// answer runs the sweep over a sample and reads its answer.
func answer(eps []*episode.Episode) Answer {
	return read(Sweep(eps))
}

// read reads the answer of r: its verdict, and every interval its sections
// print (sweep.Result.Sections) with what each speaks of.
func read(r *sweep.Result) Answer {
	a := r.Answer
	now := r.Current.Policy
	out := Answer{Now: now, Config: now}
	if a == nil {
		return out
	}
	chosen := r.Configs[a.Config].Policy
	if a.KeepCurrent {
		out.Verdict = Keep
		out.figures("keep · now", &a.Now, now)
		if chosen != now {
			out.versus("keep · versus now", a.Versus, chosen, now, r.N)
		}
		out.heldOut("keep · held out", &a.CV, chosen)
	} else {
		out.Verdict, out.Config = Ship, chosen
		out.figures("ship · in sample", &a.In, chosen)
		out.heldOut("ship · held out", &a.CV, chosen)
		out.versus("ship · versus now", a.Versus, chosen, now, r.N)
	}
	if o := r.BestOverall; o != nil {
		best := r.Configs[o.Config].Policy
		out.versus("best overall · adds over the answer", o.Over, best, out.Config, r.N)
		out.figures("best overall · in sample", &o.In, best)
		out.heldOut("best overall · held out", &o.CV, best)
	}
	return out
}

func (a *Answer) add(label string, lo, hi float64, q Quantity) {
	a.Intervals = append(a.Intervals, Interval{Label: label, Lo: lo, Hi: hi, Of: q})
}

// figures are a config's in-sample rate and share of turns saved.
func (a *Answer) figures(where string, f *sweep.Figures, p policy.Policy) {
	a.add(where+": false-termination rate", f.FalseRateCI[0], f.FalseRateCI[1], Quantity{Figure: FalseRate, Of: p})
	a.add(where+": share of turns saved", f.SavedShareCI[0], f.SavedShareCI[1], Quantity{Figure: SavedShare, Of: p})
}

// heldOut is the cross-validated false-termination rate, printed as what to
// expect of the config chosen on new episodes: its population rate.
func (a *Answer) heldOut(where string, cv *sweep.CV, p policy.Policy) {
	if cv.Folds == 0 {
		return
	}
	a.add(where+": false-termination rate", cv.HeldOutFalseCI[0], cv.HeldOutFalseCI[1], Quantity{Figure: FalseRate, Of: p})
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
	"score_forgone":          {ForgonePerEpisode, true},
	"censored":               {CensoredShare, true},
}

// versus are the intervals of the changes from base to p that a comparison
// prints.
func (a *Answer) versus(where string, ms []metrics.Metric, p, base policy.Policy, n int) {
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
		a.add(where+": "+m.Label, m.CI[0]/scale, m.CI[1]/scale, Quantity{Figure: f.figure, Of: p, Base: base, Versus: true})
	}
}
