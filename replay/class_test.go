package replay

import (
	"fmt"
	"testing"

	"github.com/lbanalyze/lbanalyze/episode"
	"github.com/lbanalyze/lbanalyze/internal/synth"
	"github.com/lbanalyze/lbanalyze/internal/testlogs"
	"github.com/lbanalyze/lbanalyze/policy"
)

// class names an outcome's class (docs/semantics.md, "6.2 Outcome of one
// policy on one episode"): premature, truly stuck, unknown, or no stop, and
// "censored" for a no stop on a cut log.
func class(o *Outcome) string {
	switch {
	case o.FalseTerminationCandidate():
		return "premature"
	case o.Unknown():
		return "unknown"
	case o.TrulyStuck():
		return "truly stuck"
	case o.Censored:
		return "censored"
	}
	return "no stop"
}

// The classes of an outcome, worked by hand on turn sequences: a stop with no
// evidence against it is unknown when the log was cut (the recording's own
// stop, a kill, no end recorded) and fewer than H turns follow it (any, with
// no horizon); truly stuck when the log ended on its own (the game's end,
// the turn budget, an exception, Ctrl-C) or follows it H turns or more.
func TestOutcomeClasses(t *testing.T) {
	pol := func(n policy.Name, w, i int) policy.Policy {
		return policy.Policy{Name: n}.WithTimer(policy.Timer{MaxTurnsStuck: w, CheckInterval: i, WarningThreshold: 20})
	}
	score40, score120 := pol(policy.Score, 40, 10), pol(policy.Score, 120, 10)
	sor40, sor30 := pol(policy.ScoreOrObjective, 40, 10), pol(policy.ScoreOrObjective, 30, 10)
	type want struct {
		p       policy.Policy
		horizon int
		stop    int
		class   string
	}
	for _, tc := range []struct {
		name  string
		plan  plan
		cut   bool
		end   episode.EndReason
		cases []want
	}{
		// Flat, 100 turns to the budget: score 40/10 stops at 40 with 60
		// turns after it, in a whole log.
		{"turn budget", plan{N: 100, MaxTurns: 100}, false, episode.EndMaxTurns, []want{
			{score40, 0, 40, "truly stuck"}, {score40, 61, 40, "truly stuck"}, {score120, 0, 0, "no stop"}}},
		// The same turns, but the log just stops (a killed run): the 60
		// turns after the stop judge it only within a horizon of 60 or less.
		{"killed", plan{N: 100}, true, episode.EndNone, []want{
			{score40, 0, 40, "unknown"}, {score40, 60, 40, "truly stuck"}, {score40, 61, 40, "unknown"},
			{score120, 0, 0, "censored"}}},
		// Recorded by score-or-objective 40/10, which cut the log at its
		// stop at 40: the same stop has nothing after it; 30/10 stops at 30,
		// 10 turns before the cut.
		{"the recording's own stop", plan{N: 100, LoopBreak: &sor40}, true, episode.EndStuckTermination, []want{
			{sor40, 0, 40, "unknown"}, {sor40, 100, 40, "unknown"},
			{sor30, 0, 30, "unknown"}, {sor30, 10, 30, "truly stuck"}, {sor30, 11, 30, "unknown"}}},
		// A killed log with +5 at 70, 30 turns after score's stop at 40:
		// evidence within a horizon of 30 or more (or none); past a horizon
		// of 20, the 60 turns after the stop judge it truly stuck.
		{"killed, a later gain", plan{N: 100, Changes: map[int]int{70: 5}}, true, episode.EndNone, []want{
			{score40, 0, 40, "premature"}, {score40, 30, 40, "premature"}, {score40, 20, 40, "truly stuck"},
			{score40, 61, 40, "premature"}}},
		// An objective at 35, in score's window at its stop at 40: premature
		// whatever follows.
		{"killed, an objective in the window", plan{N: 100, Objectives: map[int][]string{35: {"Open the window"}}}, true, episode.EndNone,
			[]want{{score40, 0, 40, "premature"}, {score40, 100, 40, "premature"}}},
		// A death at 60 ends the game: 20 turns after the stop are all
		// there were, whatever the horizon.
		{"death", plan{N: 60, GameOver: 60}, false, episode.EndGameOver, []want{
			{score40, 0, 40, "truly stuck"}, {score40, 100, 40, "truly stuck"}}},
		// An exception or Ctrl-C ends the run whatever the policy: whole.
		{"exception", plan{N: 100, Ending: synth.EndException}, false, episode.EndException, []want{{score40, 0, 40, "truly stuck"}}},
		{"interrupted", plan{N: 100, Ending: synth.EndInterrupted}, false, episode.EndInterrupted, []want{{score40, 0, 40, "truly stuck"}}},
	} {
		ep := one(t, testlogs.Write(t, tc.plan.Episode()))
		if ep.End.Reason != tc.end || LogCut(ep) != tc.cut {
			t.Fatalf("%s: end %s, cut %v; want %s, %v", tc.name, ep.End.Reason, LogCut(ep), tc.end, tc.cut)
		}
		fast := swept(ep, tc.cases, func(c want) policy.Policy { return c.p })
		for i, c := range tc.cases {
			for _, o := range []Outcome{Run(ep, c.p), fast[i]} {
				o.GainHorizon = c.horizon
				what := fmt.Sprintf("%s, %s, horizon %d", tc.name, c.p, c.horizon)
				if got := class(&o); got != c.class || o.TerminationTurn != c.stop {
					t.Errorf("%s: %s at %d, want %s at %d", what, got, o.TerminationTurn, c.class, c.stop)
				}
				// Unjudged is everything the log cannot show fine.
				if u := c.class == "premature" || c.class == "unknown" || c.class == "censored"; o.Unjudged() != u {
					t.Errorf("%s: unjudged %v, want %v", what, o.Unjudged(), u)
				}
			}
		}
	}
}
