package main

import (
	"encoding/json"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/lbanalyze/lbanalyze/internal/realdata"
	"github.com/lbanalyze/lbanalyze/policy"
	"github.com/lbanalyze/lbanalyze/system"
)

// repetitionInPython runs the blocks of repetition rules on logs Python
// reads itself (a TALES rollout's lines, gzipped or not; a BALROG table's
// rows), the action and the observation from the columns named, and gives,
// by log in order, the step each block's LoopBreak stops at, 0 for none.
const repetitionInPython = `
import csv, gzip, json, sys
blocks, paths, action_key, observation_key = json.loads(sys.argv[1])
classes = []
for block in blocks:
    ns = {}
    exec(block, ns)
    classes.append(ns["LoopBreak"])

def rows(path):
    if path.endswith(".csv"):
        with open(path, newline="", encoding="utf-8") as f:
            yield from csv.DictReader(f)
        return
    opener = gzip.open if path.endswith(".gz") else open
    with opener(path, "rt", encoding="utf-8") as f:
        for text in f:
            if text.strip():
                yield json.loads(text)

out = []
for path in paths:
    rules, stops = [c() for c in classes], [0] * len(classes)
    for step, row in enumerate(rows(path), 1):
        for i, rule in enumerate(rules):
            if not stops[i] and rule.stop(row[action_key], row[observation_key]) is True:
                stops[i] = step
    out.append(stops)
print(json.dumps(out))
`

// TestRepetitionPythonOnRealRuns runs the Python a harness is given for
// repetition rules and presets on real runs and checks that it stops each
// where episode says the rule stops: TALES rollouts (Action, Feedback) and
// BALROG's TextWorld runs (Action, Observation), beside the repository,
// each skipped when absent. Python reads the logs itself,
// so that neither lbanalyze's reading nor its replay stands on both sides.
func TestRepetitionPythonOnRealRuns(t *testing.T) {
	python, err := exec.LookPath("python3")
	if err != nil {
		t.Skip("python3 is not installed: the harness's Python block is not run")
	}
	rules := []string{"repeat", "repeat:times=4:then=1", "repeat:times=5:within=20", "repeat-observed:times=3", "alternate:times=4",
		"alternate:times=5:compare=action", "repeat-observed:times=3:ignore=[0-9]+", "gemini-cli", "openclaw", "repeat:times=6+alternate:times=6"}
	for _, c := range []struct {
		name                string
		paths               func(t *testing.T) []string
		action, observation string
	}{
		{"TALES rollouts", func(t *testing.T) []string {
			paths, _ := filepath.Glob(filepath.Join(realdata.Dir(t, "tales/logs"), "*", "*", "*.jsonl*"))
			return paths
		}, "Action", "Feedback"},
		{"BALROG TextWorld", func(t *testing.T) []string {
			paths, _ := filepath.Glob(filepath.Join(realdata.External(t, "balrog/textworld/submissions/LLM"), "*", "textworld", "*", "*_run_0[0-2].csv"))
			return paths
		}, "Action", "Observation"},
	} {
		t.Run(c.name, func(t *testing.T) {
			paths := c.paths(t)
			if len(paths) < 5 {
				t.Fatalf("%d logs", len(paths))
			}
			var blocks []string
			for _, r := range rules {
				p, err := policy.Parse(r, nil)
				if err != nil {
					t.Fatal(err)
				}
				block, err := system.Harness.Block(p)
				if err != nil {
					t.Fatalf("%s: %v", r, err)
				}
				blocks = append(blocks, block)
			}
			arg, _ := json.Marshal([]any{blocks, paths, c.action, c.observation})
			out, err := exec.Command(python, "-c", repetitionInPython, string(arg)).CombinedOutput()
			if err != nil {
				t.Fatalf("%v\n%s", err, out)
			}
			var inPython [][]int
			if err := json.Unmarshal(out, &inPython); err != nil {
				t.Fatalf("%v: %s", err, out)
			}
			stops := 0
			for i, path := range paths {
				code, stdout, stderr := runCLI(nil, "episode", "--format", "json", "--policy", strings.Join(rules, ","), path)
				if code != exitOK {
					t.Fatalf("%s: exit %d: %s", path, code, stderr)
				}
				var eps []struct {
					Results []struct {
						TerminationTurn *int `json:"termination_turn"`
					} `json:"results"`
				}
				if err := json.Unmarshal([]byte(stdout), &eps); err != nil || len(eps) != 1 || len(eps[0].Results) != len(rules) {
					t.Fatalf("%s: %v %s", path, err, stdout)
				}
				for k, r := range eps[0].Results {
					replayed := 0
					if r.TerminationTurn != nil {
						replayed, stops = *r.TerminationTurn, stops+1
					}
					if inPython[i][k] != replayed {
						t.Errorf("%s: %s stops at %d in Python, %d in the replay", path, rules[k], inPython[i][k], replayed)
					}
				}
			}
			if stops == 0 {
				t.Error("no rule stops any run: nothing is compared")
			}
			t.Logf("%d logs, %d rules, %d stops alike", len(paths), len(rules), stops)
		})
	}
}

// TestRepeatOnRealTALES: on gpt-4o's real TALES rollout of Detective,
// repeat:times=3 stops at step 21 and names the steps and the action: the
// rollout's actions at 19, 20 and 21 are "north" (read by hand), and its
// score goes 60 → 70 at 25; in JSON the result's length is 21 of 200.
func TestRepeatOnRealTALES(t *testing.T) {
	path := filepath.Join(realdata.Dir(t, "tales/logs"), "tw-bench_LLMAgent_gpt-4o_s20241001_c10_t0.0_convFalse", "JerichoEnvDetective", "a0_s20241001.jsonl")
	code, stdout, stderr := runCLI(nil, "episode", "--policy", "repeat:times=3", path)
	if code != exitOK || !strings.Contains(stdout, `premature? +10 at 25 (4 turns later) — "north" 3 times in a row (steps 19–21)`) {
		t.Errorf("exit %d: %s%s", code, stdout, stderr)
	}
	code, stdout, _ = runCLI(nil, "episode", "--policy", "repeat:times=3", "--format", "json", path)
	var eps []struct {
		Turns   int `json:"turns"`
		Results []struct {
			TerminationTurn int `json:"termination_turn"`
			Length          int `json:"length"`
		} `json:"results"`
	}
	if err := json.Unmarshal([]byte(stdout), &eps); err != nil || code != exitOK || len(eps) != 1 || eps[0].Turns != 200 ||
		eps[0].Results[0].TerminationTurn != 21 || eps[0].Results[0].Length != 21 {
		t.Errorf("exit %d, %v: %+v", code, err, eps)
	}
}
