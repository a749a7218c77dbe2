package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestSweepConfigIsNow: --config names the current setting, not the grid:
// with it, sweep searches the very configs it searches without it, and only
// "current" changes, to the file's setting.
func TestSweepConfigIsNow(t *testing.T) {
	config := filepath.Join(t.TempDir(), "pyproject.toml")
	os.WriteFile(config, []byte("[tool.zorkgpt.loop_break]\nmax_turns_stuck = 60\nstuck_check_interval = 15\n"), 0o644)
	type out struct {
		Configs []map[string]any `json:"configs"`
		Current map[string]any   `json:"current"`
	}
	sweep := func(args ...string) out {
		args = append(append([]string{"sweep", "--format", "json"}, args...), "testdata/logs/premature.jsonl", "testdata/logs/two-episodes.jsonl")
		code, stdout, stderr := runCLI(nil, args...)
		if code != 0 {
			t.Fatalf("%s: exit %d: %s", strings.Join(args, " "), code, stderr)
		}
		var o out
		if err := json.Unmarshal([]byte(stdout), &o); err != nil {
			t.Fatal(err)
		}
		return o
	}
	policies := func(o out) []string {
		var s []string
		for _, c := range o.Configs {
			s = append(s, fmt.Sprint(c["policy"], c["settings"]))
		}
		return s
	}
	plain, withConfig := sweep(), sweep("--config", config)
	// The default grid: 3 policies × max_turns_stuck 10 to 150 by 5 (29) × 3 intervals.
	if len(plain.Configs) != 261 || !slices.Equal(policies(plain), policies(withConfig)) {
		t.Errorf("%d configs without --config, %d with: the grid changed", len(plain.Configs), len(withConfig.Configs))
	}
	timer := func(c map[string]any) (w, i any) {
		s, _ := c["settings"].(map[string]any)
		return s["max_turns_stuck"], s["check_interval"]
	}
	if c := withConfig.Current; c["policy"] != "score-or-objective" || fmt.Sprint(timer(c)) != "60 15" {
		t.Errorf("current %v, want score-or-objective 60/15", c)
	}
	if c := plain.Current; fmt.Sprint(timer(c)) != "40 10" {
		t.Errorf("current without --config %v, want ZorkGPT's defaults 40/10", c)
	}
}

// The HTML report of a priced sweep says the dollars as the table does: the
// answer's versus now line (the change from now's, as at least its lower
// bound: the choice biases it; the page escapes "+"), and the front's cost column with its interval
// (tales-sweep-cost.txtar works them out). On these 24 runs no change is
// shown within the margin (no clear winner): the page has no block to paste.
func TestSweepHTMLDollars(t *testing.T) {
	page := filepath.Join(t.TempDir(), "sweep.html")
	if code, _, stderr := runCLI(nil, "sweep", "--cost-per-mtok", "2.5", "--html", page, "testdata/logs/tales-runs"); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	html, err := os.ReadFile(page)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"cost saved &#43;$1.05 (at least &#43;$0.61)", "cost saved (95% CI)", "$1.05 ($0.61 … $1.49)", "no clear winner"} {
		if !strings.Contains(string(html), want) {
			t.Errorf("the page lacks %q", want)
		}
	}
	if strings.Contains(string(html), "class LoopBreak:") {
		t.Error("a block to paste, though there is no clear winner")
	}
}

// The same episodes under two spellings of their directory give the same
// answer, byte for byte: ids come from the path below the directory given
// and folds from the ids alone (docs/commands.md, "sweep: which setting to
// ship"), so the held-out figures cannot move with the spelling.
func TestSweepSameEpisodesTwoSpellings(t *testing.T) {
	var outs []string
	for _, dir := range []string{"../../testdata/episodes", "./../..//testdata/episodes/"} {
		code, stdout, stderr := runCLI(nil, "sweep", "--format", "json", dir)
		if code != 0 {
			t.Fatalf("%s: exit %d: %s", dir, code, stderr)
		}
		outs = append(outs, stdout)
	}
	if outs[0] != outs[1] {
		t.Error("the same episodes under two spellings give two answers")
	}
	if !strings.Contains(outs[0], `"held_out_turns_saved_pct":17.73009`) {
		t.Errorf("the held-out share of turns saved is not 17.73%% (the README's):\n%.2000s", outs[0])
	}
}

// Logs that record no id are named by their path below the directory given,
// so "sweep --by dir:1 runs" names a run "model-a/run07" and "sweep
// runs/model-a" names it "run07". The folds come from the runs' content
// (docs/commands.md, "sweep: which setting to ship"), so both print the same
// held-out figures for model-a. Each run of 60 steps gains a point every 3
// steps until a step of its own, 12 + 7i mod 40, then never again (truly
// stuck); run00 also waits 7 steps from 4 to 11. So 5/1 saves the most but
// stops run00 before its next gain: a fold whose training runs hold run00
// chooses another config, the fold holding it out 5/1, and what the folds
// save held out depends on which runs share run00's fold.
func TestSweepFoldsIndependentOfWhereTheUserPoints(t *testing.T) {
	root := filepath.Join(t.TempDir(), "runs")
	for _, model := range []string{"model-a", "model-b"} {
		dir := filepath.Join(root, model)
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		for i := range 30 {
			var b strings.Builder
			score, last := 0, 12+(7*i)%40
			for step := 1; step <= 60; step++ {
				if step%3 == 0 && step <= last && !(i == 0 && step > 4 && step < 11) {
					score++
				}
				fmt.Fprintf(&b, "{\"t\":%d,\"s\":%d}\n", step, score)
			}
			if err := os.WriteFile(filepath.Join(dir, fmt.Sprintf("run%02d.jsonl", i)), []byte(b.String()), 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
	type answer struct {
		Chosen string
		CV     map[string]any
		Held   []map[string]any `json:"held_out"`
	}
	sweep := func(by bool) answer {
		args := []string{"sweep", "--fields", "turn=t,score=s", "--max-turns-stuck", "5:20:5", "--check-interval", "1", "--format", "json"}
		if by {
			args = append(args, "--by", "dir:1", root)
		} else {
			args = append(args, filepath.Join(root, "model-a"))
		}
		code, stdout, stderr := runCLI(nil, args...)
		if code != 0 {
			t.Fatalf("%v: exit %d: %s", args, code, stderr)
		}
		var one struct{ Answer *answer }
		var grouped struct {
			Groups []struct {
				Name   string
				Answer *answer
			}
		}
		if by {
			if err := json.Unmarshal([]byte(stdout), &grouped); err != nil {
				t.Fatal(err)
			}
			for _, g := range grouped.Groups {
				if g.Name == "model-a" && g.Answer != nil {
					return *g.Answer
				}
			}
			t.Fatalf("no answer for model-a: %s", stdout)
		}
		if err := json.Unmarshal([]byte(stdout), &one); err != nil || one.Answer == nil {
			t.Fatalf("%v: %s", err, stdout)
		}
		return *one.Answer
	}
	byDir, direct := sweep(true), sweep(false)
	a, _ := json.Marshal(byDir)
	b, _ := json.Marshal(direct)
	if string(a) != string(b) {
		t.Errorf("model-a under --by dir:1:\n%s\npointed at directly:\n%s", a, b)
	}
}
