package replay

import (
	"bytes"
	"reflect"
	"testing"

	"github.com/lbanalyze/lbanalyze/episode"
	"github.com/lbanalyze/lbanalyze/internal/testlogs"
	"github.com/lbanalyze/lbanalyze/policy"
	"github.com/lbanalyze/lbanalyze/source"
	"github.com/lbanalyze/lbanalyze/source/zorkgpt"
)

// Outcome fields by their definitions (docs/semantics.md, "6.2 Outcome of one policy on one episode"), worked by hand.
func TestOutcomeFields(t *testing.T) {
	// Flat to 74, +10 at 75, an objective at 30, 100 turns to the turn
	// budget, no recorded loop break.
	ep := one(t, testlogs.Write(t, plan{N: 100, MaxTurns: 100, Changes: map[int]int{75: 10}, Objectives: map[int][]string{30: {"Open the window"}}}.Episode()))

	o := Run(ep, v1) // score-only ignores the objective: stops at 40 with 40 stuck
	want := Outcome{Policy: v1, TerminationTurn: 40, TurnsStuck: 40, ScoreAtTermination: 0, TurnsSaved: 60, Length: 40,
		ScoreForgone: 10, LaterGain: &Gain{Turn: 75, Points: 10}, WindowObjectives: []episode.Completion{{Turn: 30, Objective: "Open the window"}},
		WarningStartTurn: 20}
	check(t, "score", o, want)
	if !o.FalseTerminationCandidate() || o.TrulyStuck() || !o.LaterScoreGain() || !o.ObjectiveProgress() || o.LLMCallsSaved(4) != 240 {
		t.Errorf("score: classification wrong: %+v", o)
	}

	// score-or-objective: anchor 31, then the change at 75 anchors there; the
	// next stop would be at 120 > 100: no termination, not censored.
	o = Run(ep, v2)
	check(t, "score-or-objective", o, Outcome{Policy: v2, Length: 100, WarningStartTurn: 20})
	if o.FalseTerminationCandidate() || o.TrulyStuck() {
		t.Errorf("no termination is neither candidate nor stuck")
	}

	// window: the objective anchors at 30 itself; 70 - 30 = 40 stops at 70.
	w := policy.Policy{Name: policy.Window}
	o = Run(ep, w)
	check(t, "window", o, Outcome{Policy: w, TerminationTurn: 70, TurnsStuck: 40, TurnsSaved: 30, Length: 70, ScoreForgone: 10,
		LaterGain: &Gain{75, 10}, WarningStartTurn: 20})
	if !o.FalseTerminationCandidate() || o.ObjectiveProgress() {
		t.Errorf("window: objective at 30 is outside (70-40, 70]: %+v", o.WindowObjectives)
	}
}

func TestOutcomeTrulyStuckAndForgone(t *testing.T) {
	ep := one(t, testlogs.Write(t, plan{N: 100, MaxTurns: 100}.Episode()))
	o := Run(ep, v1)
	if o.TerminationTurn != 40 || !o.TrulyStuck() || o.ScoreForgone != 0 || o.LaterGain != nil {
		t.Errorf("flat: %+v", o)
	}
	// +5 at 50, then a death penalty to -5 at 60: forgone is the best later score, 5.
	ep = one(t, testlogs.Write(t, plan{N: 100, Changes: map[int]int{50: 5, 60: -5}}.Episode()))
	if o = Run(ep, v1); o.ScoreForgone != 5 || *o.LaterGain != (Gain{50, 5}) {
		t.Errorf("later gain then loss: forgone %v, gain %+v", o.ScoreForgone, o.LaterGain)
	}
	// A later loss only is no gain and nothing forgone.
	ep = one(t, testlogs.Write(t, plan{N: 100, MaxTurns: 100, Changes: map[int]int{60: -10}}.Episode()))
	if o = Run(ep, v1); o.ScoreForgone != 0 || o.LaterGain != nil || !o.TrulyStuck() {
		t.Errorf("later loss: %+v", o)
	}
}

