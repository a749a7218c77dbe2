// Package report turns episodes and outcomes into what users read: tables
// (drawn by tablewriter), markdown, CSV and JSON, and for datasets the
// baseline/after metrics with bootstrap intervals.
package report

import (
	"slices"

	"github.com/lbanalyze/lbanalyze/episode"
	"github.com/lbanalyze/lbanalyze/internal/patterns"
	"github.com/lbanalyze/lbanalyze/policy"
	"github.com/lbanalyze/lbanalyze/replay"
)

// Episode is one analysed episode: the episode, its outcomes under each policy
// asked for, and its self-check. Its JSON form is the `episode` command's
// documented output.
type Episode struct {
	Ep        *episode.Episode
	Outcomes  []replay.Outcome
	SelfCheck *replay.SelfCheck
	Options
	// Patterns are how the episode was stuck, under its first few policies.
	Patterns *patterns.Analysis
	// Unreplayed say which policies asked for were not replayed, as the log
	// lacks a signal they need (NotReplayed).
	Unreplayed []string
}

// Options are what an analysis is asked for besides the policies.
type Options struct {
	// CallsPerTurn prices a turn in LLM calls (agent, critic, extractor, synthesis).
	CallsPerTurn int
	// CostPerCall prices an LLM call in dollars, and CostPerMTok a million
	// LLM tokens; 0: no cost is shown (CostSaved says which applies).
	CostPerCall, CostPerMTok float64
	// GainHorizon: a later gain is evidence of a premature stop only within
	// this many turns of the stop; 0: any later gain (replay.Outcome.GainHorizon).
	GainHorizon int
}

// Priced reports whether costs are shown.
func (opts Options) Priced() bool { return opts.CostPerCall > 0 || opts.CostPerMTok > 0 }

// CostSaved is the dollars what o saves would have cost (docs/sources.md,
// "Cost"): its tokens saved at CostPerMTok where the log records tokens and a
// price is given, else its LLM calls saved at CostPerCall; false when neither
// prices it.
func (opts Options) CostSaved(o *replay.Outcome) (float64, bool) {
	switch {
	case opts.CostPerMTok > 0 && o.Logged.Has(episode.Tokens):
		return float64(o.TokensSaved) * opts.CostPerMTok / 1e6, true
	case opts.CostPerCall > 0:
		return float64(o.LLMCallsSaved(opts.CallsPerTurn)) * opts.CostPerCall, true
	}
	return 0, false
}

// Analyse replays every policy over ep; recording are the settings the
// recording is assumed to have run with, for the self-check.
func Analyse(ep *episode.Episode, policies []policy.Policy, recording policy.Params, opts Options) Episode {
	e := Episode{Ep: ep, Options: opts, SelfCheck: replay.Check(ep, recording), Patterns: analysePatterns(ep, policies)}
	e.Outcomes = outcomes(ep, policies, opts.GainHorizon)
	return e
}

// AnalyseReplayable is Analyse of the policies ep's log can replay; the
// others are named in its notes (Replayable).
func AnalyseReplayable(ep *episode.Episode, policies []policy.Policy, recording policy.Params, opts Options) Episode {
	kept, unreplayed := Replayable(ep, policies)
	e := Analyse(ep, kept, recording, opts)
	e.Unreplayed = unreplayed
	return e
}

// outcomes is the Outcome of every policy on ep, with gainHorizon: what
// replay.Run gives each. It is the one place that chooses how: a grid whose
// threshold-free configs number at least sweepFrom goes to the sweep's fast
// path (replay.Sweeper.Outcomes, which replays the configs it does not serve
// with replay.Run), so that thousands of configs cost a few passes over the
// episode instead of one each; fewer configs are replayed one by one. The
// outcomes' later gains and window objectives may share memory with each
// other and with ep: read them, do not change them.
func outcomes(ep *episode.Episode, policies []policy.Policy, gainHorizon int) []replay.Outcome {
	if len(policies) == 0 {
		return nil
	}
	out := make([]replay.Outcome, len(policies))
	served := 0
	for i := range policies {
		if replay.ThresholdFree(policies[i].Name) {
			served++
		}
	}
	if served >= sweepFrom {
		replay.NewSweeper(ep).Outcomes(policies, out)
	} else {
		for i, p := range policies {
			out[i] = replay.Run(ep, p)
		}
	}
	for i := range out {
		out[i].GainHorizon = gainHorizon
	}
	return out
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

// Notes say what limits the replay of this log: its source's caveats, and
// the policies it cannot replay or replays with settings off (Replayable).
func (e *Episode) Notes() []string { return append(slices.Clip(e.Ep.Notes), e.Unreplayed...) }

// Warnings are the problems, then the notes.
func (e *Episode) Warnings() []string { return append(e.Problems(), e.Notes()...) }
