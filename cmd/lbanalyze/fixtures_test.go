package main

import (
	"bytes"
	"flag"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"testing"

	"github.com/lbanalyze/lbanalyze/internal/synth"
	"github.com/lbanalyze/lbanalyze/policy"
)

var update = flag.Bool("update", false, "rewrite the golden files (fixture logs, expected CLI output)")

// fixtures are the small logs the CLI cases read: real ZorkGPT lines written
// by synth from compact plans, committed so that a person can open them.
var fixtures = map[string]func() []byte{
	// Flat to 74, +10 at 75, an objective at 30: score-only stops at 40 with a
	// later gain and an objective in its window; score-or-objective never stops.
	"premature.jsonl": premature,
	// Recorded by HEAD (score-or-objective 40/10): an objective at 35 resets
	// at 35 and 36, the run is stopped at 80 with 44 turns stuck (docs/semantics.md, "5.6 Worked results").
	"recorded-v2.jsonl": func() []byte {
		v2 := policy.Policy{Name: policy.ScoreOrObjective}
		return render(synth.Steps{N: 200, Changes: map[int]int{12: 5}, Objectives: map[int][]string{35: {"Open the window"}}, LoopBreak: &v2})
	},
	// A run of 5 turns, flat: no config of a sweep's grid stops it.
	"five-turns.jsonl": func() []byte { return render(synth.Steps{N: 5}) },
	// Two episodes in one monolithic file.
	"two-episodes.jsonl": func() []byte {
		return render(synth.Steps{N: 30, Changes: map[int]int{25: 5}},
			synth.Steps{ID: "2025-11-12T11:00:00", N: 60, GameOver: 60, Changes: map[int]int{59: 10}})
	},
	// premature.jsonl with text that must not act in any output: an id that
	// markdown would show as a remote image, reversed by a bidi override,
	// with ESC, BEL, NUL and CR; a room with line and paragraph separators
	// and bidi isolates; an objective with markdown emphasis, strikethrough,
	// math and a link.
	"hostile-unicode.jsonl": func() []byte {
		log := premature()
		for _, r := range [][2]string{
			{`"episode_id": "2025-11-12T10:00:00"`, `"episode_id": "![i](http://host/x.png)\u202egpj.exe\u001b]0;t\u0007\u0000\r"`},
			{`West of House`, `West\u2028of\u2029House \u2066x\u2069`},
			{`Open the window`, `Open *the* ~~window~~ $x$ [now](http://x) \\|`},
		} {
			log = bytes.ReplaceAll(log, []byte(r[0]), []byte(r[1]))
		}
		return log
	},
	// Twelve episodes in one file, for the batch cases that need a dataset:
	// four cut by a recorded loop break (censored under a more patient
	// policy), late gains that make 40/10 premature and 30/10 more so,
	// objectives, and runs that no policy stops.
	"dozen.jsonl": func() []byte {
		v1 := policy.Policy{Name: policy.Score}
		v2 := policy.Policy{Name: policy.ScoreOrObjective}
		id := func(i int) string { return fmt.Sprintf("2025-11-%02dT10:00:00", i+1) }
		return render(
			synth.Steps{ID: id(0), N: 100, LoopBreak: &v1, Changes: map[int]int{5: 5}},
			synth.Steps{ID: id(1), N: 120, LoopBreak: &v1, Changes: map[int]int{20: 5}, Objectives: map[int][]string{45: {"Open the window"}}},
			synth.Steps{ID: id(2), N: 150, LoopBreak: &v2, Changes: map[int]int{12: 5}, Objectives: map[int][]string{35: {"Read the leaflet"}}},
			synth.Steps{ID: id(3), N: 90, LoopBreak: &v2, Changes: map[int]int{30: 10}},
			synth.Steps{ID: id(4), N: 100, Changes: map[int]int{75: 10}, Objectives: map[int][]string{30: {"Open the window"}}},
			synth.Steps{ID: id(5), N: 80, Changes: map[int]int{10: 5, 65: 15}},
			synth.Steps{ID: id(6), N: 60, Changes: map[int]int{8: 5, 20: 10, 33: 15, 47: 20}},
			synth.Steps{ID: id(7), N: 140, Changes: map[int]int{35: 5, 110: 25}, Objectives: map[int][]string{70: {"Light the lamp"}, 95: {"Go down"}}},
			synth.Steps{ID: id(8), N: 50, GameOver: 50, Changes: map[int]int{49: -10}},
			synth.Steps{ID: id(9), N: 200, MaxTurns: 200, Changes: map[int]int{40: 5, 90: 10, 150: 15}},
			synth.Steps{ID: id(10), N: 45, Changes: map[int]int{40: 5}},
			synth.Steps{ID: id(11), N: 130, Changes: map[int]int{25: 5, 64: 10}, Objectives: map[int][]string{100: {"Kill the troll"}}},
		)
	},
	// A run killed while it wrote: a clean 30-turn log whose last line is cut,
	// as the bundled set holds one on purpose.
	"killed.jsonl": func() []byte {
		return append(render(synth.Steps{ID: "2025-11-13T10:00:00", N: 30, Changes: map[int]int{10: 5}}),
			`{"timestamp": "2025-11-13T10:31:00.100000", "level": "INFO", "message": "SELECTED ACTION: north`...)
	},
	// Every kind of bad line, each in a copy of a clean 45-turn log.
	"bad-lines.jsonl": func() []byte {
		lines := bytes.SplitAfter(render(synth.Steps{N: 45, Changes: map[int]int{20: 5}}), []byte("\n"))
		edit := func(sub, old, new string) {
			for i, l := range lines {
				if bytes.Contains(l, []byte(sub)) {
					lines[i] = bytes.Replace(l, []byte(old), []byte(new), 1)
					return
				}
			}
			panic("no line with " + sub)
		}
		edit(`"message": "Turn 10 completed"`, `"confidence": 0.9`, `"confidence": NaN`)                 // read as missing
		edit(`"message": "Turn 11 completed"`, `"action": "action 11"`, "\"action\": \"action \xff11\"") // repaired
		edit(`"message": "Turn 12 completed"`, `"score": 0,`, `"score": 0,,`)                            // invalid JSON: turn 12 missing
		edit(`"message": "Turn 13 completed"`, `"turn": 13,`, `"turn": "13",`)                           // undecodable: turn 13 missing
		out := bytes.Join(lines, nil)
		return append(out, `{"timestamp": "2025-11-12T10:25:00.100000", "level": "INFO", "message": "SELECTED ACTION: north`...) // truncated last line
	},
}