// A gain horizon H: a later gain is evidence only within H turns of the stop;
// its distance is given either way.
func TestOutcomeGainHorizon(t *testing.T) {
	// Flat: score stops at 40; +5 at 75, 35 turns later; no objective.
	ep := one(t, testlogs.Write(t, plan{N: 100, Changes: map[int]int{75: 5}}.Episode()))
	o := Run(ep, v1)
	for _, c := range []struct {
		horizon   int
		candidate bool
	}{{0, true}, {35, true}, {34, false}, {100, true}} {
		o.GainHorizon = c.horizon
		if o.GainDistance() != 35 || o.FalseTerminationCandidate() != c.candidate || o.LaterScoreGain() != c.candidate ||
			o.TrulyStuck() == c.candidate {
			t.Errorf("horizon %d: distance %d, candidate %v, want 35, %v", c.horizon, o.GainDistance(), o.FalseTerminationCandidate(), c.candidate)
		}
	}
	// An objective in the window is evidence whatever the horizon.
	ep = one(t, testlogs.Write(t, plan{N: 100, Changes: map[int]int{75: 5}, Objectives: map[int][]string{30: {"Open the window"}}}.Episode()))
	o = Run(ep, v1)
	o.GainHorizon = 10
	if !o.FalseTerminationCandidate() || o.LaterScoreGain() {
		t.Errorf("objective at 30, gain beyond the horizon: %+v", o)
	}
}

func check(t *testing.T, name string, got, want Outcome) {
	t.Helper()
	if !reflect.DeepEqual(got, want) {
		t.Errorf("%s:\n got  %+v (gain %+v)\n want %+v (gain %+v)", name, got, got.LaterGain, want, want.LaterGain)
	}
}

// The quirks that live in the log rather than in the rule (docs/semantics.md, "5.5 Semantics and quirks", docs/semantics.md, "5.9 Cases that a careful reimplementation still gets wrong").

func TestQuirkTurnExceptionStillCounts(t *testing.T) { // docs/semantics.md, "5.5.10 Turns without turn_completed still count", docs/semantics.md, "5.9 Cases that a careful reimplementation still gets wrong", item 13
	// A turn_exception turn consumes its number and runs the tracker with the
	// unchanged score: +5 at 20, exceptions at 25 and 50.
	ep := one(t, testlogs.Write(t, plan{N: 70, Changes: map[int]int{20: 5}, Exceptions: []int{25, 50}}.Episode()))
	if ep.N() != 70 || ep.MissingTurns != 2 || ep.ExceptionTurns != 2 || !ep.Turns[49].Missing || !ep.Turns[49].Exception || ep.Score(50) != 5 {
		t.Fatalf("%d turns, %d missing, turn 50 %+v", ep.N(), ep.MissingTurns, ep.Turns[49])
	}
	if o := Run(ep, v1); o.TerminationTurn != 60 || o.TurnsStuck != 40 {
		t.Errorf("stop %d (%d), want 60 (40)", o.TerminationTurn, o.TurnsStuck)
	}
	// Renumbering the turns without the gap would stop at 58 instead: the gap matters.
}

// A score update inside a failed turn is attributed to that turn: the
// recording's score_change for it tells the score the tracker saw.
func TestQuirkScoreChangeInsideFailedTurn(t *testing.T) {
	data := testlogs.Write(t, plan{N: 90, Changes: map[int]int{31: 5}, LoopBreak: &v1}.Episode())
	// Drop turn 31's turn_completed, as when the turn fails after the game moved.
	var out [][]byte
	for _, l := range bytes.SplitAfter(data, []byte("\n")) {
		if !bytes.Contains(l, []byte(`"message": "Turn 31 completed"`)) {
			out = append(out, l)
		}
	}
	ep := one(t, bytes.Join(out, nil))
	if !ep.Turns[30].Missing || ep.Score(31) != 5 {
		t.Fatalf("turn 31: %+v", ep.Turns[30])
	}
	if sc := Check(ep, policy.DefaultTimer(), zorkGPT); sc == nil || sc.Policy != policy.Score || !sc.TerminationMatch {
		t.Errorf("self-check %+v", sc)
	}
}

