package policy

import (
	"hash/fnv"
	"slices"
	"strings"
	"testing"

	"github.com/lbanalyze/lbanalyze/episode"
)

// steps spells a run one step a field: ACTION, ACTION=RESPONSE, a trailing
// "!" for a step that errored. A step without a response has none (0).
func steps(s string) []Observation {
	var obs []Observation
	for _, f := range strings.Fields(s) {
		o := Observation{Signals: episode.Signals(0).With(episode.Actions, episode.Responses, episode.ResponseTexts, episode.Errors)}
		f, o.Errored = strings.CutSuffix(f, "!")
		var resp string
		var ok bool
		o.Action, resp, ok = strings.Cut(f, "=")
		if ok {
			h := fnv.New64a()
			h.Write([]byte(resp))
			o.Response, o.ResponseText = h.Sum64()|1, resp
		}
		obs = append(obs, o)
	}
	return obs
}

// traced is what a policy did on a run: where it stopped (0: never), why,
// and the steps of its nudges and of the agent breaking the repetition
// after one. It goes on after a stop, as TraceOn does, to show that a stop
// holds.
type traced struct {
	stop          int
	reason        string
	nudged, broke []int
}

func trace(t *testing.T, rule, run string) traced {
	t.Helper()
	p, err := Parse(rule, nil)
	if err != nil {
		t.Fatal(err)
	}
	var got traced
	tr := p.NewTracker()
	for i, o := range steps(run) {
		s := tr.Step(i+1, o)
		if s.Terminate && got.stop == 0 {
			got.stop, got.reason = s.Turn, s.Reason
		}
		if s.Nudged {
			got.nudged = append(got.nudged, s.Turn)
		}
		if s.Heeded {
			got.broke = append(got.broke, s.Turn)
		}
	}
	return got
}

// Each rule on runs worked by hand; the working is in each case's comment.
func TestRepetitionRules(t *testing.T) {
	for _, c := range []struct {
		name, rule, run string
		want            traced
	}{
		// look ×3: the last 3 actions are one: stop at 3.
		{"three in a row", "repeat", "look look look", traced{stop: 3, reason: `"look" 3 times in a row (steps 1–3)`}},
		// n look look look: the run is the last 3 steps, 2–4 (actions
		// compare trimmed: TestKeys).
		{"after another step", "repeat:times=3", "n look look look", traced{stop: 4, reason: `"look" 3 times in a row (steps 2–4)`}},
		// look n look look: the run at the end is 2 long: no stop.
		{"broken run", "repeat", "look n look look", traced{}},
		// within 5: look at 1, 3, 5 is 3 among steps 1–5: stop at 5.
		{"within", "repeat:times=3:within=5", "look n look s look", traced{stop: 5, reason: `"look" 3 times in the last 5 steps`}},
		// within 4: at step 5 the window is 2–5, holding look twice; at 7
		// it is 4–7: look at 5 and 7, twice: no stop.
		{"within, out of the window", "repeat:times=3:within=4", "look n look s look e look", traced{}},
		// within below times counts as times: in a row.
		{"within below times", "repeat:times=3:within=1", "a a a", traced{stop: 3, reason: `"a" 3 times in the last 3 steps`}},
		// opencode #50073: its doom_loop looks at the parts of the current
		// assistant message only, so 3 identical calls in 3 turns never
		// trip it; a rule over the log's steps counts across them: stop at 3.
		{"opencode #50073, across turns", "repeat", `read{"path":"a"} read{"path":"a"} read{"path":"a"}`, traced{stop: 3, reason: `"read{\"path\":\"a\"}" 3 times in a row (steps 1–3)`}},
		// The same action with another response each time is not a
		// repeat-observed; with the same one it is.
		{"observed, responses differ", "repeat-observed", "ls=pid1 ls=pid2 ls=pid3", traced{}},
		{"observed", "repeat-observed", "ls=x ls=x ls=x", traced{stop: 3, reason: `"ls" with the same response 3 times in a row (steps 1–3)`}},
		// ignore removes "pid" and digits: the three responses are "", one.
		{"observed, ignore", "repeat-observed:ignore=pid[0-9]+", "ls=pid1 ls=pid2 ls=pid3", traced{stop: 3, reason: `"ls" with the same response 3 times in a row (steps 1–3)`}},
		// A step without a response has nothing to compare.
		{"observed, no response", "repeat-observed", "ls ls ls", traced{}},
		// n s n s n s (each with its own response): 6 steps alternate
		// between two pairs: stop at 6; with times 4, at 4.
		{"alternate", "alternate:times=6", "n=a s=b n=a s=b n=a s=b", traced{stop: 6, reason: `"n" and "s" in alternation over 6 steps (1–6)`}},
		{"alternate 4", "alternate:times=4", "n=a s=b n=a s=b n=a s=b", traced{stop: 4, reason: `"n" and "s" in alternation over 4 steps (1–4)`}},
		// n s n s n n: the last two are one pair: no alternation at 6; it
		// reached only 5 before.
		{"alternate broken", "alternate:times=6", "n=a s=b n=a s=b n=a n=a", traced{}},
		// The same action in turn with another response is another pair;
		// compare=action compares the actions alone.
		{"alternate, responses differ", "alternate:times=4", "n=a s=b n=c s=b", traced{}},
		{"alternate by action", "alternate:times=4:compare=action", "n=a s=b n=c s=b", traced{stop: 4, reason: `"n" and "s" in alternation over 4 steps (1–4)`}},
		// Errors: ✗ ✗ ✓ ✗ ✗ ✗: the run of errors at the end is 3 long at 6.
		{"errors", "errors", "a! b! c d! e! f!", traced{stop: 6, reason: `3 errored steps in a row (steps 4–6)`}},
		// action=same: errors of different actions are no run.
		{"errors, same action", "errors:action=same", "a! b! a! a! a!", traced{stop: 5, reason: `"a" errored 3 times in a row (steps 3–5)`}},
		// within 4: errored at 1, 2, 4 among steps 1–4: stop at 4.
		{"errors within", "errors:within=4", "a! b! c d!", traced{stop: 4, reason: `3 errored steps in the last 4 steps`}},
		// within=-1 counts every step so far: errors at 1, 3 and 8, far apart.
		{"errors in the whole run", "errors:within=-1", "a! b c! d e f g h!", traced{stop: 8, reason: `3 errored steps in the whole run`}},
	} {
		if got := trace(t, c.rule, c.run); !same(got, c.want) {
			t.Errorf("%s: %s on %q: %+v, want %+v", c.name, c.rule, c.run, got, c.want)
		}
	}
}

