// Package metrics is the registry of the dataset metrics (docs/semantics.md, "6.3 Dataset metrics"):
// each entry says how its metric is summed over episodes, in what unit it is
// shown, which way is better, and how the interval of its change is made.
// Compare gives every metric of two policies over the same episodes with its
// interval and verdict (batch, and the sweep's comparisons); Sums add the
// metrics up for many policies at once (the sweep's grid).
package metrics

import (
	"slices"

	"github.com/lbanalyze/lbanalyze/episode"
	"github.com/lbanalyze/lbanalyze/replay"
)

// Unit is how a metric's values are counted and shown.
type Unit int

const (
	Count   Unit = iota // episodes, turns, points: whole numbers
	Mean                // a mean, 1 decimal
	Percent             // a share in %, 1 decimal
	Dollars             // money, 2 decimals
	Points              // real-valued points: the decimals they have (episode.Score)
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

// Method is how the 95% interval of a metric's change between two policies
// is made.
type Method int

const (
	// PairedBootstrap: the 2.5th and 97.5th percentiles of the change over
	// Resamples resamples of the episodes, the same episodes for both
	// policies, and of each policy's value over the same resamples
	// (docs/semantics.md, "6.3 Dataset metrics"): for sums and means.
	PairedBootstrap Method = iota
	// PairedProportions: for a metric that counts the episodes with a
	// property (0 or 1 an episode), each policy's share has its Wilson
	// interval and the change Tango's score interval for paired proportions
	// (stats.TangoPaired) from the episodes with the property under one
	// policy only: no resampling, and a real width when no episode differs
	// (docs/semantics.md, "6.3 Dataset metrics" says why Tango's rather
	// than Newcombe's).
	PairedProportions
	// PairedNormal: from NormalFrom episodes, a sum's or a mean's change and
	// each policy's value ± z times the standard error of its linearisation
	// over the episodes (stats.Normal), where Cochran's rule holds: what the
	// bootstrap's percentiles approach at such n, without its n × Resamples
	// draws.
	PairedNormal
)

// String names the method as the JSON gives it.
func (m Method) String() string {
	return [...]string{"paired_bootstrap", "tango_score", "paired_normal"}[m]
}

// entry is a metric of the registry: scale·Σnum/Σden, scale·Σnum/n
// (perEpisode) or scale·Σnum over the episodes, each under the outcome of
// one policy, whichever policies a command compares.
type entry struct {
	name, label string
	unit        Unit
	num, den    func(ep Episode, o *replay.Outcome) float64
	perEpisode  bool    // divide by n
	scale       float64 // multiplies the value (100 for %, calls per turn)
	expect      Expectation
	// better, for a headline figure (one a sweep states beside its answer,
	// and compares to tell two configs apart): +1 when more is better, -1
	// when less is; 0 for the rest.
	better int
	// lengths: the metric rests on the episodes' lengths, which a censored
	// outcome makes lower bounds.
	lengths bool
	// objectives: it counts objectives, and is left out for a system whose
	// logs record none (Applies.Objectives).
	objectives bool
	// headline: a figure a sweep states in its comparisons with now.
	headline bool
	// interval is how the interval of its change is made.
	interval Method
}

// value is the metric from its summed numerator and denominator; false when
// it is undefined (a mean over no episodes).
func (d *entry) value(num, den float64) (float64, bool) {
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

// Applies says which metrics apply to the logs analysed, as the system that
// ran them says (system.Shows).
type Applies struct {
	// Objectives: the logs record objectives: the objective metrics apply.
	Objectives bool
	// Expected: the specification's expected changes of the metrics
	// (docs/semantics.md, "6.3 Dataset metrics") are the change on these logs
	// from score to score-or-objective.
	Expected bool
	// RealScores: the logs have scores that are not whole: score forgone
	// is shown with its decimals.
	RealScores bool
}

// registry is the metrics of docs/semantics.md, "6.3 Dataset metrics" that apply: those of the
// specification that apply to the logs (a), and
// the cost saved when priced and the tokens saved when some log records
// tokens. The specification's expected changes are those of ZorkGPT's loop
// break v2 (Applies.Expected): the logs of other systems are judged
// without them.
func registry(c Costs, tokens bool, a Applies) []entry {
	defs := shipped(c.CallsPerTurn, a.RealScores)
	if !a.Objectives {
		defs = slices.DeleteFunc(defs, func(d entry) bool { return d.objectives })
	}
	if !a.Expected {
		for i := range defs {
			defs[i].expect = Expectation{}
		}
	}
	at := slices.IndexFunc(defs, func(d entry) bool { return d.name == "llm_calls_saved" }) + 1
	if tokens {
		defs = slices.Insert(defs, at, entry{name: "tokens_saved", lengths: true, label: "tokens saved", unit: Count, scale: 1, better: +1, headline: true,
			num: func(ep Episode, o *replay.Outcome) float64 { return float64(o.TokensSaved) }}) // 0 unless logged
	}
	if c.Priced() {
		defs = slices.Insert(defs, at, entry{name: "cost_saved", lengths: true, label: "cost saved", unit: Dollars, scale: 1,
			num: func(ep Episode, o *replay.Outcome) float64 { v, _ := c.CostSaved(o); return v }}) // 0 unless priced
	}
	return defs
}

// shipped are the metrics of the specification (docs/semantics.md, "6.3 Dataset metrics"),
// score forgone in points with decimals when scores are real.
func shipped(callsPerTurn int, realScores bool) []entry {
	points := Count
	if realScores {
		points = Points
	}
	return []entry{
		{name: "episodes_terminated", label: "episodes terminated", unit: Count, scale: 1, interval: PairedProportions,
			num: func(ep Episode, o *replay.Outcome) float64 { return b2f(o.Terminated()) }},
		{name: "false_termination_candidates", label: "false-termination candidates", unit: Count, scale: 1, interval: PairedProportions,
			num: func(ep Episode, o *replay.Outcome) float64 { return b2f(o.FalseTerminationCandidate()) }},
		{name: "unknown_stops", label: "unknown stops", unit: Count, scale: 1, interval: PairedProportions,
			num: func(ep Episode, o *replay.Outcome) float64 { return b2f(o.Unknown()) }},
		// The rate the targets are judged on: every outcome the log cannot
		// show fine (replay.Outcome.Unjudged), so that no cut log hides a
		// premature stop; the low bound counts the evidence alone.
		{name: "false_termination_rate", label: "false-termination rate, high bound", unit: Percent, perEpisode: true, scale: 100,
			better: -1, headline: true, interval: PairedProportions,
			num:    func(ep Episode, o *replay.Outcome) float64 { return b2f(o.Unjudged()) },
			expect: Expectation{Text: "-30% to -50%", Lo: -50, Hi: -30, Kind: expectRange}},
		{name: "false_termination_rate_low", label: "false-termination rate, low bound", unit: Percent, perEpisode: true, scale: 100,
			interval: PairedProportions,
			num:      func(ep Episode, o *replay.Outcome) float64 { return b2f(o.FalseTerminationCandidate()) },
			expect:   Expectation{Text: "-30% to -50%", Lo: -50, Hi: -30, Kind: expectRange}},
		{name: "avg_turns_per_episode", lengths: true, label: "average turns per episode", unit: Mean, perEpisode: true, scale: 1,
			num:    func(ep Episode, o *replay.Outcome) float64 { return float64(o.Length) },
			expect: Expectation{Text: "+10% to +20%", Lo: 10, Hi: 20, Kind: expectRange}},
		{name: "avg_turns_stuck_at_termination", label: "average turns stuck at termination", unit: Mean, scale: 1,
			num: func(ep Episode, o *replay.Outcome) float64 {
				if o.Terminated() {
					return float64(o.TurnsStuck)
				}
				return 0
			},
			den: func(ep Episode, o *replay.Outcome) float64 { return b2f(o.Terminated()) }},
		{name: "objective_completions_in_terminated", label: "objective completions in terminated episodes", unit: Count, scale: 1, objectives: true,
			num: func(ep Episode, o *replay.Outcome) float64 {
				return b2f(o.Terminated()) * float64(len(ep.Objectives))
			}},
		{name: "episodes_with_objective_completions", label: "episodes with objective completions", unit: Count, scale: 1, objectives: true,
			interval: PairedProportions,
			num: func(ep Episode, o *replay.Outcome) float64 {
				length := o.Length
				return b2f(slices.ContainsFunc(ep.Objectives, func(c episode.Completion) bool { return c.Turn <= length }))
			},
			expect: Expectation{Text: "no change", Kind: expectSame}},
		{name: "truly_stuck_terminations", label: "truly stuck terminations", unit: Count, scale: 1, interval: PairedProportions,
			num:    func(ep Episode, o *replay.Outcome) float64 { return b2f(o.TrulyStuck()) },
			expect: Expectation{Text: "no change", Kind: expectSame}},
		{name: "turns_saved", lengths: true, label: "turns saved", unit: Count, scale: 1, better: +1, headline: true,
			num: func(ep Episode, o *replay.Outcome) float64 { return float64(o.TurnsSaved) }},
		{name: "turns_saved_pct", lengths: true, label: "turns saved, share of logged turns", unit: Percent, scale: 100,
			num: func(ep Episode, o *replay.Outcome) float64 { return float64(o.TurnsSaved) },
			den: func(ep Episode, o *replay.Outcome) float64 { return float64(ep.Turns) }},
		{name: "llm_calls_saved", lengths: true, label: "LLM calls saved", unit: Count, scale: 1, // counted from the log where it records them
			num: func(ep Episode, o *replay.Outcome) float64 { return float64(o.LLMCallsSaved(callsPerTurn)) }},
		{name: "score_forgone", label: "score forgone", unit: points, scale: 1, better: -1,
			num: func(ep Episode, o *replay.Outcome) float64 { return float64(o.ScoreForgone) }},
		{name: "censored", label: "censored outcomes", unit: Count, scale: 1, better: -1, headline: true, interval: PairedProportions,
			num: func(ep Episode, o *replay.Outcome) float64 { return b2f(o.Censored) }},
	}
}