func TestQuirkGameOverTurnIsChecked(t *testing.T) { // docs/semantics.md, "5.5.11 The last turn is checked too", docs/semantics.md, "5.9 Cases that a careful reimplementation still gets wrong", item 11
	// A game over on check turn 40 of a flat run: terminated there, 0 turns saved.
	ep := one(t, testlogs.Write(t, plan{N: 60, GameOver: 40}.Episode()))
	o := Run(ep, v1)
	if ep.End.Reason != episode.EndGameOver || o.TerminationTurn != 40 || o.TurnsSaved != 0 || o.Length != 40 {
		t.Errorf("end %s, %+v", ep.End.Reason, o)
	}
	// The recording's own loop break replaces episode_completed on that turn.
	ep = one(t, testlogs.Write(t, plan{N: 60, GameOver: 40, LoopBreak: &v1}.Episode()))
	if ep.End.Reason != episode.EndStuckTermination || ep.N() != 40 {
		t.Errorf("recorded: end %s at %d", ep.End.Reason, ep.N())
	}
}

func TestQuirkObjectiveLoggedBeforeTurnCompleted(t *testing.T) { // docs/semantics.md, "5.9 Cases that a careful reimplementation still gets wrong", item 9
	// objective_completed(35) comes before turn_completed(35), after a
	// progress line with the same "Objective completed" message: the turn
	// field places it, and only the event counts.
	data := testlogs.Write(t, plan{N: 100, Objectives: map[int][]string{35: {"Open the window"}}}.Episode())
	oc := bytes.Index(data, []byte(`"event_type": "objective_completed"`))
	tc := bytes.Index(data, []byte(`"message": "Turn 35 completed"`))
	if oc < 0 || tc < oc || bytes.Count(data, []byte(`"message": "Objective completed: Open the window"`)) != 2 {
		t.Fatal("the test log does not have the real order")
	}
	ep := one(t, data)
	if len(ep.Objectives) != 1 || ep.Turns[34].Objectives != 1 {
		t.Fatalf("objectives %+v", ep.Objectives)
	}
	if o := Run(ep, v2); o.TerminationTurn != 80 || o.TurnsStuck != 44 {
		t.Errorf("stop %d (%d), want 80 (44) as in docs/semantics.md, 5.6 Worked results", o.TerminationTurn, o.TurnsStuck)
	}
}

func TestQuirkNeverCopyRecordedTermination(t *testing.T) { // docs/semantics.md, "5.9 Cases that a careful reimplementation still gets wrong", item 12
	// Recorded by the score-only build, cut at 40; an objective at 35 keeps
	// score-or-objective going past the end of the log: censored.
	ep := one(t, testlogs.Write(t, plan{N: 100, Objectives: map[int][]string{35: {"Open the window"}}, LoopBreak: &v1}.Episode()))
	if ep.N() != 40 || ep.End.Reason != episode.EndStuckTermination {
		t.Fatalf("%d turns, end %s", ep.N(), ep.End.Reason)
	}
	if o := Run(ep, v1); o.TerminationTurn != 40 || o.Censored {
		t.Errorf("score: %+v", o)
	}
	if o := Run(ep, v2); o.Terminated() || !o.Censored || o.Length != 40 {
		t.Errorf("score-or-objective: %+v, want censored at 40", o)
	}
	// A more patient score policy is censored too.
	if o := Run(ep, policy.Policy{Name: policy.Score}.WithTimer(policy.Timer{MaxTurnsStuck: 60, CheckInterval: 10, WarningThreshold: 20})); !o.Censored {
		t.Errorf("score 60/10: %+v", o)
	}
}

func TestQuirkStateIsPerEpisode(t *testing.T) { // docs/semantics.md, "5.5.2 The state belongs to one episode"
	// Two episodes in one file: the second starts with a fresh tracker.
	a := plan{N: 38, Changes: map[int]int{35: 5}}.Episode()
	b := plan{N: 60, ID: "2025-11-12T11:00:00"}.Episode()
	eps, _ := source.ReadAll(zorkgpt.Source{}, bytes.NewReader(testlogs.Write(t, a, b)), "test.jsonl", source.Options{})
	if o := Run(eps[1], v1); o.TerminationTurn != 40 {
		t.Errorf("second episode stops at %d, want 40", o.TerminationTurn)
	}
}
