package system

import (
	"encoding/json"
	"os/exec"
	"slices"
	"strings"
	"testing"

	"github.com/lbanalyze/lbanalyze/episode"
	"github.com/lbanalyze/lbanalyze/policy"
)

// runBlock runs a harness's block in Python over steps and gives the
// verdict of each step: "" go on, "nudge", "stop".
const runBlock = `
import json, sys
block, steps = json.loads(sys.argv[1])
ns = {}
exec(block, ns)
lb = ns["LoopBreak"]()
out = []
for a, o, e in steps:
    v = lb.stop(a, o, e)
    out.append("stop" if v is True else "nudge" if v == "nudge" else "")
print(json.dumps(out))
`

// Each repetition rule's Python block, run on a run where the rule stops,
// nudges and stops where the replay of the rule does (the verdicts worked
// by hand in policy/repetition_rules_test.go).
func TestRepetitionPython(t *testing.T) {
	python, err := exec.LookPath("python3")
	if err != nil {
		t.Skip("no python3 on PATH: the blocks cannot be run")
	}
	// The run ends in 21 steps alternating, so that the presets' long
	// alternations (openclaw's 20, gemini-cli's 10 then 1) stop on it too.
	run := "ls=a ls=a ls=b! ls=b! cd=c ls=b! ls=b! ls=b! x=pid1 x=pid2 x=pid3" + strings.Repeat(" n=1 s=2", 10) + " n=1"
	for _, rule := range []string{"repeat", "repeat:times=2:then=1", "repeat:times=3:within=5", "repeat-observed:times=2",
		"repeat-observed:ignore=pid[0-9]+", "alternate:times=4", "alternate:times=5:compare=action", "errors:times=2",
		"errors:times=2:action=same:then=1", "errors:times=3:within=-1", "errors:times=2:within=-1:then=1",
		"repeat:times=3:within=-1:then=2", "repeat:times=4+alternate:times=6", "openclaw", "gemini-cli"} {
		p, err := policy.Parse(rule, nil)
		if err != nil {
			t.Fatal(err)
		}
		block, err := Harness.Block(p)
		if err != nil {
			t.Fatalf("%s: %v", rule, err)
		}
		var steps [][3]any
		var want []string
		tr := p.NewTracker()
		for i, f := range strings.Fields(run) {
			a, o, _ := strings.Cut(strings.TrimSuffix(f, "!"), "=")
			steps = append(steps, [3]any{a, o, strings.HasSuffix(f, "!")})
			s := tr.Step(i+1, policy.Observation{Action: a, Response: hash(o), ResponseText: o, Errored: strings.HasSuffix(f, "!"),
				Signals: episode.Signals(0).With(episode.Actions, episode.Responses, episode.ResponseTexts, episode.Errors)})
			switch {
			case s.Terminate:
				want = append(want, "stop")
			case s.Nudged:
				want = append(want, "nudge")
			default:
				want = append(want, "")
			}
		}
		if !slices.Contains(want, "stop") {
			t.Fatalf("%s: the replay stops nowhere on the run: the block's verdicts are compared on nothing", rule)
		}
		arg, _ := json.Marshal([]any{block, steps})
		out, err := exec.Command(python, "-c", runBlock, string(arg)).CombinedOutput()
		if err != nil {
			t.Fatalf("%s: %v\n%s\n%s", rule, err, out, block)
		}
		var got []string
		if err := json.Unmarshal(out, &got); err != nil {
			t.Fatalf("%s: %s", rule, out)
		}
		if strings.Join(got, ",") != strings.Join(want, ",") {
			t.Errorf("%s: Python %q\nreplay %q\n%s", rule, got, want, block)
		}
	}
}

// hash keys a response's text, as a log's hash would.
func hash(s string) uint64 {
	h := uint64(14695981039346656037)
	for i := range len(s) {
		h = (h ^ uint64(s[i])) * 1099511628211
	}
	return h | 1
}
