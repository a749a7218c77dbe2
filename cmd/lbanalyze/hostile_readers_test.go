package main

import (
	"bytes"
	"compress/gzip"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"strconv"
	"strings"
	"testing"

	"github.com/klauspost/compress/zstd"

	"github.com/lbanalyze/lbanalyze/internal/benchdata"
	"github.com/lbanalyze/lbanalyze/internal/corpus"
	"github.com/lbanalyze/lbanalyze/internal/realdata"
	"github.com/lbanalyze/lbanalyze/jsonl"
	"github.com/lbanalyze/lbanalyze/source"
	"github.com/lbanalyze/lbanalyze/source/steps"
)

// The readers under hostile input, each case of issue 27 run as a user
// would (docs/bad-input.md, "Runs in one file" and "Every case"): the exit
// code, the message, and where a run could be split, merged or inflated, the
// good run's numbers equal to the clean log's. The real ep96 of
// ../shared/real/zorkgpt2 is used in its three forms where the issue did.

// outcome is what a row of episode's CSV says of one episode under one
// policy: the numbers a split, merge or inflation would change.
type outcome struct {
	id                                 string
	turns, final, stop, saved, forgone int
	calls                              int
	end                                string
	skipped                            int
	segment                            int
}

// outcomes runs episode with args in CSV and reads its rows.
func outcomes(t *testing.T, args ...string) (code int, rows []outcome, stderr string) {
	t.Helper()
	code, stdout, stderr := runCLI(nil, append([]string{"episode", "--format", "csv"}, args...)...)
	recs, err := csv.NewReader(strings.NewReader(stdout)).ReadAll()
	if err != nil || len(recs) == 0 {
		return code, nil, stderr
	}
	col := map[string]int{}
	for i, h := range recs[0] {
		col[h] = i
	}
	num := func(r []string, k string) int {
		v, _ := strconv.Atoi(r[col[k]])
		return v
	}
	for _, r := range recs[1:] {
		rows = append(rows, outcome{id: r[col["episode_id"]], turns: num(r, "turns"), final: num(r, "final_score"), stop: num(r, "termination_turn"),
			saved: num(r, "turns_saved"), forgone: num(r, "score_forgone"), calls: num(r, "llm_calls_saved"), end: r[col["end_reason"]],
			skipped: num(r, "skipped_lines"), segment: num(r, "segment")})
	}
	return code, rows, stderr
}

// ep96 is the clean run of ep96 under zorkburr 40/10, as docs/zorkgpt2.md
// works it out: 110 turns, 0 → 54, a stop at 60 saving 50 turns and 174
// LLM calls, forgoing the +4 at 92.
var ep96 = outcome{id: "ep96", turns: 110, final: 54, stop: 60, saved: 50, forgone: 4, calls: 174, end: "max_turns", segment: 1}

// realEp96 is the real ep96's directory, its run log's and its Burr log's
// lines; the test skips, saying so, without them.
func realEp96(t *testing.T) (dir string, runLog, burr []string) {
	t.Helper()
	dir = realdata.Dir(t, "zorkgpt2")
	read := func(pattern string) []string {
		paths, _ := filepath.Glob(filepath.Join(dir, pattern))
		if len(paths) != 1 {
			t.Fatalf("%s: %v", pattern, paths)
		}
		data, err := os.ReadFile(paths[0])
		if err != nil {
			t.Fatal(err)
		}
		return strings.Split(strings.TrimSuffix(string(data), "\n"), "\n")
	}
	return dir, read("ep96/run_log_ep96.txt"), read("ep96/burr/default/*/log.jsonl")
}

