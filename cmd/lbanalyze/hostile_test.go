package main

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/lbanalyze/lbanalyze/internal/testlogs"
)

// Hostile inputs beside good ones, each case run as a user would: the exit
// code, the message, and the good run's numbers.

// runCLI runs the command line in-process, as TestCLI does.
func runCLI(stdin []byte, args ...string) (code int, stdout, stderr string) {
	var out, errb bytes.Buffer
	code = run(args, bytes.NewReader(stdin), &out, &errb)
	return code, out.String(), errb.String()
}

const usageHint = "Run 'lbanalyze --help' for usage.\n"

// Configuration files that would crash the parser, block or read without end
// are refused, before any log is read, with the reason.
func TestHostileConfig(t *testing.T) {
	dir := t.TempDir()
	write := func(name, content string) string { return testlogs.WriteFile(t, dir, name, content) }
	const table = "[tool.zorkgpt.loop_break]\n"
	var unknown strings.Builder
	unknown.WriteString(table)
	for i := range 25 {
		fmt.Fprintf(&unknown, "k%02d = %d\n", i, i)
	}
	for _, c := range []struct {
		name, path string
		code       int
		stderr     string
	}{
		// 2.5 million brackets: deep enough to overflow a recursive parser's stack.
		{"deep brackets, large", write("d.toml", table+"x = "+strings.Repeat("[", 2_500_000)+"\n"), 2,
			"lbanalyze: --config: DIR/d.toml: larger than 128 KiB, which no pyproject.toml is: not read\n" + usageHint},
		// 4 MB of nested inline tables: gigabytes for a parser to hold.
		{"nested inline tables, large", write("i.toml", table+"x = "+strings.Repeat("{a = ", 800_000)+"1"+strings.Repeat("}", 800_000)+"\n"), 2,
			"lbanalyze: --config: DIR/i.toml: larger than 128 KiB, which no pyproject.toml is: not read\n" + usageHint},
		// Within the size, nesting is bounded: the table's 3 parts, the key,
		// then 12 brackets make 16; the 13th is too deep.
		{"deep brackets, small", write("b.toml", "# a comment [[[[\n"+table+"x = \"[[[[\" # [[[[\ny = "+strings.Repeat("[", 13)+"\n"), 2,
			"lbanalyze: --config: DIR/b.toml:4: nested more than 16 deep (tables, dotted keys, arrays and inline tables): not read\n" + usageHint},
		{"deep dotted key", write("k.toml", strings.Repeat("a.", 16)+"a = 1\n"), 2,
			"lbanalyze: --config: DIR/k.toml:1: nested more than 16 deep (tables, dotted keys, arrays and inline tables): not read\n" + usageHint},
		{"deep table header", write("h.toml", "[project]\n["+strings.Repeat("a.", 16)+"a]\n"), 2,
			"lbanalyze: --config: DIR/h.toml:2: nested more than 16 deep (tables, dotted keys, arrays and inline tables): not read\n" + usageHint},
		{"a directory", dir, 2,
			"lbanalyze: --config: DIR: not a regular file (a directory): give the pyproject.toml itself\n" + usageHint},
		{"missing", filepath.Join(dir, "missing.toml"), 2,
			"lbanalyze: --config: DIR/missing.toml: no such file or directory\n" + usageHint},
		// 25 unknown keys: 10 named, in order, the rest counted.
		{"unknown keys", write("u.toml", unknown.String()), 0, unknownKeys(10, 15)},
	} {
		t.Run(c.name, func(t *testing.T) {
			code, _, stderr := runCLI(nil, "episode", "--config", c.path, "--format", "csv", "testdata/logs/premature.jsonl")
			if stderr = strings.ReplaceAll(stderr, dir, "DIR"); code != c.code || stderr != c.stderr {
				t.Errorf("exit %d, stderr:\n%s\nwant exit %d, stderr:\n%s", code, stderr, c.code, c.stderr)
			}
		})
	}
	if _, err := os.Stat("/dev/zero"); err == nil {
		code, _, stderr := runCLI(nil, "episode", "--config", "/dev/zero", "testdata/logs/premature.jsonl")
		if want := "lbanalyze: --config: /dev/zero: not a regular file (a device): give the pyproject.toml itself\n" + usageHint; code != 2 || stderr != want {
			t.Errorf("/dev/zero: exit %d, stderr %q", code, stderr)
		}
	}
}