// Nudge, then stop (docs/policies.md, "Nudge, then stop"), worked by hand,
// the peers' reports among them.
func TestNudgeThenStop(t *testing.T) {
	for _, c := range []struct {
		name, rule, run string
		want            traced
	}{
		// OpenHands' action_error (StuckDetectionThresholds.action_error =
		// 3): the same call erroring 3 times in a row nudges (the streak
		// equals the threshold), a 4th stops (the streak exceeds it).
		{"OpenHands action_error", "errors:times=3:action=same:then=1", "ls! ls! ls! ls!",
			traced{stop: 4, reason: `"ls" errored 4 times in a row (steps 1–4); nudged at step 3`, nudged: []int{3}}},
		// The agent heeds the nudge (cat succeeds at 4): the nudge is spent;
		// a new streak of 3 (5–7) is nudged afresh, and its 4th stops.
		{"a heeded nudge, then a new streak", "errors:times=3:action=same:then=1", "ls! ls! ls! cat ls! ls! ls! ls!",
			traced{stop: 8, reason: `"ls" errored 4 times in a row (steps 5–8); nudged at step 7`, nudged: []int{3, 7}, broke: []int{4}}},
		// LLMKube #1215: five identical builds nudge at 5; the model writes
		// a file (6), then runs the build again to verify it (7). LLMKube's
		// rule killed at 7 on the armed hash; here the write broke the
		// repetition, so the build at 7 is the first of a new one: no stop.
		{"LLMKube #1215", "repeat:times=5:then=1", "build build build build build write build",
			traced{nudged: []int{5}, broke: []int{6}}},
		// localharness #81: repeats counted within 10 steps. A A A nudges at
		// 3; B at 4 is no repeat, so the nudge was heeded and the counts
		// start afresh from B: A at 5 is the first A of the new count (with
		// the count kept, as #81 reports, it would be the 4th and stop).
		// A at 6, 7 make 3 again: a new nudge, not a stop.
		{"localharness #81", "repeat:times=3:within=10:then=1", "A A A B A A A",
			traced{nudged: []int{3, 7}, broke: []int{4}}},
		// Gemini CLI: the 5th identical call is the first strike (feedback),
		// the next identical one the second: stop at 6.
		{"Gemini CLI two strikes", "repeat:times=5:then=1", "r r r r r r",
			traced{stop: 6, reason: `"r" 6 times in a row (steps 1–6); nudged at step 5`, nudged: []int{5}}},
		// then=2: nudge at 3, the detection holds at 4 (1 step on) and at 5
		// (2 steps on): stop at 5.
		{"then 2", "repeat:then=2", "A A A A A", traced{stop: 5, reason: `"A" 5 times in a row (steps 1–5); nudged at step 3`, nudged: []int{3}}},
	} {
		if got := trace(t, c.rule, c.run); !same(got, c.want) {
			t.Errorf("%s: %s on %q: %+v, want %+v", c.name, c.rule, c.run, got, c.want)
		}
	}
}