func writeLines(t *testing.T, path string, lines []string) string {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(strings.Join(lines, "\n")+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// Item 1: a TURN line repeated, swapped or stray splits no run: it is named
// and skipped, and the run's numbers are the clean log's.
func TestRunLogLineOutOfPlace(t *testing.T) {
	_, clean, _ := realEp96(t)
	at := func(turn int) int { // the index of TURN turn's line
		for i, l := range clean {
			if strings.HasPrefix(l, fmt.Sprintf("TURN %d |", turn)) {
				return i
			}
		}
		t.Fatalf("no TURN %d", turn)
		return -1
	}
	repeated := append(append(append([]string{}, clean[:at(50)+1]...), clean[at(50)]), clean[at(50)+1:]...)
	swapped := append([]string{}, clean...)
	swapped[at(50)], swapped[at(51)] = swapped[at(51)], swapped[at(50)]
	stray := append(append(append([]string{}, clean[:at(50)+1]...), clean[at(1)]), clean[at(50)+1:]...)
	for _, c := range []struct {
		name  string
		lines []string
		msg   string
	}{
		{"TURN 50 twice", repeated, "RUNLOG:51: TURN 50 again: a repeat, skipped\n"},
		{"TURN 50 and 51 swapped", swapped, "RUNLOG:51: TURN 50 after TURN 51: out of order, skipped\n"},
		{"TURN 1 again at 51", stray, "RUNLOG:51: TURN 1 after TURN 50, while the lines after it go on from 51: a stray line, skipped\n"},
	} {
		t.Run(c.name, func(t *testing.T) {
			log := writeLines(t, filepath.Join(t.TempDir(), "run_log_ep96.txt"), c.lines)
			code, rows, stderr := outcomes(t, "--policy", "zorkburr", log)
			want := c.msg + "RUNLOG: 1 line skipped in ep96; the rest was analysed\n"
			if got := strings.ReplaceAll(stderr, "lbanalyze: "+log, "RUNLOG"); code != 0 || got != want {
				t.Errorf("exit %d, stderr:\n%s\nwant exit 0 and:\n%s", code, got, want)
			}
			want1 := ep96
			want1.skipped = 1
			if len(rows) != 1 || rows[0] != want1 {
				t.Errorf("rows %+v, want the clean log's %+v", rows, want1)
			}
		})
	}
}

// Item 2: two runs appended to one file are two episodes, in the Burr log,
// a per-step JSONL and a TALES rollout; each as it is alone.
func TestRunsAppended(t *testing.T) {
	_, _, burr := realEp96(t)
	dir := t.TempDir()
	// Run A: ep96's first 50 turns as epA, cut after turn 50's
	// execute_action (the runner's budget); then run B: the whole of ep96 as
	// epB, every score 200 higher.
	var lines []string
	for _, l := range burr {
		lines = append(lines, strings.ReplaceAll(l, `"episode_id":"ep96"`, `"episode_id":"epA"`))
		if strings.Contains(l, `"action":"execute_action","result"`) && strings.Contains(l, `"turn_count":50,`) {
			break
		}
	}
	score := regexp.MustCompile(`"score":(-?[0-9]+)`)
	for _, l := range burr {
		l = score.ReplaceAllStringFunc(strings.ReplaceAll(l, `"episode_id":"ep96"`, `"episode_id":"epB"`), func(m string) string {
			v, _ := strconv.Atoi(m[len(`"score":`):])
			return fmt.Sprintf(`"score":%d`, v+200)
		})
		lines = append(lines, l)
	}
	code, rows, stderr := outcomes(t, "--policy", "zorkburr", writeLines(t, filepath.Join(dir, "log.jsonl"), lines))
	a := outcome{id: "epA", turns: 50, final: 50, end: "max_turns", segment: 1}
	b := ep96
	b.id, b.final, b.segment = "epB", 254, 2
	if code != 0 || stderr != "" || len(rows) != 2 || rows[0] != a || rows[1] != b {
		t.Errorf("Burr: exit %d, stderr %q, rows %+v; want %+v and %+v", code, stderr, rows, a, b)
	}

	// 40 steps, then 100 numbered from 0 again: two episodes, each what it
	// would be alone.
	var run1, run2 []string
	for i := range 40 {
		run1 = append(run1, fmt.Sprintf(`{"step": %d, "score": %d}`, i, i/10))
	}
	for i := range 100 {
		run2 = append(run2, fmt.Sprintf(`{"step": %d, "score": %d}`, i, i/20))
	}
	fields := []string{"--fields", "turn=step,score=score", "--policy", "score", "--max-turns-stuck", "10", "--check-interval", "5"}
	_, alone1, _ := outcomes(t, append(fields, writeLines(t, filepath.Join(dir, "run1.jsonl"), run1))...)
	_, alone2, _ := outcomes(t, append(fields, writeLines(t, filepath.Join(dir, "run2.jsonl"), run2))...)
	code, rows, stderr = outcomes(t, append(fields, writeLines(t, filepath.Join(dir, "both.jsonl"), append(run1, run2...)))...)
	want1, want2 := alone1[0], alone2[0]
	want1.id, want2.id, want2.segment = "both", "both", 2
	if code != 0 || stderr != "" || len(rows) != 2 || rows[0] != want1 || rows[1] != want2 || rows[0].turns != 40 || rows[1].turns != 100 {
		t.Errorf("JSONL: exit %d, stderr %q, rows %+v; want %+v and %+v", code, stderr, rows, want1, want2)
	}

	// A TALES rollout written twice to one file: two runs of the game.
	rollout := func(steps int) []string {
		var l []string
		for i := 1; i <= steps; i++ {
			l = append(l, fmt.Sprintf(`{"Step":%d,"Score":%d,"Max Score":350,"Normalized Score":0.0,"Moves":%d,"Observation":"o","Action":"north","Feedback":"f","Prompt":"p","Response":"r","Token Usage":10}`, i, i/7, i))
		}
		return l
	}
	tales := filepath.Join(dir, "tales_LLMAgent_m", "JerichoEnvZork1", "a0_s20241001_steps30.jsonl")
	code, rows, stderr = outcomes(t, "--policy", "increase", "--max-turns-stuck", "5", "--check-interval", "5", writeLines(t, tales, append(rollout(30), rollout(30)...)))
	if code != 0 || stderr != "" || len(rows) != 2 || rows[0].turns != 30 || rows[1].turns != 30 || rows[0].final != 4 || rows[1].segment != 2 {
		t.Errorf("TALES: exit %d, stderr %q, rows %+v: want two runs of 30 steps", code, stderr, rows)
	}
}

// Item 3: runs interleaved under a field map's episode key are kept apart,
// each equal to the run alone; a key met again after another goes on with
// its run.
func TestRunsInterleaved(t *testing.T) {
	dir := t.TempDir()
	step := func(ep string, i int) string { // A gains every 10 steps, B every 3
		every := map[string]int{"A": 10, "B": 3}[ep]
		return fmt.Sprintf(`{"ep": %q, "t": %d, "s": %d}`, ep, i, i/every)
	}
	var both, a, b []string
	for i := 1; i <= 40; i++ {
		both = append(both, step("A", i), step("B", i))
		a, b = append(a, step("A", i)), append(b, step("B", i))
	}
	args := []string{"--fields", "episode=ep,turn=t,score=s", "--policy", "score", "--max-turns-stuck", "8", "--check-interval", "2"}
	_, aloneA, _ := outcomes(t, append(args, writeLines(t, filepath.Join(dir, "a.jsonl"), a))...)
	_, aloneB, _ := outcomes(t, append(args, writeLines(t, filepath.Join(dir, "b.jsonl"), b))...)
	code, rows, stderr := outcomes(t, append(args, writeLines(t, filepath.Join(dir, "ab.jsonl"), both))...)
	wantB := aloneB[0]
	wantB.segment = 2
	if code != 0 || stderr != "" || len(rows) != 2 || rows[0] != aloneA[0] || rows[1] != wantB || rows[0].stop != 8 {
		t.Errorf("interleaved: exit %d, stderr %q, rows %+v; want %+v and %+v", code, stderr, rows, aloneA[0], wantB)
	}
	// A, B, then A again: two episodes, A's lines in one.
	aba := append(append(append([]string{}, a[:20]...), b...), a[20:]...)
	code, rows, _ = outcomes(t, append(args, writeLines(t, filepath.Join(dir, "aba.jsonl"), aba))...)
	if code != 0 || len(rows) != 2 || rows[0] != aloneA[0] || rows[1] != wantB {
		t.Errorf("A, B, A: exit %d, rows %+v", code, rows)
	}
}

// Item 4: a Burr entry repeated counts once: every generate_action begin
// entry, or every execute_action end entry, of ep96 written twice leaves the
// calls saved at the clean log's 174, each repeat named.
func TestBurrEntriesRepeated(t *testing.T) {
	_, _, burr := realEp96(t)
	for _, c := range []struct {
		name    string
		twice   func(line string) bool
		repeats int
		first   string // the problem of the first repeat, on the log's 4th or 9th line
	}{
		{"begin entries of generate_action", func(l string) bool {
			return strings.HasPrefix(l, `{"type":"begin_entry",`) && strings.Contains(l, `"action":"generate_action"`)
		}, 147, ":4: sequence_id 1 again: a repeat, skipped\n"},
		{"end entries of execute_action", func(l string) bool {
			return strings.HasPrefix(l, `{"type":"end_entry",`) && strings.Contains(l, `"action":"execute_action"`)
		}, 110, ":9: end_entry of execute_action, sequence_id 3 again: a repeat, skipped\n"},
	} {
		t.Run(c.name, func(t *testing.T) {
			var lines []string
			n := 0
			for _, l := range burr {
				lines = append(lines, l)
				if c.twice(l) {
					lines, n = append(lines, l), n+1
				}
			}
			log := writeLines(t, filepath.Join(t.TempDir(), "log.jsonl"), lines)
			code, rows, stderr := outcomes(t, "--policy", "zorkburr", log)
			want := ep96
			want.skipped = c.repeats
			if n != c.repeats || code != 0 || len(rows) != 1 || rows[0] != want {
				t.Errorf("%d repeats: exit %d, rows %+v; want %d and %+v", n, code, rows, c.repeats, want)
			}
			if !strings.HasPrefix(stderr, "lbanalyze: "+log+c.first) || !strings.Contains(stderr, fmt.Sprintf("%d lines skipped in ep96", c.repeats)) {
				t.Errorf("stderr:\n%s", stderr)
			}
		})
	}
}

// Item 5: a field map claims only the files whose first object has its
// score (and step) member: a ZorkGPT log and a TALES rollout given beside a
// harness log are read by their own sources, without a word.
func TestFieldMapClaimsByFirstObject(t *testing.T) {
	tales, _ := filepath.Glob("testdata/logs/tales/*.jsonl")
	if len(tales) == 0 {
		t.Fatal("no TALES fixture")
	}
	code, stdout, stderr := runCLI(nil, "episode", "--format", "json", "--policy", "score", "--fields", "turn=step,score=info.score",
		"../../testdata/steps/harness.jsonl", "../../testdata/episodes/2025-10-18T17-19-41/episode_log.jsonl", tales[0])
	var got []string
	for _, m := range regexp.MustCompile(`"log_format": "([a-z0-9-]+)"`).FindAllStringSubmatch(stdout, -1) {
		got = append(got, m[1])
	}
	if want := "jsonl zorkgpt tales"; code != 0 || stderr != "" || strings.Join(got, " ") != want {
		t.Errorf("exit %d, formats %v (want %s), stderr:\n%s", code, got, want, stderr)
	}
}

// Item 6: a cut gzip is analysed as far as it goes and said once: never
// both counted and listed as left out.
func TestCutGzipSaidOnce(t *testing.T) {
	data, err := os.ReadFile("../../testdata/episodes/2025-10-18T17-19-41/episode_log.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	var gz bytes.Buffer
	w := gzip.NewWriter(&gz)
	w.Write(data)
	w.Close()
	cut := filepath.Join(t.TempDir(), "cut.jsonl.gz")
	if err := os.WriteFile(cut, gz.Bytes()[:gz.Len()/2], 0o644); err != nil {
		t.Fatal(err)
	}
	code, stdout, stderr := runCLI(nil, "batch", cut)
	if code != 0 || !strings.HasPrefix(stdout, "1 episode analysed") || strings.Contains(stdout, "left out") ||
		strings.Count(stderr, "read error") != 1 || !strings.Contains(stderr, "unexpected EOF; what was read before it is analysed") {
		t.Errorf("exit %d, stdout:\n%.300s\nstderr:\n%s", code, stdout, stderr)
	}
}

// Item 7: a setting is bounded by what an episode can use: the supervisor's
// checkpoint at 10^9 or the largest int never comes in 110 turns, and costs
// nothing for being large (it panicked, or took 15.7 GB).
func TestCheckpointPastAnyEpisode(t *testing.T) {
	dir, _, _ := realEp96(t)
	for _, c := range []string{"1000000000", "9223372036854775807"} {
		code, rows, stderr := outcomes(t, "--policy", "supervisor:checkpoint="+c, filepath.Join(dir, "ep96/run_log_ep96.txt"))
		if code != 0 || stderr != "" || len(rows) != 1 || rows[0].stop != 0 || rows[0].saved != 0 || rows[0].turns != 110 {
			t.Errorf("checkpoint %s: exit %d, rows %+v, stderr %q", c, code, rows, stderr)
		}
	}
}

// Item 8: a fields file is read only when it is a regular file of at most
// 64 KiB: a device is refused at once, as is a 50 MB file (FIFOs:
// hostile_unix_test.go).
func TestFieldsFileRefused(t *testing.T) {
	big := filepath.Join(t.TempDir(), "big.toml")
	if err := os.WriteFile(big, bytes.Repeat([]byte("# a comment\n"), 50_000_000/12), 0o644); err != nil {
		t.Fatal(err)
	}
	cases := map[string]string{big: "lbanalyze: --fields-file: " + big + ": larger than 64 KiB, which no field map is: not read\n"}
	for _, dev := range []string{"/dev/zero", "/dev/urandom"} {
		if _, err := os.Stat(dev); err == nil {
			cases[dev] = "lbanalyze: --fields-file: " + dev + ": not a regular file (a device): give the fields file itself\n"
		}
	}
	for path, want := range cases {
		code, _, stderr := runCLI(nil, "episode", "--fields-file", path, "../../testdata/steps/harness.jsonl")
		if code != 2 || stderr != want+usageHint {
			t.Errorf("%s: exit %d, stderr %q", path, code, stderr)
		}
	}
}

// Item 9: a snapshot entry that cannot be used is skipped by itself, named
// by its line and place: a string turn in entry 4 and a fractional score in
// entry 60 of ep96's 110 leave 108 turns read, those two made up.
func TestSnapshotEntriesSkippedOneByOne(t *testing.T) {
	dir, _, _ := realEp96(t)
	data, err := os.ReadFile(filepath.Join(dir, "ep96_t111_evaluate_action.json"))
	if err != nil {
		t.Fatal(err)
	}
	var doc map[string]any
	if err := json.Unmarshal(data, &doc); err != nil {
		t.Fatal(err)
	}
	hist := doc["state"].(map[string]any)["action_history"].([]any)
	hist[4].(map[string]any)["turn"] = "five"
	hist[60].(map[string]any)["score_after"] = 50.5
	out, _ := json.MarshalIndent(doc, "", "  ")
	snap := filepath.Join(t.TempDir(), "ep96_t111_evaluate_action.json")
	if err := os.WriteFile(snap, out, 0o644); err != nil {
		t.Fatal(err)
	}
	lineOf := func(entry int) int { // the line its entry opens on, by the same indentation
		n, line := -1, 0
		for i, l := range strings.Split(string(out), "\n") {
			if l == "      {" {
				n++
			}
			if n == entry {
				line = i + 1
				break
			}
		}
		return line
	}
	code, rows, stderr := outcomes(t, "--policy", "zorkburr", snap)
	want := fmt.Sprintf("lbanalyze: SNAP:%d: state.action_history.4.turn: string, not a whole number: entry skipped\n"+
		"lbanalyze: SNAP:%d: state.action_history.60.score_after: number 50.5, not a whole number: entry skipped\n"+
		"lbanalyze: SNAP: 2 lines skipped in ep96; the rest was analysed\n", lineOf(4), lineOf(60))
	if got := strings.ReplaceAll(stderr, snap, "SNAP"); code != 0 || got != want || len(rows) != 1 || rows[0].turns != 110 || rows[0].stop != 60 {
		t.Errorf("exit %d, rows %+v, stderr:\n%s\nwant:\n%s", code, rows, got, want)
	}
}

// Item 11: the facts a header shows from a log — a Burr application's
// partition key and directory name, ZorkGPT's unknown end reason — are
// escaped like every other text of a log: no line forged in a table or in
// stderr, no raw HTML nor live image in markdown.
func TestHeaderFactsEscaped(t *testing.T) {
	_, _, burr := realEp96(t)
	const evil = "x\nlbanalyze: forged <b>bold</b> ![img](http://evil.example/x.png)"
	app := filepath.Join(t.TempDir(), "app\nlbanalyze: forged <i>dir<i> ![d](x.png)")
	var lines []string
	for _, l := range burr {
		lines = append(lines, strings.ReplaceAll(l, `"episode_id":"ep96"`, `"episode_id":""`))
	}
	writeLines(t, filepath.Join(app, "log.jsonl"), lines)
	key, _ := json.Marshal(evil)
	writeLines(t, filepath.Join(app, "metadata.json"), []string{`{"type": "application_metadata", "partition_key": ` + string(key) + `}`})
	data, err := os.ReadFile("../../testdata/episodes/2025-10-18T17-19-41/episode_log.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	reason := regexp.MustCompile(`("event_type": "episode_completed".*"reason": )"[a-z_]+"`)
	zork := filepath.Join(t.TempDir(), "episode_log.jsonl")
	if err := os.WriteFile(zork, reason.ReplaceAll(data, []byte(`$1`+strings.ReplaceAll(string(key), "$", "$$"))), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, format := range []string{"table", "markdown"} {
		for _, log := range []string{app, zork} {
			code, stdout, stderr := runCLI(nil, "episode", "--format", format, "--policy", "score", log)
			for _, out := range []string{stdout, stderr} {
				for _, l := range strings.Split(out, "\n") {
					l = codeSpan.ReplaceAllString(l, "`…`") // shown as it is, never as markup
					if strings.HasPrefix(l, "lbanalyze: forged") || format == "markdown" && out == stdout &&
						(strings.Contains(l, "<b>") || strings.Contains(l, "<i>") || strings.Contains(l, "![img](") || strings.Contains(l, "![d](")) {
						t.Errorf("%s of %s: the log's text reaches the output raw: %q", format, filepath.Base(log), l)
					}
				}
			}
			if code != 0 || !strings.Contains(stdout, `forged`) {
				t.Errorf("%s of %s: exit %d, the facts not shown:\n%s", format, filepath.Base(log), code, stdout)
			}
		}
	}
	// An unknown key of --config, on one line.
	cfg := writeLines(t, filepath.Join(t.TempDir(), "pyproject.toml"), []string{"[tool.zorkgpt.loop_break]", `"k\nlbanalyze: forged" = 1`})
	_, _, stderr := runCLI(nil, "episode", "--config", cfg, "--format", "csv", "testdata/logs/premature.jsonl")
	if want := `[tool.zorkgpt.loop_break] k\nlbanalyze: forged: unknown key, ignored`; !strings.Contains(stderr, want) || strings.Contains(stderr, "\nlbanalyze: forged") {
		t.Errorf("stderr:\n%s", stderr)
	}
}

var codeSpan = regexp.MustCompile("`[^`]*`")

// Item 12, the smaller ones, as a user meets them.
func TestReadersSmallerCases(t *testing.T) {
	dir, _, burr := realEp96(t)
	tmp := t.TempDir()
	metadata, _ := filepath.Glob(filepath.Join(dir, "ep96/burr/default/*/metadata.json"))
	app := func(name string, files map[string][]byte) string {
		d := filepath.Join(tmp, name)
		for f, data := range files {
			if err := os.MkdirAll(d, 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(filepath.Join(d, f), data, 0o644); err != nil {
				t.Fatal(err)
			}
		}
		return d
	}
	md, err := os.ReadFile(metadata[0])
	if err != nil {
		t.Fatal(err)
	}
	plain := []byte(strings.Join(burr, "\n") + "\n")
	// A bad line of an application's log is named in its log.jsonl.
	bad := append([]string{}, burr...)
	bad[2] = "{not json"
	d := app("bad", map[string][]byte{"metadata.json": md, "log.jsonl": []byte(strings.Join(bad, "\n") + "\n")})
	if _, _, stderr := runCLI(nil, "episode", "--format", "csv", "--policy", "zorkburr", d); !strings.HasPrefix(stderr, "lbanalyze: "+filepath.Join(d, "log.jsonl")+":3: column 2: ") {
		t.Errorf("a bad line of an application's log: %s", stderr)
	}
	// log.jsonl.zst is an application's log.
	var zst bytes.Buffer
	zw, _ := zstd.NewWriter(&zst)
	zw.Write(plain)
	zw.Close()
	d = app("zst", map[string][]byte{"metadata.json": md, "log.jsonl.zst": zst.Bytes()})
	if code, rows, stderr := outcomes(t, "--policy", "zorkburr", d); code != 0 || stderr != "" || len(rows) != 1 || rows[0] != ep96 {
		t.Errorf("log.jsonl.zst: exit %d, rows %+v, stderr %q", code, rows, stderr)
	}
	// log.jsonl beside a log.jsonl.gz that differs is said; beside a copy, not.
	gzOf := func(b []byte) []byte {
		var gz bytes.Buffer
		w := gzip.NewWriter(&gz)
		w.Write(b)
		w.Close()
		return gz.Bytes()
	}
	d = app("both", map[string][]byte{"metadata.json": md, "log.jsonl": plain, "log.jsonl.gz": gzOf(plain[:len(plain)/2])})
	if code, rows, stderr := outcomes(t, "--policy", "zorkburr", d); code != 0 || len(rows) != 1 || rows[0] != ep96 ||
		stderr != "lbanalyze: "+d+": log.jsonl.gz is passed over: log.jsonl is read, and the two may differ (their lengths do not match)\n" {
		t.Errorf("log.jsonl and another log.jsonl.gz: exit %d, rows %+v, stderr %q", code, rows, stderr)
	}
	d = app("copy", map[string][]byte{"metadata.json": md, "log.jsonl": plain, "log.jsonl.gz": gzOf(plain)})
	if code, _, stderr := outcomes(t, "--policy", "zorkburr", d); code != 0 || stderr != "" {
		t.Errorf("log.jsonl and its copy log.jsonl.gz: exit %d, stderr %q", code, stderr)
	}
	// A score beyond ±2^53 is refused in a Burr log and a snapshot, as
	// everywhere.
	huge := append([]string{}, burr...)
	for i, l := range huge {
		if strings.Contains(l, `"action":"execute_action","result"`) && strings.Contains(l, `"turn_count":110,`) {
			huge[i] = regexp.MustCompile(`"score":54,`).ReplaceAllString(l, `"score":9223372036854775807,`)
		}
	}
	if code, rows, stderr := outcomes(t, "--policy", "zorkburr", writeLines(t, filepath.Join(tmp, "huge", "log.jsonl"), huge)); code != 0 ||
		len(rows) != 1 || rows[0].turns != 109 || !strings.Contains(stderr, "score 9223372036854775807 is absurd (beyond ±2^53): execute_action skipped") {
		t.Errorf("a Burr score past 2^53: exit %d, rows %+v, stderr %q", code, rows, stderr)
	}
	snap, err := os.ReadFile(filepath.Join(dir, "ep96_t111_evaluate_action.json"))
	if err != nil {
		t.Fatal(err)
	}
	big := bytes.Replace(snap, []byte(`"score_after": 54`), []byte(`"score_after": 9223372036854775807`), 1)
	path := filepath.Join(tmp, "ep96_t111_evaluate_action.json")
	if err := os.WriteFile(path, big, 0o644); err != nil || bytes.Equal(big, snap) {
		t.Fatal("no score_after 54 in the snapshot", err)
	}
	if code, rows, stderr := outcomes(t, "--policy", "zorkburr", path); code != 0 || len(rows) != 1 ||
		!strings.Contains(stderr, "score_after 9223372036854775807 is absurd (beyond ±2^53): entry skipped") {
		t.Errorf("a snapshot score past 2^53: exit %d, rows %+v, stderr %q", code, rows, stderr)
	}
	// --config of ZorkGPT2's table only, on ZorkGPT's logs: said.
	cfg := writeLines(t, filepath.Join(tmp, "pyproject.toml"), []string{"[tool.zorkburr]", "max_turns_stuck = 30"})
	for _, cmd := range []string{"episode", "batch", "sweep"} {
		_, _, stderr := runCLI(nil, cmd, "--config", cfg, "--format", "csv", "testdata/logs/premature.jsonl")
		if !strings.Contains(stderr, "warning: --config: "+cfg+" holds ZorkGPT2's [tool.zorkburr] and no [tool.zorkgpt.loop_break], which ZorkGPT reads: its zorkburr 30/10 is replayed on ZorkGPT's logs as it is given") {
			t.Errorf("%s --config of the other system: stderr %q", cmd, stderr)
		}
	}
}

// Item 6: a Burr log compressed as zstd -3 compresses it (each line repeats
// the whole state: 260 turns, 106 MB, about 1,000:1) is read whole by episode and
// batch, without a word: the numbers of the plain log, and batch neither
// leaves the file out nor counts it twice.
func TestBurrZstdIsNoBomb(t *testing.T) {
	if testing.Short() {
		t.Skip("106 MB of Burr log: not in -short")
	}
	var plain, zst bytes.Buffer
	if err := benchdata.BurrLog(&plain, 260); err != nil {
		t.Fatal(err)
	}
	zw, _ := zstd.NewWriter(&zst, zstd.WithEncoderLevel(zstd.SpeedDefault)) // zstd -3
	zw.Write(plain.Bytes())
	zw.Close()
	if ratio := plain.Len() / zst.Len(); plain.Len() < 64<<20 || ratio < 200 {
		t.Fatalf("%d bytes compressed %d:1: not past the guard on the ratio alone (64 MiB at 200:1)", plain.Len(), ratio)
	}
	dir := t.TempDir()
	for name, log := range map[string][]byte{"log.jsonl": plain.Bytes(), "log.jsonl.zst": zst.Bytes()} {
		app := filepath.Join(dir, name, "app")
		if err := os.MkdirAll(app, 0o755); err != nil {
			t.Fatal(err)
		}
		os.WriteFile(filepath.Join(app, "metadata.json"), []byte(benchdata.BurrMetadata), 0o644)
		if err := os.WriteFile(filepath.Join(app, name), log, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	plainApp, zstApp := filepath.Join(dir, "log.jsonl", "app"), filepath.Join(dir, "log.jsonl.zst", "app")
	_, want, _ := outcomes(t, "--policy", "zorkburr", plainApp)
	code, got, stderr := outcomes(t, "--policy", "zorkburr", zstApp)
	if len(want) != 1 || want[0].turns != 260 || code != 0 || stderr != "" || len(got) != 1 || got[0] != want[0] {
		t.Errorf("episode: exit %d, rows %+v, stderr %q; want the plain log's %+v", code, got, stderr, want)
	}
	code, stdout, stderr := runCLI(nil, "batch", zstApp)
	if code != 0 || stderr != "" || !strings.HasPrefix(stdout, "1 episode analysed") || strings.Contains(stdout, "left out") {
		t.Errorf("batch: exit %d, stderr %q, stdout:\n%.400s", code, stderr, stdout)
	}
}

// Item 10: text an episode keeps is bounded per turn, in every reader: a run
// of 150 turns whose every action and room is a distinct text of 30-60 KB
// (13 MB of them) is read without a word, each text kept in at most
// source.MaxText bytes, distinct ones still distinct, and what the episode
// holds once read no more than a few MiB (it held every text whole: 7-21
// MiB here, 232-258 MiB of peak RSS for 3,000 turns).
func TestLongTextBounded(t *testing.T) {
	const n = 150
	dir := t.TempDir()
	rng := rand.New(rand.NewPCG(27, 10))
	base := make([]byte, 1<<20)
	for i := range base {
		base[i] = "abcdefghijklmnopqrstuvwxyz "[rng.IntN(27)]
	}
	text := func(kind string, i int) string { // distinct by its number, 30-60 KB
		size := 30_000 + rng.IntN(30_001)
		off := rng.IntN(len(base) - size)
		return fmt.Sprintf("%s %d %s", kind, i, base[off:off+size])
	}
	q := func(s string) string { b, _ := json.Marshal(s); return string(b) }
	score := func(i int) int { return i / 50 * 5 }
	write := func(path string, lines func(i int) string, head, tail []string) string {
		var l []string
		l = append(l, head...)
		for i := 1; i <= n; i++ {
			l = append(l, lines(i))
		}
		return writeLines(t, filepath.Join(dir, path), append(l, tail...))
	}
	const ep = "2025-11-12T10:00:00"
	seq := 0
	burrStep := func(action, state string) string {
		s := fmt.Sprintf(`{"type":"begin_entry","start_time":"2026-04-09T13:45:17","action":%q,"inputs":{},"sequence_id":%d}`+"\n"+
			`{"type":"end_entry","end_time":"2026-04-09T13:45:17","action":%q,"result":{},"exception":null,"state":{%s},"sequence_id":%d}`,
			action, seq, action, state, seq)
		seq++
		return s
	}
	writeLines(t, filepath.Join(dir, "burr", "app", "metadata.json"), []string{benchdata.BurrMetadata})
	var snapshot []string
	for i := 1; i <= n; i++ {
		sep := ","
		if i == n {
			sep = ""
		}
		snapshot = append(snapshot, fmt.Sprintf(`{"turn": %d, "action": %s, "response": "ok", "location_id": %d, "location_name": %s, "score_after": %d, "critic_score": 0.7, "rejection_count": 0}%s`,
			i, q(text("action", i)), 1000+i, q(text("room", i)), score(i), sep))
	}
	for _, c := range []struct {
		name  string
		args  []string
		rooms bool
	}{
		{"zorkgpt", []string{write("episode_log.jsonl", func(i int) string {
			return fmt.Sprintf(`{"timestamp": %q, "level": "INFO", "message": "Turn %d completed", "event_type": "turn_completed", "episode_id": %q, "turn": %d, "action": %s, "score": %d, "location": %s}`,
				ep, i, ep, i, q(text("action", i)), score(i), q(text("room", i)))
		}, []string{fmt.Sprintf(`{"timestamp": %q, "level": "INFO", "message": "m", "event_type": "orchestrator_init", "episode_id": %q, "max_turns": %d}`, ep, ep, n),
			fmt.Sprintf(`{"timestamp": %q, "level": "INFO", "message": "m", "event_type": "episode_initialized", "episode_id": %q, "turn": 0, "max_turns": %d}`, ep, ep, n)}, nil)}, true},
		{"zorkgpt2-runlog", []string{write("run_log_ep1.txt", func(i int) string {
			return fmt.Sprintf("TURN %d | loc=%s | score=%d/350 | critic=0.70 | rejections=0 | action=%s", i, strings.ReplaceAll(text("room", i), " ", "_"), score(i), text("action", i))
		}, nil, []string{fmt.Sprintf("EPISODE_END | turns=%d | score=%d/350 | locations=%d | objectives_found=0 | reason=max_turns", n, score(n), n)})}, true},
		{"zorkgpt2-burr", []string{filepath.Dir(write("burr/app/log.jsonl", func(i int) string {
			before := fmt.Sprintf(`"episode_id":"ep1","turn_count":%d,"score":%d,"location_id":180,"location_name":"West House","critic_score":0.7,"rejection_count":0,"game_over":false,"action_history":[]`, i-1, score(i-1))
			after := fmt.Sprintf(`"episode_id":"ep1","turn_count":%d,"score":%d,"pre_score":%d,"location_id":%d,"location_name":%s,"action_to_take":%s,"critic_score":0.7,"rejection_count":0,"game_over":false,"action_history":[]`,
				i, score(i), score(i-1), 1000+i, q(text("room", i)), q(text("action", i)))
			return strings.Join([]string{burrStep("assemble_context", before), burrStep("generate_action", before), burrStep("evaluate_action", before), burrStep("execute_action", after)}, "\n")
		}, nil, nil))}, true},
		{"zorkgpt2-snapshot", []string{writeLines(t, filepath.Join(dir, "ep1_t151_evaluate_action.json"), append(append(
			[]string{`{"meta": {"episode_id": "ep1", "turn": 151}, "action_type": "evaluate_action", "state": {"action_history": [`}, snapshot...), `], "location_name": "x"}}`))}, true},
		{"tales", []string{write(fmt.Sprintf("tales/run/JerichoEnvZork1/a0_s1_steps%d.jsonl", n), func(i int) string {
			return fmt.Sprintf(`{"Step": %d, "Score": %d, "Max Score": 350, "Normalized Score": 0.0, "Moves": %d, "Observation": %s, "Action": %s, "Feedback": "f", "Prompt": "p", "Response": "r", "Token Usage": 10}`,
				i, score(i), i, q(text("room", i)), q(text("action", i)))
		}, nil, nil)}, false},
		{"jsonl", []string{"--fields", "turn=t,score=s,action=a,room=r", write("steps.jsonl", func(i int) string {
			return fmt.Sprintf(`{"t": %d, "s": %d, "a": %s, "r": %s}`, i, score(i), q(text("action", i)), q(text("room", i)))
		}, nil, nil)}, true},
	} {
		t.Run(c.name, func(t *testing.T) {
			code, rows, stderr := outcomes(t, append([]string{"--policy", "score"}, c.args...)...)
			if code != 0 || stderr != "" || len(rows) != 1 || rows[0].turns != n || rows[0].final != score(n) {
				t.Fatalf("exit %d, rows %+v, stderr %q", code, rows, stderr)
			}
			srcs := corpus.Registry()
			path := c.args[len(c.args)-1]
			if len(c.args) > 1 {
				fields, err := steps.ParseFields(c.args[1])
				if err != nil {
					t.Fatal(err)
				}
				srcs.Files = append([]source.Source{steps.Source{Fields: fields}}, srcs.Files...)
			}
			var before, after runtime.MemStats
			runtime.GC()
			runtime.ReadMemStats(&before)
			lg := corpus.Read([]string{path}, corpus.Options{Jobs: 1, Sources: srcs})
			runtime.GC()
			runtime.ReadMemStats(&after)
			held := int64(after.HeapAlloc) - int64(before.HeapAlloc)
			if len(lg.Episodes) != 1 || lg.Episodes[0].Format != c.name {
				t.Fatalf("%d episodes", len(lg.Episodes))
			}
			actions, rooms := map[string]bool{}, map[string]bool{}
			for _, tu := range lg.Episodes[0].Turns {
				if len(tu.Action) > source.MaxText || len(tu.Location) > source.MaxText {
					t.Fatalf("a turn keeps %d bytes of action, %d of room", len(tu.Action), len(tu.Location))
				}
				actions[tu.Action], rooms[tu.Location] = true, true
			}
			if len(actions) != n || c.rooms && len(rooms) != n {
				t.Errorf("%d distinct actions, %d rooms kept of %d each", len(actions), len(rooms), n)
			}
			if held > 4<<20 {
				t.Errorf("the episode holds %s once read", jsonl.Size(held))
			}
			runtime.KeepAlive(lg)
		})
	}
}

// Item 12, the smaller cases of field maps and TALES budgets, as a user
// meets them: a key with dots in it named in a field map, and said when a
// log has one; a nested object repeated read as Python's json.loads reads
// it; a rollout's name with a budget no run has.
func TestFieldMapAndBudgetCases(t *testing.T) {
	dir := t.TempDir()
	dotted := writeLines(t, filepath.Join(dir, "dotted.jsonl"), []string{`{"step": 1, "info.score": 3}`, `{"step": 2, "info.score": 5}`})
	mixed := writeLines(t, filepath.Join(dir, "mixed.jsonl"), []string{`{"step": 1, "info": {"score": 3}}`, `{"step": 2, "info.score": 5}`})
	fieldsFile := writeLines(t, filepath.Join(dir, "fields.toml"), []string{`turn = "step"`, `score = ["info.score"]`})
	const hint = `key "info.score" has dots in it, but info.score names a member "score" nested in "info": name that key info\.score (in a fields file, ["info.score"])`
	for _, c := range []struct {
		name     string
		args     []string
		code     int
		timeline string // the episode's scores turn by turn
		stderr   string
	}{
		{"a dotted key named as a nested one", []string{"--fields", "turn=step,score=info.score", dotted}, 1, "",
			"lbanalyze: " + dotted + `: does not look like a log lbanalyze reads (jsonl, csv, zorkgpt, zorkgpt2-burr, zorkgpt2-runlog, zorkgpt2-snapshot, tales, balrog, tau2, terminal-bench, atif, mini-swe-agent): JSON Lines whose first object has the keys "step", "info.score"; its first object's ` + hint + "\n" +
				"lbanalyze: no episode could be read\n"},
		{"a dotted key escaped", []string{"--fields", `turn=step,score=info\.score`, dotted}, 0, "3 5", ""},
		{"a dotted key as a list of keys", []string{"--fields-file", fieldsFile, dotted}, 0, "3 5", ""},
		{"a dotted key on a later line", []string{"--fields", "turn=step,score=info.score", mixed}, 0, "3",
			"lbanalyze: " + mixed + `:2: no "info.score" (the score): this step is skipped; its ` + hint + "\n" +
				"lbanalyze: " + mixed + ": 1 line skipped in mixed; the rest was analysed\n"},
		// json.loads keeps the last "info" whole: 2; none in the second
		// line's last (its first held 3); 5.
		{"a nested object repeated", []string{"--fields", "turn=step,score=info.score", writeLines(t, filepath.Join(dir, "repeated.jsonl"), []string{
			`{"step": 1, "info": {"score": 1}, "info": {"score": 2}}`, `{"step": 2, "info": {"score": 3}, "info": {"x": 4}}`, `{"step": 3, "info": {"score": 5}}`})}, 0, "2 2 5",
			"lbanalyze: " + filepath.Join(dir, "repeated.jsonl") + `:2: no "info.score" (the score): this step is skipped` + "\n" +
				"lbanalyze: " + filepath.Join(dir, "repeated.jsonl") + ": 1 line skipped in repeated; the rest was analysed\n"},
	} {
		t.Run(c.name, func(t *testing.T) {
			code, stdout, stderr := runCLI(nil, append([]string{"episode", "--format", "json", "--policy", "score"}, c.args...)...)
			var eps []struct{ Timeline []int }
			json.Unmarshal([]byte(stdout), &eps)
			var got []string
			for _, ep := range eps {
				got = append(got, strings.Trim(fmt.Sprint(ep.Timeline), "[]"))
			}
			if code != c.code || stderr != c.stderr || strings.Join(got, "|") != c.timeline {
				t.Errorf("exit %d, scores %q, stderr:\n%s\nwant exit %d, scores %q, stderr:\n%s", code, got, stderr, c.code, c.timeline, c.stderr)
			}
		})
	}

	// A TALES rollout named with a budget no run has: said, the budget
	// taken as unknown (the run as having spent it), not as 0 steps nor the
	// number an overflow wraps to.
	var rollout []string
	for i := 1; i <= 30; i++ {
		rollout = append(rollout, fmt.Sprintf(`{"Step":%d,"Score":%d,"Max Score":350,"Normalized Score":0.0,"Moves":%d,"Observation":"o","Action":"north","Feedback":"f","Prompt":"p","Response":"r","Token Usage":10}`, i, i/7, i))
	}
	for _, c := range []struct{ steps, says string }{
		{"0", "0"},
		{"99999999999999999999999", "99999999999999999999… (23 digits)"},
		{"18446744073709551646", "18446744073709551646"}, // 2^64 + 30
	} {
		log := writeLines(t, filepath.Join(dir, "tales_LLMAgent_m", "JerichoEnvZork1", "a0_s1_steps"+c.steps+".jsonl"), rollout)
		_, rows, _ := outcomes(t, "--policy", "score", log)
		code, stdout, stderr := runCLI(nil, "episode", "--policy", "score", log)
		want := "\nnote: the file's name gives a step budget of " + c.says + ", which no run has (1 to 200000): the run is taken to have spent it, though a run that failed or was stopped writes its rollout too\n"
		if code != 0 || stderr != "" || !strings.Contains(stdout, want) || len(rows) != 1 || rows[0].turns != 30 || rows[0].end != "max_turns" {
			t.Errorf("_steps%s: exit %d, rows %+v, stderr %q, stdout:\n%s", c.steps, code, rows, stderr, stdout)
		}
	}
}
