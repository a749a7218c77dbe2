package main

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/lbanalyze/lbanalyze/internal/testlogs"
)

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
