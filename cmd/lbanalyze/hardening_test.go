package main

import (
	"encoding/csv"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"
)

// The fourth hardening round (issue 38), each case run as a user would: the
// exit code, the message, and the good run's numbers.

// allocatedBy is what f allocates on the heap, in bytes.
func allocatedBy(f func()) uint64 {
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	before := m.TotalAlloc
	f()
	runtime.ReadMemStats(&m)
	return m.TotalAlloc - before
}

// Item 1: a header whose last name opens a quote that closes on line 2, then
// 4 million commas, is refused by name, without holding a cell of them (held
// cell by cell, 16 million take 2 GB of RSS); beside it a good table
// is read, 3 steps scoring 0, 1, 1.
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

// Item 2: a log of 3 million rows that numbers no step stops at 200,000
// turns, as a numbered one does, said in one line with the count of rows
// past the bound (it took 1.2 GB).
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

// Item 3: a table of a header and no row is a counted, named skip (1,990
// such BALROG runs vanished, batch saying "10 episodes analysed" and no
// more); the good run beside it is read, 60 turns.
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

// Item 4: a BALROG run whose steps start again is two episodes, and the
// summary beside it, the whole file's 600 tokens, is credited to neither
// (crediting each all 600 would say 200 saved each, 400 of a run that spent
// 600), said; a run alone gets its 600, 10 a step, 200 saved by a stop at 40
// of 60.
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

// Item 6: a BALROG summary whose input and output tokens add up past int64
// gives no tokens, said (they wrapped to negative tokens saved); a field
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

// Item 5: a newline in a group's value (here a column given to --by) forges
// no line in the table output of batch and sweep, the title escaped as
// every other format does it; the two groups are each of their one
// episode, of 2 turns. Item 7: --by with a key no episode has is a usage
// error naming the keys they have (it gave one silent "(none)" group).
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

// Items 7 and 9: a table or JSON Lines file that a field map does not claim
// for a column or key it lacks is answered with that column and the
// header's nearest names (not told to give a field map, as if none were
// given); a table no source claims, without a map, gets one suggested, as
// JSON Lines does; the map suggested reads it: 2 turns, to a score of 1.
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

// Item 8: an --ft-margin below 0.01 pp is refused (below the comparisons'
// tolerance it would act as another margin, said as "0.0 pp"); one of
// 0.01 pp is said as given.
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

// Item 9: one mistake over 40 files is told for the first 3 word for word,
// then in one line with the count and the first of the rest, on stderr and
// in what batch says was left out (not a line a file, twice: 202 lines
// over 40 files); the good log beside them is analysed, 2 turns.
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

// Item 9: every command suggests a flag for one it does not know: its own
// nearest, a flag of another command (saying whose), or, for a policy's
// name given as a flag, the flag that takes it (batch said nothing for
// --polcy, nor any command for --window).
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
