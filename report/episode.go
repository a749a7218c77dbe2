// Package report turns episodes and outcomes into what users read: tables
// (tablewriter), markdown, CSV and JSON, and for datasets the baseline/after
// metrics with bootstrap intervals.
package report

import (
	"fmt"

	"github.com/lbanalyze/lbanalyze/patterns"
	"github.com/lbanalyze/lbanalyze/policy"
	"github.com/lbanalyze/lbanalyze/replay"
)

// Episode is one analysed episode: the episode, its outcomes under each policy
// asked for, and its self-check. Its JSON form is the `episode` command's
// documented output.
type Episode struct {
	Ep        *replay.Episode
	Outcomes  []replay.Outcome
	SelfCheck *replay.SelfCheck
	// CallsPerTurn prices a turn in LLM calls (agent, critic, extractor, synthesis).
	CallsPerTurn int
	// Patterns are how the episode was stuck, under its first few policies.
	Patterns *patterns.Analysis
}

// Analyse replays every policy over ep; params are the settings the recording
// is assumed to have run with, for the self-check.
func Analyse(ep *replay.Episode, policies []policy.Policy, recording policy.Params, callsPerTurn int) Episode {
	e := Episode{Ep: ep, CallsPerTurn: callsPerTurn, SelfCheck: replay.Check(ep, recording), Patterns: analysePatterns(ep, policies)}
	for _, p := range policies {
		e.Outcomes = append(e.Outcomes, replay.Run(ep, p))
	}
	return e
}

// Problems are the episode's problems as "file:line: message", the first few
// word for word and the rest counted.
func (e *Episode) Problems() []string { return e.Ep.ProblemMessages() }

// Notes say what limits the replay of this log.
func (e *Episode) Notes() []string {
	ep := e.Ep
	var w []string
	if ep.MissingTurns > 0 {
		verb := "turns have"
		if ep.MissingTurns == 1 {
			verb = "turn has"
		}
		w = append(w, fmt.Sprintf("%d %s no turn_completed (%d with turn_exception): the score is carried forward, as the shipped tracker saw it",
			ep.MissingTurns, verb, ep.ExceptionTurns))
	}
	if ep.Era != "E3c" {
		w = append(w, fmt.Sprintf("era %s (before Jericho, 2025-10-17): scores were parsed from the status line and may be stale; no game over was detected", ep.Era))
	}
	return w
}

// Warnings are the problems, then the notes.
func (e *Episode) Warnings() []string { return append(e.Problems(), e.Notes()...) }
