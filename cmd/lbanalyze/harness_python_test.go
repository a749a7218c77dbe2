package main

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/lbanalyze/lbanalyze/episode"
	"github.com/lbanalyze/lbanalyze/internal/realdata"
	"github.com/lbanalyze/lbanalyze/policy"
	"github.com/lbanalyze/lbanalyze/source/steps"
	"github.com/lbanalyze/lbanalyze/system"
)

// stopsInPython runs the block of each policy in Python on the logs at
// paths, which Python reads itself (json.loads of each line, the score at
// scoreKey, a dotted path; a new episode where episodeKey's value changes;
// a table's rows with the csv module, and with rewards set, the score the
// running sum of the column's rewards, in plain floats as a harness sums
// them), and gives, by episode in order, the step each policy's LoopBreak
// stops at, 0 for none.
const stopsInPython = `
import csv, json, sys
blocks, paths, score_key, episode_key, rewards = json.loads(sys.argv[1])
classes = []
for block in blocks:
    ns = {}
    exec(block, ns)
    classes.append(ns["LoopBreak"])

def member(obj, key):
    for k in key.split("."):
        obj = obj[k]
    return obj

def rows(path):
    if path.endswith(".csv"):
        with open(path, newline="", encoding="utf-8") as f:
            yield from csv.DictReader(f)
        return
    for text in open(path, encoding="utf-8"):
        if text.strip():
            yield json.loads(text)

episodes = []
for path in paths:
    current, total = None, 0.0
    for obj in rows(path):
        if rewards:
            total += float(obj[score_key])
            obj = {score_key: total}
        ep = member(obj, episode_key) if episode_key else None
        if current is None or ep != current[0]:
            current = (ep, [c() for c in classes], [0] * len(classes))
            episodes.append(current)
        _, rules, stops = current
        for i, rule in enumerate(rules):
            if not stops[i] and rule.stop(member(obj, score_key)):
                stops[i] = rule.step
print(json.dumps([stops for _, _, stops in episodes]))
`

// TestHarnessPython runs the Python a harness is given (system.Harness's
// block) on logged episodes and checks that it stops each where episode
// says the rule stops: TALES rollouts (one with a restart, whose score
// falls to 0), per-step JSONL of several episodes a file, and configs that
// never stop. Python reads the logs itself, so that neither lbanalyze's
// reading nor its replay stands on both sides.
func TestHarnessPython(t *testing.T) {
	python := python3(t)
	type logs struct {
		name               string
		paths              func(t *testing.T) []string
		fields             string // --fields, "" for a known format
		scoreKey, episodes string
		rewards            bool // scoreKey is a reward a step, summed into the score
	}
	fixture := func(p string) func(*testing.T) []string { return func(*testing.T) []string { return []string{p} } }
	tales := logs{"TALES with a restart", fixture("testdata/logs/tales/restart.jsonl"), "", "Score", "", false}
	harness := logs{"per-step JSONL", fixture("testdata/logs/harness-two-kinds.jsonl"), "episode=ep,turn=t,score=s", "s", "ep", false}
	// A table of fractional rewards: the block for real scores, whose
	// moves are compared with min_delta to 9 decimals (0.65 - 0.4 summed
	// in floats is 0.25000000000000006, 0.85 - 0.65 is 0.19999999999999996).
	rewards := logs{"a table of rewards", fixture("../../testdata/steps/rewards.csv"), "turn=Step,reward=Reward", "Reward", "", true}
	// Rewards of 0.1: summed in floats, 0.7999999999999999 - 0.5 is below 0.3,
	// so that a block that compared without the 9 decimals would stop at
	// step 12 where increase 4/1 delta 0.3 stops at 14.
	tenths := logs{"rewards of 0.1", func(t *testing.T) []string {
		rows := "Step,Reward\n"
		for i := range 25 {
			rows += fmt.Sprintf("%d,%s\n", i, map[bool]string{true: "0", false: "0.1"}[i >= 10 && i < 15])
		}
		path := filepath.Join(t.TempDir(), "tenths.csv")
		if err := os.WriteFile(path, []byte(rows), 0o644); err != nil {
			t.Fatal(err)
		}
		return []string{path}
	}, "turn=Step,reward=Reward", "Reward", "", true}
	runs := logs{"TALES runs of the fixtures", func(t *testing.T) []string {
		paths, _ := filepath.Glob("testdata/logs/tales-runs/*/*/*.jsonl")
		return paths
	}, "", "Score", "", false}
	real := logs{"real TALES rollouts", func(t *testing.T) []string {
		paths, _ := filepath.Glob(filepath.Join(realdata.Dir(t, "tales/logs"), "*", "*", "*.jsonl"))
		return paths
	}, "", "Score", "", false}
	for _, c := range []struct {
		logs     logs
		policies []string
	}{
		{tales, []string{"increase:10/5", "score:10/5", "score:40/10", "increase:40/10", "zorkburr:12/3", "zorkburr:5/1",
			"patience:8/2:score_mode=increase:min_delta=5:min_turns=30:objective_patience=-1", "patience:6/1:min_delta=10:objective_patience=-1", "none"}},
		{harness, []string{"increase:6/1", "score:3/1", "score:6/1", "zorkburr:4/2", "increase:3/1:min_turns=7", "score:100/10"}},
		{runs, []string{"score:20/1", "increase:20/1", "increase:15/5", "score:10/10", "zorkburr:19/1"}},
		{real, []string{"increase:15/10", "increase:20/1", "increase:40/10", "score:40/10", "score:20/1", "zorkburr:30/5"}},
		{rewards, []string{"increase:4/2:min_delta=0.25", "increase:4/2", "increase:4/1:min_delta=0", "increase:3/1:min_delta=0.2",
			"patience:3/1:min_delta=0.1:objective_patience=-1", "score:4/2", "score:2/1", "zorkburr:3/1", "increase:20/5",
			"increase:3/1:min_delta=0.2:min_turns=8"}},
		{tenths, []string{"increase:4/1:min_delta=0.3", "increase:5/1:min_delta=0.3", "increase:3/1:min_delta=0.2", "increase:20/1"}},
	} {
		t.Run(c.logs.name, func(t *testing.T) {
			paths := c.logs.paths(t)
			args := []string{"episode", "--format", "json", "--policy", strings.Join(c.policies, ",")}
			if c.logs.fields != "" {
				args = append(args, "--fields", c.logs.fields)
			}
			code, out, stderr := runCLI(nil, append(args, paths...)...)
			if code != exitOK {
				t.Fatalf("episode: exit %d: %s", code, stderr)
			}
			var eps []struct {
				ID      string `json:"episode_id"`
				Results []struct {
					Turn *int `json:"termination_turn"`
				} `json:"results"`
			}
			if err := json.Unmarshal([]byte(out), &eps); err != nil {
				t.Fatal(err)
			}
			stops := inPython(t, python, stopsInPython, harnessOf(c.logs.rewards), c.policies, paths, c.logs.scoreKey, c.logs.episodes, c.logs.rewards)
			if len(stops) != len(eps) {
				t.Fatalf("Python read %d episodes, episode %d", len(stops), len(eps))
			}
			stopped, never := 0, 0
			for i, ep := range eps {
				for k, r := range ep.Results {
					want := 0
					if r.Turn != nil {
						want = *r.Turn
						stopped++
					} else {
						never++
					}
					if stops[i][k] != want {
						t.Errorf("%s, %s: Python stops at step %d, episode at %d (0: never)", ep.ID, c.policies[k], stops[i][k], want)
					}
				}
			}
			if stopped == 0 || never == 0 {
				t.Errorf("%d results stop and %d never do: the case should hold both", stopped, never)
			}
			t.Logf("%d episodes × %d configs: %d stops, %d never", len(eps), len(c.policies), stopped, never)
		})
	}
}