func same(a, b traced) bool {
	return a.stop == b.stop && a.reason == b.reason && slices.Equal(a.nudged, b.nudged) && slices.Equal(a.broke, b.broke)
}

// Rules combined (docs/policies.md, "Rules combined"): the first to stop
// stops, its reason naming it.
func TestAny(t *testing.T) {
	// repeat times 4 fires at 4 (a a a a); alternate times 6 would fire at
	// 6: the combination stops at 4, named by repeat.
	got := trace(t, "alternate:times=6+repeat:times=4", "a=x a=x a=x a=x b=y a=x")
	want := traced{stop: 4, reason: `repeat times 4: "a" 4 times in a row (steps 1–4)`}
	if !same(got, want) {
		t.Errorf("%+v, want %+v", got, want)
	}
	// Alone, neither rule fires on n s n s n s before 6; errors times 2
	// fires at 3, the second of the errors at 2 and 3: the first of three.
	got = trace(t, "alternate:times=6+repeat+errors:times=2", "n=a s=b! n=a! s=b n=a s=b")
	if want := (traced{stop: 3, reason: `errors times 2: 2 errored steps in a row (steps 2–3)`}); !same(got, want) {
		t.Errorf("%+v, want %+v", got, want)
	}
	p, err := Parse("score:40/10+repeat:times=4", nil)
	if err != nil {
		t.Fatal(err)
	}
	q, _ := Parse("score:40/10+repeat:times=4", nil)
	r, _ := Parse("score:40/10+repeat:times=5", nil)
	if p != q || p == r || p.String() != "any(score 40/10, repeat times 4)" {
		t.Errorf("%q: the same rules are one policy, others another (%v %v %v)", p, p, q, r)
	}
	if need := p.Needs(); !need.Has(episode.Actions) {
		t.Errorf("any needs what its rules need: %v", need.List())
	}
	for _, bad := range []string{"repeat+score+", "repeat+any", "repeat:times=1+score"} {
		if _, err := Parse(bad, nil); err == nil {
			t.Errorf("%q: no error", bad)
		}
	}
}

// How output writes a combination and a pattern (docs/output.md,
// "Settings"): the rules of any, each as --policy writes it, and its name, a
// colon and its cell read back as the same policy; a pattern in JSON's
// escapes.
func TestWrittenRules(t *testing.T) {
	p, err := Parse("score:40/10+repeat:times=4", nil)
	if err != nil {
		t.Fatal(err)
	}
	cell := p.Written().String()
	if want := "score:max_turns_stuck=40:check_interval=10:stuck_warning_threshold=20+repeat:times=4:then=0:within=0"; cell != want {
		t.Errorf("cell %q, want %q", cell, want)
	}
	if q, err := Parse(string(p.Name)+":"+cell, nil); err != nil || q != p {
		t.Errorf("%q reads back as %v (%v), want %v", string(p.Name)+":"+cell, q, err, p)
	}
	if b, _ := p.Written().MarshalJSON(); string(b) != `{"rules":["score:max_turns_stuck=40:check_interval=10:stuck_warning_threshold=20","repeat:times=4:then=0:within=0"]}` {
		t.Errorf("JSON %s", b)
	}
	ig, err := Parse(`repeat-observed:ignore=pid "[0-9]+"\x3a\x01`, nil)
	if err != nil {
		t.Fatal(err)
	}
	if b, _ := ig.Written().MarshalJSON(); string(b) != `{"times":3,"then":0,"ignore":"pid \"[0-9]+\"\\x3a\\x01","within":0}` {
		t.Errorf("JSON %s", b)
	}
	if b := appendJSONString(nil, "a\x01\"\\\u2028é"); string(b) != `"a\u0001\"\\\u2028é"` {
		t.Errorf("a control character, a quote, a backslash, U+2028 in JSON: %s", b)
	}
}
