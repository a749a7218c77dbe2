package replay

import (
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/lbanalyze/lbanalyze/episode"
	"github.com/lbanalyze/lbanalyze/policy"
)

// A repetition rule over an Episode, worked by hand: the actions
// a b b b c b b b b (a harness's log, never cut). repeat:times=3:then=1
// nudges at 4 (b at 2–4), the agent breaks off at 5 (c), nudges again at 8
// (b at 6–8) and stops at 9: length 9 of 9, one nudge heeded, the stop's
// nudge at 8. Without then, repeat stops at 4: length 4, 5 steps saved.
func TestRunRepetition(t *testing.T) {
	ep := &episode.Episode{ID: "r", Format: "jsonl", Signals: episode.Signals(episode.Actions), End: episode.End{Reason: episode.EndMaxTurns}}
	for _, a := range strings.Fields("a b b b c b b b b") {
		ep.Turns = append(ep.Turns, episode.Turn{Action: a})
	}
	ep.Turns[8].Score = 1 // a point at 9: the stop at 4 forgoes it
	for _, c := range []struct {
		rule                string
		stop, length, saved int
		nudge, heeded       int
		laterGain           bool
		reason              string
	}{
		{"repeat:times=3:then=1", 9, 9, 0, 8, 1, false, `"b" 4 times in a row (steps 6–9); nudged at step 8`},
		{"repeat:times=3", 4, 4, 5, 0, 0, true, `"b" 3 times in a row (steps 2–4)`},
	} {
		p, err := policy.Parse(c.rule, nil)
		if err != nil {
			t.Fatal(err)
		}
		o := Run(ep, p)
		if o.TerminationTurn != c.stop || o.Length != c.length || o.TurnsSaved != c.saved || o.NudgeTurn != c.nudge ||
			o.NudgesHeeded != c.heeded || o.LaterScoreGain() != c.laterGain || o.StopReason != c.reason {
			t.Errorf("%s: %+v", c.rule, o)
		}
	}
}

// BenchmarkRunRepetition replays repetition rules over 3,000 steps of 40
// actions and 3 responses, so that runs form and break: the cost a step of
// keying, keeping the last steps and counting on them.
func BenchmarkRunRepetition(b *testing.B) {
	ep := &episode.Episode{ID: "b", Format: "jsonl", End: episode.End{Reason: episode.EndMaxTurns},
		Signals: episode.Signals(0).With(episode.Actions, episode.Responses, episode.ResponseTexts)}
	for t := range 3000 {
		a := t * 7919 % 40
		ep.Turns = append(ep.Turns, episode.Turn{Action: "go " + strings.Repeat("n", a%5+1), ResponseHash: uint64(a%3 + 1), Response: "ok"})
	}
	for _, rule := range []string{"repeat:times=20", "repeat-observed:times=20:within=30", "alternate:times=20", "openhands:action_observation=10"} {
		p, err := policy.Parse(rule, nil)
		if err != nil {
			b.Fatal(err)
		}
		b.Run(rule, func(b *testing.B) {
			for b.Loop() {
				Run(ep, p)
			}
		})
	}
}

// A note a nudging policy name, said once; none for the others.
func TestNudgeNotes(t *testing.T) {
	var ps []policy.Policy
	for _, s := range []string{"repeat:then=1", "repeat:times=4:then=2", "repeat", "score", "gemini-cli", "opencode"} {
		p, err := policy.Parse(s, nil)
		if err != nil {
			t.Fatal(err)
		}
		ps = append(ps, p)
	}
	notes := nudgeNotes(slices.Values(ps))
	if len(notes) != 2 || !strings.HasPrefix(notes[0], "repeat then 1 nudges") || !strings.HasPrefix(notes[1], "gemini-cli nudges") {
		t.Errorf("%q", notes)
	}
}

// The fast path writes the whole outcome: a slot of out that held a
// repetition rule's Run outcome (a reason, a nudge, a horizon set by its
// reader) reads as Run of the score policy after it.
func TestSweepOverwritesAnotherOutcome(t *testing.T) {
	ep := &episode.Episode{ID: "r", Format: "jsonl", Signals: episode.Signals(episode.Actions), End: episode.End{Reason: episode.EndMaxTurns}}
	for _, a := range strings.Fields("a b b b c b b b b") {
		ep.Turns = append(ep.Turns, episode.Turn{Action: a})
	}
	p, err := policy.Parse("repeat:times=3:then=1", nil)
	if err != nil {
		t.Fatal(err)
	}
	prev := Run(ep, p)
	prev.GainHorizon = 7
	if prev.StopReason == "" || prev.NudgeTurn == 0 || prev.NudgesHeeded == 0 {
		t.Fatalf("the outcome to overwrite holds no reason nor nudge: %+v", prev)
	}
	score := policy.Policy{Name: policy.Score}.WithTimer(policy.Timer{MaxTurnsStuck: 4, CheckInterval: 1, WarningThreshold: 2})
	out := []Outcome{prev}
	NewSweeper(ep).Outcomes([]policy.Policy{score}, out)
	if want := Run(ep, score); !reflect.DeepEqual(out[0], want) {
		t.Errorf("got  %+v\nwant %+v", out[0], want)
	}
}

// Rules that nudge, combined: the stop's nudge is the stopping rule's own.
// Worked by hand on the actions A A A! A! A B (! an errored step):
// repeat:times=3:then=2 nudges at 3 (A at 1–3) and stops at 5 (A at 1–5,
// 2 steps after its nudge); errors:times=2:then=5 nudges at 4 (3 and 4
// errored), heeded at 5 (no error). The outcome: stop 5, its nudge at 3, not
// the errors rule's at 4.
func TestCombinedNudgeIsTheStoppingRules(t *testing.T) {
	ep := &episode.Episode{ID: "n", Format: "jsonl", Signals: episode.Signals(0).With(episode.Actions, episode.Errors),
		End: episode.End{Reason: episode.EndMaxTurns}}
	for _, a := range strings.Fields("A A A! A! A B") {
		ep.Turns = append(ep.Turns, episode.Turn{Action: strings.TrimSuffix(a, "!"), Errored: strings.HasSuffix(a, "!")})
	}
	p, err := policy.Parse("repeat:times=3:then=2+errors:times=2:then=5", nil)
	if err != nil {
		t.Fatal(err)
	}
	if o := Run(ep, p); o.TerminationTurn != 5 || o.NudgeTurn != 3 || !strings.HasPrefix(o.StopReason, "repeat") {
		t.Errorf("stop %d, nudge %d, reason %q; want 5, 3, the repeat rule's", o.TerminationTurn, o.NudgeTurn, o.StopReason)
	}
}
