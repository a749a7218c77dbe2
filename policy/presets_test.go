package policy

import (
	"fmt"
	"strings"
	"testing"

	"github.com/lbanalyze/lbanalyze/episode"
)

// Each preset on runs worked by hand (docs/policies.md, "Presets").
func TestPresets(t *testing.T) {
	for _, c := range []struct {
		name, rule, run string
		want            traced
	}{
		// OpenHands: 4 identical steps (action and observation): stuck at 4.
		{"openhands, repeat", "openhands", "ls=x ls=x ls=x ls=x",
			traced{stop: 4, reason: `repeat-observed times 4: "ls" with the same response 4 times in a row (steps 1–4)`}},
		// The same call erroring, its errors worded apart: the 3rd nudges
		// (get_action_error_nudge), the 4th is stuck.
		{"openhands, errors", "openhands", "ls=e1! ls=e2! ls=e3! ls=e4!",
			traced{stop: 4, reason: `errors then 1 same: "ls" errored 4 times in a row (steps 1–4); nudged at step 3`, nudged: []int{3}}},
		// a b a b a b, each with its own observation: 6 steps alternating.
		{"openhands, alternating", "openhands", "a=1 b=2 a=1 b=2 a=1 b=2",
			traced{stop: 6, reason: `alternate times 6: "a" and "b" in alternation over 6 steps (1–6)`}},
		// A threshold past 10 steps is past its 20 events: never seen; 11
		// identical steps stop nothing (alternate needs two pairs).
		{"openhands, past its window", "openhands:action_observation=11", strings.Repeat("ls=x ", 12), traced{}},
		// Every threshold past its window: it sees nothing, and stops nothing.
		{"openhands, blind", "openhands:action_observation=11:action_error=10:alternating_pattern=11", strings.Repeat("ls=x! ", 12), traced{}},
		// opencode: the third identical call.
		{"opencode", "opencode", `edit{"a":1} edit{"a":1} edit{"a":1}`,
			traced{stop: 3, reason: `repeat: "edit{\"a\":1}" 3 times in a row (steps 1–3)`}},
		// Gemini CLI: the 5th identical call is the first strike, the 6th
		// the second.
		{"gemini-cli", "gemini-cli", "r r r r r r",
			traced{stop: 6, reason: `repeat times 5 then 1: "r" 6 times in a row (steps 1–6); nudged at step 5`, nudged: []int{5}}},
		// Two calls in turn 10 times (a cycle of 2 repeated 5 times), whatever
		// their results: first strike at 10, second at 11.
		{"gemini-cli, a cycle of two", "gemini-cli", "a=1 b=2 a=3 b=4 a=5 b=6 a=7 b=8 a=9 b=10 a=11",
			traced{stop: 11, reason: `alternate times 10 then 1 action: "b" and "a" in alternation over 11 steps (1–11); nudged at step 10`, nudged: []int{10}}},
		// OpenClaw: p and q alternate with stable outcomes over steps 1–19,
		// one short of 20, and p's 11 calls are short of 20 too: no stop.
		{"openclaw", "openclaw", strings.Repeat("p=x q=y ", 9) + "p=x q=z p=x",
			traced{}},
		// The 20th identical call with the same outcome among the last 30;
		// the other call in between does not break it.
		{"openclaw, 20 of 30", "openclaw", strings.Repeat("p=x ", 10) + "q=y " + strings.Repeat("p=x ", 10),
			traced{stop: 21, reason: `repeat-observed times 20 within 30: "p" with the same response 20 times in the last 30 steps`}},
		// TextQuests: 3 identical actions; A-B-A-B-A.
		{"textquests, repeat", "textquests", "go go go", traced{stop: 3, reason: `repeat: "go" 3 times in a row (steps 1–3)`}},
		{"textquests, alternation", "textquests", "n s n s n", traced{stop: 5, reason: `alternate times 5 action: "s" and "n" in alternation over 5 steps (1–5)`}},
	} {
		if got := trace(t, c.rule, c.run); !same(got, c.want) {
			t.Errorf("%s: %s on %q:\n got %+v\nwant %+v", c.name, c.rule, c.run, got, c.want)
		}
	}
}

// TextQuests' 15 steps without a change of score: every action differs, the
// score never moves: the score rule at 15/1 stops at 15 (turns 1..15, the
// timer counting from 0).
func TestTextQuestsNoProgress(t *testing.T) {
	p, _ := Parse("textquests", nil)
	tr := p.NewTracker()
	stop := 0
	for i := 1; i <= 20 && stop == 0; i++ {
		if s := tr.Step(i, Observation{Action: string(rune('a' + i)), Signals: episode.Signals(episode.Actions)}); s.Terminate {
			stop = i
			if !strings.HasPrefix(s.Reason, "score 15/1") {
				t.Errorf("reason %q", s.Reason)
			}
		}
	}
	if stop != 15 {
		t.Errorf("stopped at %d, want 15", stop)
	}
}

// A preset's rule that needs a signal the log lacks is left out, as its
// setting that reads it says (Policy.Off): OpenHands on a log without errors
// keeps its other patterns.
func TestPresetWithoutASignal(t *testing.T) {
	p, _ := Parse("openhands", nil)
	if keys, lacking := p.Off(episode.Signals(0).With(episode.Actions, episode.Responses)); len(keys) != 1 || keys[0] != "action_error" || lacking[0] != episode.Errors {
		t.Errorf("off: %v %v", keys, lacking)
	}
	if p.Needs() != episode.Signals(episode.Actions) {
		t.Errorf("needs %v", p.Needs().List())
	}
	tr := p.NewTracker()
	stop := 0
	for i, o := range steps("ls=e1! ls=e2! ls=e3! ls=e4! ls=x ls=x ls=x ls=x") {
		o.Signals = episode.Signals(0).With(episode.Actions, episode.Responses)
		if s := tr.Step(i+1, o); s.Terminate && stop == 0 {
			stop = i + 1
		}
	}
	if stop != 8 {
		t.Errorf("stopped at %d, want 8 (the errors unseen; 4 identical steps 5–8)", stop)
	}
}

// The caps' presets on runs worked by hand: mini-swe-agent's 250 steps stop
// a longer run at 250; tau2's 100 agent steps at 100, and its 10th error,
// counted over the whole run (errors at every other step), at step 19.
func TestCapPresets(t *testing.T) {
	var long, alternating []string
	for i := range 260 {
		long = append(long, fmt.Sprintf("a%d", i))
		if i < 30 {
			alternating = append(alternating, fmt.Sprintf("b%d", i)+map[bool]string{true: "!"}[i%2 == 0])
		}
	}
	for _, c := range []struct {
		rule, run string
		stop      int
	}{
		{"mini-swe-agent", strings.Join(long, " "), 250},
		{"tau2", strings.Join(long, " "), 100},
		{"tau2", strings.Join(alternating, " "), 19},
	} {
		if got := trace(t, c.rule, c.run); got.stop != c.stop {
			t.Errorf("%s: %+v, want a stop at %d", c.rule, got, c.stop)
		}
	}
}