// unknownKeys is the warnings of u.toml: its first keys, each on its line
// (the table is line 1, k00 line 2), then the count of the rest.
func unknownKeys(named, more int) string {
	var b strings.Builder
	for i := range named {
		fmt.Fprintf(&b, "lbanalyze: warning: DIR/u.toml:%d: [tool.zorkgpt.loop_break] k%02d: unknown key, ignored (ZorkGPT ignores it too)\n", i+2, i)
	}
	fmt.Fprintf(&b, "lbanalyze: warning: DIR/u.toml: %d more unknown keys in [tool.zorkgpt.loop_break], ignored (the first %d are named above)\n", more, named)
	return b.String()
}

// Ranges near the limits of an int expand to what they hold, or are refused
// in words, on every list flag, without looping.
func TestRangesNearIntLimits(t *testing.T) {
	const top, below = "9223372036854775807", "9223372036854775806"
	for _, flag := range []string{"max-turns-stuck", "check-interval", "warning-threshold", "objective-patience", "room-patience", "min-turns"} {
		code, stdout, stderr := runCLI(nil, "episode", "--policy", "patience", "--"+flag, below+":"+top, "testdata/logs/premature.jsonl")
		// A row each, its label naming the value (the table's policy column).
		if code != 0 || strings.Count(stdout, below) < 1 || strings.Count(stdout, top) < 1 {
			t.Errorf("--%s %s:%s: exit %d, the two values not both shown\n%s%s", flag, below, top, code, stdout, stderr)
		}
	}
	for _, c := range []struct {
		value  string
		code   int
		stderr string // in stderr
		rows   []string
	}{
		{"9223372036854775800:9223372036854775807:3", 0, "", []string{"9223372036854775800", "9223372036854775803", "9223372036854775806"}},
		{"-9223372036854775808:9223372036854775807", 2, `"-9223372036854775808:9223372036854775807": more than 100000 values`, nil},
		// 3 values: the bottom, -1 and the top but one; the first is refused.
		{"-9223372036854775808:9223372036854775807:9223372036854775807", 2, "max_turns_stuck must be at least 1, not -9223372036854775808", nil},
		{"1:9223372036854775807:9223372036854775807", 0, "", []string{"1"}},
	} {
		code, stdout, stderr := runCLI(nil, "episode", "--policy", "score", "--format", "csv", "--max-turns-stuck", c.value, "testdata/logs/premature.jsonl")
		rows := csvSetting(stdout, "max_turns_stuck")
		if code != c.code || !strings.Contains(stderr, c.stderr) || !slices.Equal(rows, c.rows) {
			t.Errorf("%s: exit %d, rows %v, stderr %q; want %d, %v, %q", c.value, code, rows, stderr, c.code, c.rows, c.stderr)
		}
	}
}

// csvColumn is the column of CSV output (without quoted commas) named in its
// header, nil when there is no row.
func csvColumn(out, name string) []string {
	lines := strings.Split(strings.TrimSpace(out), "\n")
	col := slices.Index(strings.Split(lines[0], ","), name)
	var vals []string
	for _, l := range lines[1:] {
		if f := strings.Split(l, ","); col >= 0 && col < len(f) {
			vals = append(vals, f[col])
		}
	}
	return vals
}

// csvSetting is the column of out's settings cells (key=value:…) giving key,
// "" where a row's policy has no such setting.
func csvSetting(out, key string) []string {
	var vals []string
	for _, cell := range csvColumn(out, "settings") {
		v := ""
		for _, kv := range strings.Split(cell, ":") {
			if k, x, _ := strings.Cut(kv, "="); k == key {
				v = x
			}
		}
		vals = append(vals, v)
	}
	return vals
}

