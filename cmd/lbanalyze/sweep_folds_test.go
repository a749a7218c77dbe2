package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

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
