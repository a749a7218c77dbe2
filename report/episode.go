// Package report turns episodes and outcomes into what users read: tables
// (drawn by tablewriter), markdown, CSV and JSON, and for datasets the
// baseline/after metrics with bootstrap intervals.
package report

import (
	"iter"
	"reflect"
	"slices"
	"sync"

	"github.com/lbanalyze/lbanalyze/episode"
	"github.com/lbanalyze/lbanalyze/internal/metrics"
	"github.com/lbanalyze/lbanalyze/internal/patterns"
	"github.com/lbanalyze/lbanalyze/policy"
	"github.com/lbanalyze/lbanalyze/replay"
	"github.com/lbanalyze/lbanalyze/system"
)

// Episode is one analysed episode: the episode, its outcomes under each policy
// asked for, and its self-check. Its JSON form is the `episode` command's
// documented output. Once Compacted, a dataset's holds its row and options
// only.
type Episode struct {
	*analysis
	Options
	digest *patterns.Digest // what a dataset's summary reads of Patterns
	row    *row             // what a dataset reads of it (NewDataset, Compacted)
}

// analysis is an analysed episode whole: what Compacted lets go.
type analysis struct {
	Ep *episode.Episode
	// Outcomes are the outcome of each policy, in order (Analyse); nil for an
	// episode analysed over a grid (AnalyseGrid), whose outcomes are replayed
	// a chunk at a time as they are written (each), never all held.
	Outcomes  []replay.Outcome
	SelfCheck *replay.SelfCheck
	// Patterns are how the episode was stuck, under its first few policies;
	// nil once Summarised.
	Patterns *patterns.Analysis
	// Unreplayed say which policies asked for were not replayed, as the log
	// lacks a signal they need, and which settings are off; and, of those
	// that nudge, what the replay cannot show (replay.Notes).
	Unreplayed []string

	grid    *policy.Grid // AnalyseGrid's policies, those the log can replay
	results int          // how many of them
	fast    bool         // replayed by the sweep's fast path (fastPath)
}

// Options are what an analysis is asked for besides the policies.
type Options struct {
	metrics.Costs // what a stop saves is priced with
	// GainHorizon: a later gain is evidence of a premature stop only within
	// this many turns of the stop; 0: any later gain (replay.Outcome.GainHorizon).
	GainHorizon int
}

// Analyse replays every policy over ep; recording are the settings the
// recording is assumed to have run with, for the self-check.
func Analyse(ep *episode.Episode, policies []policy.Policy, recording policy.Timer, opts Options) Episode {
	opts.Costs = opts.Costs.For(ep)
	e := Episode{analysis: &analysis{Ep: ep, SelfCheck: replay.Check(ep, recording, system.Of(ep).Recorder), Patterns: analysePatterns(ep, policies)},
		Options: opts}
	d := e.Patterns.Digest()
	e.digest = &d
	e.Outcomes = make([]replay.Outcome, len(policies))
	replayChunks(ep, slices.Values(policies), fastPath(slices.Values(policies)), opts.GainHorizon, func(from int, out []replay.Outcome) error {
		copy(e.Outcomes[from:], out)
		return nil
	})
	return e
}

// Summarised is e without its patterns but what a dataset's summary reads
// of them: batch shows no episode's patterns, whose analysis holds a few
// slices the length of the episode (docs/PERFORMANCE.md, "Memory").
func (e Episode) Summarised() Episode {
	a := *e.analysis
	a.Patterns, e.analysis = nil, &a
	return e
}

// Compacted is e as a dataset of many episodes holds it: its row, what the
// dataset reads of it, without its episode, outcomes and patterns, which
// hold several times as much (docs/PERFORMANCE.md, "Many episodes"). Charts
// that draw its turns (timelines) need e Summarised instead.
func (e Episode) Compacted() Episode {
	return Episode{Options: e.Options, digest: shared(e.digest), row: newRow(&e, e.First(2))}
}

// shared is d, or when it shows no pattern and no policy of it stops (the
// digest of most episodes of a large dataset), the one copy of it all such
// episodes of as many turns share: read, never changed.
func shared(d *patterns.Digest) *patterns.Digest {
	var key plainDigest
	if d == nil || len(d.Leads) > len(key.policies) {
		return d
	}
	for i, l := range d.Leads {
		if l.Lead != nil || l.Policy == "" {
			return d
		}
		key.policies[i] = l.Policy
	}
	rest := *d
	rest.Turns, rest.Leads = 0, nil
	if !reflect.DeepEqual(rest, patterns.Digest{}) {
		return d
	}
	key.turns = d.Turns
	s, _ := plainDigests.LoadOrStore(key, d)
	return s.(*patterns.Digest)
}

// plainDigest keys a digest that shows no pattern and no stop: its turns
// and its policies.
type plainDigest struct {
	turns    int
	policies [maxPatternPolicies]string
}

// plainDigests are the digests shared (shared), by plainDigest.
var plainDigests sync.Map