// Flags that would make no sense, or no number, are refused in words; a
// grid too large is refused naming the flags that make it.
func TestRefusedFlags(t *testing.T) {
	log := "testdata/logs/premature.jsonl"
	for _, c := range []struct {
		args   []string
		stderr string
	}{
		{[]string{"sweep", "--max-false-rate", "NaN", log}, "lbanalyze: --max-false-rate is a percentage, from 0 to 100, not NaN\n"},
		{[]string{"sweep", "--max-censored", "nan", log}, "lbanalyze: --max-censored is a percentage, from 0 to 100, not NaN\n"},
		{[]string{"sweep", "--max-false-rate", "+Inf", log}, "lbanalyze: --max-false-rate is a percentage, from 0 to 100, not +Inf\n"},
		{[]string{"episode", "--cost-per-call", "1e308", log}, "lbanalyze: --cost-per-call must be a number of dollars from 0 to 1000, not 1e+308\n"},
		{[]string{"batch", "--cost-per-call", "NaN", log}, "lbanalyze: --cost-per-call must be a number of dollars from 0 to 1000, not NaN\n"},
		{[]string{"episode", "--cost-per-call", "-Inf", log}, "lbanalyze: --cost-per-call must be a number of dollars from 0 to 1000, not -Inf\n"},
		{[]string{"episode", "--policy", "score", "--max-turns-stuck", "1:1001", "--check-interval", "1:1000", log},
			"lbanalyze: the grid has more than 1000000 configs, the product of the values of --policy (1) × --max-turns-stuck (1001) × --check-interval (1000): narrow a range or raise its step\n"},
		{[]string{"sweep", "--policy", "patience", "--max-turns-stuck", "1:100", "--room-patience", "1:100", "--min-turns", "0:100", log},
			"lbanalyze: the grid has more than 1000000 configs, the product of the values of --policy (1) × --max-turns-stuck (100) × --check-interval (3) × --room-patience (100) × --min-turns (101): narrow a range or raise its step\n"},
	} {
		code, stdout, stderr := runCLI(nil, c.args...)
		if code != 2 || stdout != "" || stderr != c.stderr+usageHint {
			t.Errorf("%v: exit %d, stderr %q, want 2 and %q", c.args, code, stderr, c.stderr)
		}
	}
}