// harnessOf is the harness as its block is worded for logs of whole scores,
// or of real ones (summed rewards: system.OfAll's harness for them).
func harnessOf(real bool) *system.System {
	if !real {
		return system.Harness
	}
	return system.OfAll([]*episode.Episode{{Format: steps.TableFormat, Turns: []episode.Turn{{Score: 0.5}}}})
}

// python3 is the path of python3; without it the test is skipped.
func python3(t *testing.T) string {
	t.Helper()
	python, err := exec.LookPath("python3")
	if err != nil {
		t.Skip("python3 is not installed: the harness's Python block is not run")
	}
	return python
}

// inPython runs script in Python with, as its argument, the JSON of the
// blocks h gives the policies specs followed by args, and gives the stops
// it prints: by log or episode, the step each block stops at, 0 for none.
func inPython(t *testing.T, python, script string, h *system.System, specs []string, args ...any) [][]int {
	t.Helper()
	var blocks []string
	for _, spec := range specs {
		p, err := policy.Parse(spec, nil)
		if err != nil {
			t.Fatal(err)
		}
		block, err := h.Block(p)
		if err != nil {
			t.Fatalf("%s: %v", spec, err)
		}
		blocks = append(blocks, block)
	}
	arg, _ := json.Marshal(append([]any{blocks}, args...))
	out, err := exec.Command(python, "-c", script, string(arg)).CombinedOutput()
	if err != nil {
		t.Fatalf("python: %v\n%s", err, out)
	}
	var stops [][]int
	if err := json.Unmarshal(out, &stops); err != nil {
		t.Fatalf("python printed %q: %v", out, err)
	}
	return stops
}

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
	python := python3(t)
	rules := []string{"repeat", "repeat:times=4:then=1", "repeat:times=5:within=20", "repeat-observed:times=3", "alternate:times=4",
		"alternate:times=5:compare=action", "repeat-observed:times=3:ignore=[0-9]+", "gemini-cli", "openclaw", "repeat:times=6+alternate:times=6",
		"repeat:times=8:within=-1:then=2", "repeat-observed:times=5:within=-1"}
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
			blockStops := inPython(t, python, repetitionInPython, system.Harness, rules, paths, c.action, c.observation)
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
					if blockStops[i][k] != replayed {
						t.Errorf("%s: %s stops at %d in Python, %d in the replay", path, rules[k], blockStops[i][k], replayed)
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