// AnalyseGrid is Analyse of the policies of a grid that ep's log can replay,
// the others named in its notes (replay.Unreplayable); their outcomes are not
// held: they are replayed a chunk at a time whenever they are read (each),
// so that an episode over a million configs costs a chunk of them at a time
// (docs/PERFORMANCE.md, "Memory").
func AnalyseGrid(ep *episode.Episode, g *policy.Grid, recording policy.Timer, opts Options) Episode {
	kept := replay.Replayable(ep, g.All())
	var first []policy.Policy // the first few, for the patterns
	for p := range kept {
		if first = append(first, p); len(first) == maxPatternPolicies {
			break
		}
	}
	opts.Costs = opts.Costs.For(ep)
	e := Episode{analysis: &analysis{Ep: ep, SelfCheck: replay.Check(ep, recording, system.Of(ep).Recorder), Patterns: analysePatterns(ep, first), grid: g,
		fast: fastPath(kept)}, Options: opts}
	for range kept {
		e.results++
	}
	e.Unreplayed = replay.Notes(ep, g.All())
	return e
}

// Results is how many outcomes e has: one a policy replayed.
func (e *Episode) Results() int {
	if e.grid == nil {
		return len(e.Outcomes)
	}
	return e.results
}

// First are e's first k outcomes (all of them when it has fewer).
func (e *Episode) First(k int) []replay.Outcome {
	if e.grid == nil {
		return e.Outcomes[:min(k, len(e.Outcomes))]
	}
	var first []replay.Outcome
	e.each(func(_ int, out []replay.Outcome) error {
		first = append(first, out[:min(len(out), k-len(first))]...)
		if len(first) == k {
			return errStop
		}
		return nil
	})
	return first
}

// each hands e's outcomes to visit in order, a chunk of at most
// replay.SweepChunk at a time, out[0] being outcome from; out is valid
// during the call only. It stops at visit's first error.
func (e *Episode) each(visit func(from int, out []replay.Outcome) error) error {
	if e.grid != nil {
		return replayChunks(e.Ep, replay.Replayable(e.Ep, e.grid.All()), e.fast, e.GainHorizon, visit)
	}
	for from := 0; from < len(e.Outcomes); from += replay.SweepChunk {
		if err := visit(from, e.Outcomes[from:min(from+replay.SweepChunk, len(e.Outcomes))]); err != nil {
			return err
		}
	}
	return nil
}

// replayChunks replays policies over ep a chunk at a time, in order, with
// gainHorizon, and hands each chunk's outcomes to visit (as each does);
// fast: by the sweep's fast path (fastPath). It is the one place that
// replays an episode's policies for a report. The outcomes' later gains and
// window objectives may share memory with each other and with ep: read
// them, do not change them.
func replayChunks(ep *episode.Episode, policies iter.Seq[policy.Policy], fast bool, gainHorizon int,
	visit func(from int, out []replay.Outcome) error) error {
	var sw *replay.Sweeper
	if fast {
		sw = replay.NewSweeper(ep)
	}
	var ps []policy.Policy
	var out []replay.Outcome
	from := 0
	flush := func() error {
		out = slices.Grow(out[:0], len(ps))[:len(ps)]
		if sw != nil {
			sw.Outcomes(ps, out)
		} else {
			for i, p := range ps {
				out[i] = replay.Run(ep, p)
			}
		}
		for i := range out {
			out[i].GainHorizon = gainHorizon
		}
		err := visit(from, out)
		from, ps = from+len(ps), ps[:0]
		return err
	}
	for p := range policies {
		if ps = append(ps, p); len(ps) == replay.SweepChunk {
			if err := flush(); err != nil {
				return err
			}
		}
	}
	if len(ps) > 0 {
		return flush()
	}
	return nil
}

// fastPath says whether policies go to the sweep's fast path
// (replay.Sweeper.Outcomes, which replays the configs it does not serve with
// replay.Run): when their threshold-free configs number at least sweepFrom,
// so that thousands of configs cost a few passes over the episode instead of
// one each; fewer configs are replayed one by one.
func fastPath(policies iter.Seq[policy.Policy]) bool {
	served := 0
	for p := range policies {
		if replay.ThresholdFree(p.Name) {
			if served++; served == sweepFrom {
				return true
			}
		}
	}
	return false
}

// sweepFrom is how many threshold-free configs make the fast path pay. Its
// passes go to the end of the log and build a table per policy name and
// check interval, where Run stops at the stop: on the bundled episodes the
// fast path costs 2.7 times batch's two Runs, is even with 9 to 12 configs of
// one or two per (name, interval), and wins from about 16 (30 configs of
// the benchmark grid's 3 names × 10 intervals: 0.6 times; its 6,000: 0.01 times).
const sweepFrom = 16

// Problems are the episode's problems as "file:line: message", the first few
// word for word and the rest counted.
func (e *Episode) Problems() []string { return e.Ep.ProblemMessages() }

// Notes say what limits the replay of this log: its source's caveats, the
// policies it cannot replay or replays with settings off
// (replay.Unreplayable), and what a nudge's replay cannot show.
func (e *Episode) Notes() []string { return append(slices.Clip(e.Ep.Notes), e.Unreplayed...) }

// Warnings are the problems, then the notes.
func (e *Episode) Warnings() []string { return append(e.Problems(), e.Notes()...) }