// The largest cost a call may have keeps every format's numbers finite.
func TestLargestCostPerCall(t *testing.T) {
	code, stdout, stderr := runCLI(nil, "batch", "--format", "json", "--calls-per-turn", "1000", "--cost-per-call", "1000", "testdata/logs/premature.jsonl")
	if code != 0 || strings.Contains(stdout, "Inf") || strings.Contains(stdout, "NaN") {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	// On premature.jsonl score 40/10 stops at 40 of 100 turns (the objective
	// at 30 keeps score-or-objective going): 60 turns × 1000 calls × $1000.
	if !strings.Contains(stdout, "60000000") {
		t.Errorf("no cost saved of $60,000,000 in\n%s", stdout)
	}
}

// A million configs over an episode: settings ZorkGPT would refuse are
// named ten at a time, the rest counted, not a line each.
func TestRefusalsCounted(t *testing.T) {
	// W 1..30 × I 1..30 at T 20: ZorkGPT refuses W ≤ 20 (T < W fails: 20 × 30
	// configs) and, above, I > W (W 21: 9 intervals, … W 29: 1; 45): 645.
	code, _, stderr := runCLI(nil, "episode", "--policy", "score", "--format", "csv", "--max-turns-stuck", "1:30", "--check-interval", "1:30", "testdata/logs/premature.jsonl")
	lines := strings.Split(strings.TrimSuffix(stderr, "\n"), "\n")
	if code != 0 || len(lines) != 11 {
		t.Fatalf("exit %d, %d lines:\n%s", code, len(lines), stderr)
	}
	if !strings.HasPrefix(lines[0], "lbanalyze: warning: 1/1 with stuck_warning_threshold 20: ZorkGPT would refuse") ||
		!strings.HasPrefix(lines[9], "lbanalyze: warning: 1/10 with stuck_warning_threshold 20: ZorkGPT would refuse") {
		t.Errorf("the first ten are not 1/1 … 1/10:\n%s", stderr)
	}
	if want := "lbanalyze: warning: ZorkGPT would refuse the settings of 635 more configs of the grid (the first 10 settings are named above); replayed anyway"; lines[10] != want {
		t.Errorf("got %q\nwant %q", lines[10], want)
	}
}

// A policy or a value given twice is replayed once, with a note.
func TestRepeatsReplayedOnce(t *testing.T) {
	code, stdout, stderr := runCLI(nil, "episode", "--format", "csv", "--policy", "score, score,score:40/10,window:30/5,window:30/5/20",
		"--max-turns-stuck", "40,40,40", "--check-interval", "10,5:10:5", "testdata/logs/premature.jsonl")
	want := "lbanalyze: note: --policy gives score more than once: each is replayed once\n" +
		"lbanalyze: note: --max-turns-stuck gives 40 more than once: each is replayed once\n" +
		"lbanalyze: note: --check-interval gives 10 more than once: each is replayed once\n" +
		"lbanalyze: note: --policy asks for score 40/10, window 30/5 more than once: each is replayed once\n"
	if code != 0 || stderr != want {
		t.Errorf("exit %d, stderr:\n%s\nwant:\n%s", code, stderr, want)
	}
	// score 40/10, score 40/5, window 30/5: a row each.
	var policies []string
	names, w, i := csvColumn(stdout, "policy"), csvSetting(stdout, "max_turns_stuck"), csvSetting(stdout, "check_interval")
	for k := range names {
		policies = append(policies, names[k]+" "+w[k]+"/"+i[k])
	}
	if got := strings.Join(policies, "; "); got != "score 40/10; score 40/5; window 30/5" {
		t.Errorf("rows %s", got)
	}
}

// --jobs beyond a few a core is bounded (4 readers a core, 1 replayer, as the
// docs promise): the same output, whatever it asks.
func TestJobsBounded(t *testing.T) {
	if got, want := workers(1_000_000), 4*runtime.GOMAXPROCS(0); got != want {
		t.Errorf("workers(1000000) = %d, want %d", got, want)
	}
	if workers(1) != 1 || replayers(1) != 1 || replayers(1_000_000) != runtime.GOMAXPROCS(0) {
		t.Errorf("workers(1) = %d, replayers(1) = %d, replayers(1000000) = %d", workers(1), replayers(1), replayers(1_000_000))
	}
	for _, cmd := range []string{"sweep", "batch"} {
		_, one, _ := runCLI(nil, cmd, "--format", "json", "--jobs", "1", "testdata/logs")
		code, many, stderr := runCLI(nil, cmd, "--format", "json", "--jobs", "1000000", "testdata/logs")
		if code != 0 || many != one {
			t.Errorf("%s --jobs 1000000: exit %d, another output: %s", cmd, code, stderr)
		}
	}
}

// allocatedBy is what f allocates on the heap, in bytes.
func allocatedBy(f func()) uint64 {
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	before := m.TotalAlloc
	f()
	runtime.ReadMemStats(&m)
	return m.TotalAlloc - before
}

// A header whose last name opens a quote that closes on line 2, then 4
// million commas, is refused by name, without holding a cell of them (held
// cell by cell, 16 million take 2 GB); beside it a good table is read, 3
// steps scoring 0, 1, 1.
func TestHeaderQuotedAcrossANewline(t *testing.T) {
	bad := writeLines(t, filepath.Join(t.TempDir(), "b.csv"), []string{`Step,Score,"X`, `"` + strings.Repeat(",", 4<<20), "0,1"})
	good := filepath.Join(filepath.Dir(bad), "good.csv")
	if err := os.WriteFile(good, []byte("Step,Score\n0,0\n1,1\n2,1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	var code int
	var rows []outcome
	var stderr string
	alloc := allocatedBy(func() { code, rows, stderr = outcomes(t, "--fields", "turn=Step,score=Score", bad, good) })
	want := "lbanalyze: " + bad + `: its header's last name, "\"X", opens a quote that its line does not close: a header quoted across a newline is not read (the header is the first line, its names each on it)` + "\n"
	if code != 0 || !strings.Contains(stderr, want) {
		t.Errorf("exit %d, stderr:\n%s\nwant exit 0 and:\n%s", code, stderr, want)
	}
	if len(rows) != 2 || rows[0].id != "good" || rows[0].turns != 3 || rows[0].final != 1 {
		t.Errorf("rows %+v, want good's 3 turns to a score of 1, under each of the two policies", rows)
	}
	if alloc > 32<<20 {
		t.Errorf("%d MiB allocated reading a 4 MiB header", alloc>>20)
	}
}

// A log of 3 million rows that numbers no step stops at 200,000 turns, as a
// numbered one does, said in one line with the count of rows past the bound
// (read whole, it would take 1.2 GB).
func TestUnnumberedStepsCapped(t *testing.T) {
	if testing.Short() {
		t.Skip("reads 3 million rows")
	}
	var b strings.Builder
	b.WriteString("Step,Score\n")
	for range 3_000_000 {
		b.WriteString("0,1\n")
	}
	log := writeLines(t, filepath.Join(t.TempDir(), "long.csv"), []string{strings.TrimSuffix(b.String(), "\n")})
	code, rows, stderr := outcomes(t, "--fields", "score=Score", log)
	want := fmt.Sprintf("lbanalyze: %s:200002: step 200001 is out of range 1..200000: skipped, as is every step after it\n", log)
	if code != 0 || !strings.HasPrefix(stderr, want) || !strings.Contains(stderr, "2800000 lines skipped") {
		t.Errorf("exit %d, stderr:\n%s\nwant exit 0 and, first:\n%s", code, stderr, want)
	}
	if len(rows) != 2 || rows[0].turns != 200_000 || rows[0].final != 1 || rows[0].skipped != 2_800_000 {
		t.Errorf("rows %+v, want 200,000 turns to a score of 1, 2,800,000 skipped, under each of the two policies", rows)
	}
}

// balrogRun writes a TextWorld run of BALROG's layout under root: steps
// numbered 0 to n-1, each scoring 0, begun again runs times, and summary
// beside it ("" for none).
func balrogRun(t *testing.T, root, name string, n, runs int, summary string) string {
	t.Helper()
	dir := filepath.Join(root, "textworld", "th")
	var b strings.Builder
	b.WriteString("Step,Observation,Action,Reasoning,Reward,Done\n")
	for range runs {
		for i := range n {
			fmt.Fprintf(&b, "%d,room,look,,0,False\n", i)
		}
	}
	path := writeLines(t, filepath.Join(dir, name+".csv"), []string{strings.TrimSuffix(b.String(), "\n")})
	if summary != "" {
		writeLines(t, filepath.Join(dir, name+".json"), []string{summary})
	}
	return path
}

// column is the cells of a CSV column, the header left out.
func column(t *testing.T, out, name string) []string {
	t.Helper()
	recs, err := csv.NewReader(strings.NewReader(out)).ReadAll()
	if err != nil || len(recs) == 0 {
		t.Fatalf("%v: %q", err, out)
	}
	i := slices.Index(recs[0], name)
	var cells []string
	for _, r := range recs[1:] {
		cells = append(cells, r[i])
	}
	return cells
}

// A table of a header and no row is a counted, named skip, never a run that
// vanishes unsaid (BALROG has 1,990 such runs); the good run beside it is
// read, 60 turns.
func TestHeaderOnlyTableSkipped(t *testing.T) {
	root := t.TempDir()
	good := balrogRun(t, root, "th_run_00", 60, 1, "")
	empty := balrogRun(t, root, "th_run_01", 0, 0, "")
	code, stdout, stderr := runCLI(nil, "batch", "--format", "json", root)
	why := "a header and no row: no step to read"
	if code != 0 || stderr != "lbanalyze: "+empty+": "+why+"\n" {
		t.Errorf("exit %d, stderr %q", code, stderr)
	}
	var d struct {
		N       int `json:"n"`
		Skipped []struct {
			Source string `json:"source"`
			Reason string `json:"reason"`
		} `json:"skipped"`
		Episodes []struct {
			Source string `json:"source"`
			Turns  int    `json:"turns"`
		} `json:"episodes"`
	}
	if err := json.Unmarshal([]byte(stdout), &d); err != nil {
		t.Fatal(err)
	}
	if len(d.Skipped) != 1 || d.Skipped[0].Source != empty || d.Skipped[0].Reason != why || len(d.Episodes) != 1 || d.Episodes[0].Source != good || d.Episodes[0].Turns != 60 {
		t.Errorf("skipped %+v, episodes %+v", d.Skipped, d.Episodes)
	}
}

// A BALROG run whose steps start again is two episodes, and the summary
// beside it, the whole file's 600 tokens, is credited to neither (credited
// to each, it would make 400 saved of a run that spent 600), said; a run
// alone gets its 600, 10 a step, 200 saved by a stop at 40 of 60.
func TestBalrogRestartSummaryOnce(t *testing.T) {
	root := t.TempDir()
	summary := `{"task": "th", "input_tokens": 500, "output_tokens": 100, "done": false, "num_steps": 120, "client": {"model_id": "m"}}`
	twice := balrogRun(t, root, "th_run_00", 60, 2, summary)
	alone := balrogRun(t, root, "th_run_01", 60, 1, summary)
	for _, c := range []struct {
		path   string
		tokens []string
		note   string
	}{
		{twice, []string{"", ""}, "note: its steps start again within the file, which so holds several runs: its summary, th_run_00.json, is the whole file's, so its tokens and end are credited to none of them\n"},
		{alone, []string{"200"}, "note: tokens per step are estimates: th_run_01.json gives the run's 600 tokens (input and output) as one count, spread evenly here over its 60 steps\n"},
	} {
		code, stdout, stderr := runCLI(nil, "episode", "--format", "csv", "--policy", "score", c.path)
		if got := column(t, stdout, "tokens_saved"); code != 0 || stderr != "" || !slices.Equal(got, c.tokens) || !slices.Equal(column(t, stdout, "turns_saved"), slices.Repeat([]string{"20"}, len(c.tokens))) {
			t.Errorf("%s: exit %d, tokens saved %q, want %q; stderr %q", c.path, code, got, c.tokens, stderr)
		}
		if _, text, _ := runCLI(nil, "episode", "--policy", "score", c.path); strings.Count(text, c.note) != len(c.tokens) {
			t.Errorf("%s: want %d times %q in:\n%s", c.path, len(c.tokens), c.note, text)
		}
	}
}

// A BALROG summary whose input and output tokens add up past int64 gives
// no tokens, said (added, they would wrap to negative tokens saved); a field
// map's columns added up past source.MaxTokens likewise, so that no sum
// over a run's turns can wrap.
func TestTokenSumsRefused(t *testing.T) {
	root := t.TempDir()
	run := balrogRun(t, root, "th_run_00", 60, 1, `{"task": "th", "input_tokens": 9223372036854775000, "output_tokens": 1000, "done": false, "num_steps": 60}`)
	code, stdout, stderr := runCLI(nil, "episode", "--format", "csv", "--policy", "score", run)
	if got := column(t, stdout, "tokens_saved"); code != 0 || stderr != "" || !slices.Equal(got, []string{""}) {
		t.Errorf("exit %d, tokens saved %q, stderr %q", code, got, stderr)
	}
	_, text, _ := runCLI(nil, "episode", "--policy", "score", run)
	if want := "note: th_run_00.json gives 9223372036854775000 input and 1000 output tokens, more than the 1099511627776 a run may have: its tokens are not known\n"; !strings.Contains(text, want) {
		t.Errorf("want %q in:\n%s", want, text)
	}
	log := writeLines(t, filepath.Join(t.TempDir(), "sum.csv"), []string{"Step,Score,In,Out", "0,0,1099511627776,1", "1,1,5,5"})
	code, rows, stderr := outcomes(t, "--fields", "turn=Step,score=Score,tokens=In+Out", log)
	want := "lbanalyze: " + log + `:2: "In+Out" (the tokens) gives 1099511627777, more than the 1099511627776 a step may have: counted as unknown` + "\n"
	if code != 0 || !strings.HasPrefix(stderr, want) || len(rows) != 2 || rows[0].turns != 2 || rows[0].final != 1 {
		t.Errorf("exit %d, rows %+v, stderr:\n%s\nwant:\n%s", code, rows, stderr, want)
	}
}

// A newline in a group's value (here a column given to --by) forges no line
// in the table output of batch and sweep, the title escaped as every other
// format does it; the two groups are each of their one episode, of 2 turns.
// --by with a key no episode has is a usage error naming the keys they have,
// never one silent "(none)" group.
func TestGroupValuesEscaped(t *testing.T) {
	dir := t.TempDir()
	writeLines(t, filepath.Join(dir, "r1.csv"), []string{"Step,Score,Model", `0,0,"a`, `forged line"`, "1,1,x"})
	writeLines(t, filepath.Join(dir, "r2.csv"), []string{"Step,Score,Model", "0,0,b", "1,2,x"})
	for _, cmd := range []string{"batch", "sweep"} {
		code, stdout, stderr := runCLI(nil, cmd, "--fields", "turn=Step,score=Score", "--by", "Model", dir)
		if code != 0 || stderr != "" || strings.Contains(stdout, "\nforged line") ||
			!strings.Contains(stdout, "== Group 1 of 2: a\\nforged line, 1 episode ==\n") || !strings.Contains(stdout, "== Group 2 of 2: b, 1 episode ==\n") {
			t.Errorf("%s: exit %d, stderr %q, stdout:\n%s", cmd, code, stderr, stdout)
		}
		code, stdout, stderr = runCLI(nil, cmd, "--fields", "turn=Step,score=Score", "--by", "Modle", dir)
		want := "lbanalyze: --by: no episode has Modle: the keys they have are system, dir:N, or a member of their steps (a column of a table)\n" + usageHint
		if code != 2 || stdout != "" || stderr != want {
			t.Errorf("%s --by Modle: exit %d, stdout %q, stderr %q, want exit 2 and %q", cmd, code, stdout, stderr, want)
		}
	}
}

// A table or JSON Lines file that a field map does not claim for a column or
// key it lacks is answered with that column and the header's nearest names,
// not told to give a field map as if none was given; a table no source
// claims, without a map, gets one suggested, as JSON Lines does; the map
// suggested reads it: 2 turns, to a score of 1.
func TestFieldMapMissesNamed(t *testing.T) {
	table := writeLines(t, filepath.Join(t.TempDir(), "m.csv"), []string{"Step,Score,Action", "0,0,look", "1,1,go"})
	jsonLog := writeLines(t, filepath.Join(t.TempDir(), "m.jsonl"), []string{`{"step": 0, "score": 0}`, `{"step": 1, "score": 1}`})
	for _, c := range []struct {
		fields, log, want string
	}{
		{"turn=step,score=Score", table, `its header has no column "step" (the turn), nearest "Step"`},
		{"turn=Step,score=Scor,action=Act", table, `its header has no column "Scor" (the score), nearest "Score"; no column "Act" (the action), nearest "Action"`},
		{"turn=Step,score=score", jsonLog, `its first object has no key "Step" (the turn), nearest "step"`},
		{"", table, "to read it as a table of one row a step, give a field map, e.g. --fields turn=Step,score=Score,action=Action"},
	} {
		args := []string{"episode", c.log}
		if c.fields != "" {
			args = []string{"episode", "--fields", c.fields, c.log}
		}
		code, _, stderr := runCLI(nil, args...)
		if first, _, _ := strings.Cut(stderr, "\n"); code != 1 || !strings.HasSuffix(first, c.want) {
			t.Errorf("%s %s: exit %d, stderr:\n%s\nwant exit 1, its first line ending %q", c.fields, c.log, code, stderr, c.want)
		}
	}
	if code, rows, stderr := outcomes(t, "--fields", "turn=Step,score=Score,action=Action", table); code != 0 || stderr != "" || len(rows) != 2 || rows[0].turns != 2 || rows[0].final != 1 {
		t.Errorf("the map suggested: exit %d, rows %+v, stderr %q", code, rows, stderr)
	}
}

// An --ft-margin below 0.01 pp is refused (below the comparisons' tolerance
// it would act as another margin, and be said as "0.0 pp"); one of 0.01 pp
// is said as given.
func TestFTMarginBounded(t *testing.T) {
	code, stdout, stderr := runCLI(nil, "sweep", "--ft-margin", "1e-11", "../../testdata/episodes")
	if want := "lbanalyze: --ft-margin is a number of percentage points, from 0.01 to 100, not 1e-11\n" + usageHint; code != 2 || stdout != "" || stderr != want {
		t.Errorf("exit %d, stdout %q, stderr %q; want exit 2 and %q", code, stdout, stderr, want)
	}
	code, stdout, _ = runCLI(nil, "sweep", "--ft-margin", "0.01", "../../testdata/episodes")
	if code != 0 || !strings.Contains(stdout, "a change ships within --ft-margin 0.01 pp of now's false-termination rate") {
		t.Errorf("exit %d, stdout:\n%.2000s", code, stdout)
	}
}

// One mistake over 40 files is told for the first 3 word for word, then in
// one line with the count and the first of the rest, on stderr and in what
// batch says was left out, not a line a file; the good log beside them is
// analysed, 2 turns.
func TestOneLinePerCause(t *testing.T) {
	dir := t.TempDir()
	for i := range 40 {
		writeLines(t, filepath.Join(dir, fmt.Sprintf("r%02d.csv", i)), []string{"Step,Score,Action", "0,0,look", "1,1,go"})
	}
	writeLines(t, filepath.Join(dir, "zz.jsonl"), []string{`{"Step": 0, "Scor": 0}`, `{"Step": 1, "Scor": 1}`})
	code, stdout, stderr := runCLI(nil, "batch", "--fields", "turn=Step,score=Scor", dir)
	why := `does not look like a log lbanalyze reads (jsonl, csv, zorkgpt, zorkgpt2-burr, zorkgpt2-runlog, zorkgpt2-snapshot, tales, balrog, tau2, terminal-bench, atif, mini-swe-agent): text; its first line: "Step,Score,Action"; its header has no column "Scor" (the score), nearest "Score"`
	var want, left []string
	for i := range 3 {
		want = append(want, fmt.Sprintf("lbanalyze: %s/r%02d.csv: %s", dir, i, why))
		left = append(left, fmt.Sprintf("left out: %s/r%02d.csv: %s", dir, i, why))
	}
	want = append(want, fmt.Sprintf("lbanalyze: the same in 37 more files, %s/r03.csv first: %s", dir, why), "")
	left = append(left, fmt.Sprintf("left out: the same in 37 more inputs, %s/r03.csv first: %s", dir, why))
	if code != 0 || stderr != strings.Join(want, "\n") {
		t.Errorf("exit %d, stderr:\n%s\nwant exit 0 and:\n%s", code, stderr, strings.Join(want, "\n"))
	}
	if !strings.HasPrefix(stdout, "1 episode analysed") || !strings.Contains(stdout, "\n"+strings.Join(left, "\n")+"\n\n") {
		t.Errorf("stdout:\n%.3000s\nwant 1 episode analysed and:\n%s", stdout, strings.Join(left, "\n"))
	}
}

// Every command suggests a flag for one it does not know: its own nearest
// (sweep's --policy for --polcy), a flag of another command, saying whose
// (batch's --polcy, episode's --top), or, for a policy's name given as a
// flag (--window), the flag that takes it.
func TestFlagSuggestions(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"sweep", "--polcy", "score"}, "Did you mean this?\n\t--policy\n"},
		{[]string{"batch", "--polcy", "score"}, "Did you mean --policy? It is a flag of lbanalyze check and lbanalyze episode and lbanalyze sweep, not of batch ('lbanalyze batch --help' lists its flags)\n"},
		{[]string{"batch", "--window"}, "window is a policy, not a flag: give it as --after window or --baseline window\n"},
		{[]string{"episode", "--window=3"}, "window is a policy, not a flag: give it as --policy window\n"},
		{[]string{"episode", "--top", "3"}, "--top is a flag of lbanalyze sweep, not of episode ('lbanalyze episode --help' lists its flags)\n"},
	} {
		code, stdout, stderr := runCLI(nil, append(c.args, "../../testdata/episodes")...)
		flag, _, _ := strings.Cut(strings.TrimPrefix(c.args[1], "--"), "=")
		want := "lbanalyze: unknown flag: --" + flag + "\n\n" + c.want + "\n" + usageHint
		if code != 2 || stdout != "" || stderr != want {
			t.Errorf("%q: exit %d, stderr:\n%s\nwant exit 2 and:\n%s", c.args, code, stderr, want)
		}
	}
}