// talesRuns are 24 TALES rollouts in the benchmark's layout
// (<run>/<game>/a0_s20241001_steps60.jsonl), three runs of eight games (of
// models named so that no real run's id is theirs), for
// a harness's answer in dollars (tales-sweep-cost.txtar): in four games of
// each run the score rises by 10 at step 5 and never again; in the other four
// at steps 5, 25 and 45. Every step spends 1,000 tokens.
func talesRuns() map[string][]byte {
	runs := []string{"tw-bench_LLMAgent_model-a_s20241001_c10_t0.0_convFalse", "tw-bench_LLMAgent_model-b_s20241001_c10_t0.0_convFalse",
		"tales_LLMAgent_model-c_s20241001_c10_t0.0_convFalse"}
	games := []string{"JerichoEnvZork1", "JerichoEnvDetective", "JerichoEnvEnchanter", "JerichoEnvLudicorp",
		"JerichoEnvZork2", "JerichoEnvBalances", "JerichoEnvAcorncourt", "JerichoEnvLibrary"}
	files := map[string][]byte{}
	for _, run := range runs {
		for g, game := range games {
			gains := []int{5}
			if g >= 4 {
				gains = []int{5, 25, 45}
			}
			files[filepath.Join("tales-runs", run, game, "a0_s20241001_steps60.jsonl")] = talesRollout(60, gains...)
		}
	}
	return files
}

// talesRollout is a rollout as benchmark.py writes it (pandas, one object a
// step, its columns in order) of steps steps, the score rising by 10 at each
// step of gains, 1,000 tokens a step.
func talesRollout(steps int, gains ...int) []byte {
	var b bytes.Buffer
	score := 0
	for t := 1; t <= steps; t++ {
		if slices.Contains(gains, t) {
			score += 10
		}
		fmt.Fprintf(&b, `{"Step":%d,"Score":%d,"Max Score":350,"Normalized Score":%s,"Moves":%d,"Observation":"Room %d","Action":"go %d","Feedback":"You are in room %d.","Prompt":"> ","Response":"go %d","Token Usage":1000}`+"\n",
			t, score, strconv.FormatFloat(float64(score)/350, 'f', -1, 64), t, t, t, t+1, t)
	}
	return b.Bytes()
}

func premature() []byte {
	return render(synth.Steps{N: 100, Changes: map[int]int{75: 10}, Objectives: map[int][]string{30: {"Open the window"}}})
}

func render(plans ...synth.Steps) []byte {
	var buf bytes.Buffer
	for _, p := range plans {
		if _, err := synth.Write(&buf, p.Episode()); err != nil {
			panic(err)
		}
	}
	return buf.Bytes()
}

// TestFixtures checks that the committed fixture logs are what their plans
// write (go test -update rewrites them).
func TestFixtures(t *testing.T) {
	all := map[string][]byte{}
	for name, gen := range fixtures {
		all[name] = gen()
	}
	maps.Copy(all, talesRuns())
	for name, want := range all {
		path := filepath.Join("testdata", "logs", name)
		if *update {
			if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(path, want, 0o644); err != nil {
				t.Fatal(err)
			}
			continue
		}
		got, err := os.ReadFile(path)
		if err != nil || !bytes.Equal(got, want) {
			t.Errorf("%s is stale or missing (%v): run go test ./cmd/lbanalyze -update", path, err)
		}
	}
}
