package main

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/lbanalyze/lbanalyze/episode"
	"github.com/lbanalyze/lbanalyze/internal/benchdata"
	"github.com/lbanalyze/lbanalyze/internal/corpus"
	"github.com/lbanalyze/lbanalyze/internal/metrics"
	"github.com/lbanalyze/lbanalyze/internal/textout"
	"github.com/lbanalyze/lbanalyze/policy"
	"github.com/lbanalyze/lbanalyze/replay"
	"github.com/lbanalyze/lbanalyze/report"
	"github.com/lbanalyze/lbanalyze/source"
	"github.com/lbanalyze/lbanalyze/source/steps"
)

// FuzzPipeline runs arbitrary bytes through everything a log goes through:
// read and build, replay under several policies, every format of episode,
// then a dataset of the fuzzed episodes with a fixed one and every format of
// batch, as the commands write them. Nothing may panic; the outcomes must be
// replay.Run's, config by config (the sweep's fast path is exact); table and
// markdown must hold no control character but newlines, JSON must be valid,
// episode's the bytes of encoding/json, and CSV rows must all have the
// header's width; the episode command's stream must write what the whole
// log read at once gives.
func FuzzPipeline(f *testing.F) {
	fixedLog, err := os.ReadFile("testdata/logs/premature.jsonl")
	if err != nil {
		f.Fatal(err)
	}
	fixed := corpus.Read([]string{"-"}, corpus.Options{Jobs: 1, Stdin: bytes.NewReader(fixedLog)})
	if len(fixed.Episodes) != 1 {
		f.Fatal("the fixed log is not one episode")
	}
	for _, p := range []string{"testdata/logs/recorded-v2.jsonl", "testdata/logs/bad-lines.jsonl", "testdata/logs/hostile-text.jsonl",
		"testdata/logs/hostile-unicode.jsonl", "testdata/logs/two-episodes.jsonl", "../../testdata/samples/episode-e3a.jsonl",
		// every other source the registry reads, by content
		"testdata/logs/tales/restart.jsonl", "testdata/logs/run_log_two_kinds.txt"} {
		data, err := os.ReadFile(p)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
	}
	f.Add(fixedLog[:len(fixedLog)/3])
	// ZorkGPT2's Burr log and snapshot, and a per-step log through the field
	// map below (the registry reads every other source by content).
	var burr bytes.Buffer
	if err := benchdata.BurrLog(&burr, 3); err != nil {
		f.Fatal(err)
	}
	f.Add(burr.Bytes())
	f.Add([]byte(`{"meta": {"episode_id": "ep7", "turn": 4}, "action_type": "evaluate_action", "state": {"action_history": [` + "\n" +
		`{"turn": 1, "action": "north", "response": "ok", "location_id": 180, "location_name": "West House", "score_after": 0, "critic_score": 0.7, "rejection_count": 0},` + "\n" +
		`{"turn": 2, "action": "east", "response": "ok", "location_id": 81, "location_name": "North House", "score_after": 5, "critic_score": 0.2, "rejection_count": 3}` + "\n" +
		`], "location_name": "Behind House"}}` + "\n"))
	harness, err := os.ReadFile("testdata/logs/harness-two-kinds.jsonl")
	if err != nil {
		f.Fatal(err)
	}
	f.Add(harness)
	fieldMap, err := steps.ParseFields("episode=ep,turn=t,score=s,tokens=tok,action=a,room=r")
	if err != nil {
		f.Fatal(err)
	}
	mapped := corpus.Registry()
	mapped.Files = append([]source.Source{steps.Source{Fields: fieldMap}}, mapped.Files...)
	// A table of rewards, summed into real scores, through a table's field
	// map (BALROG's preset reads no standard input: it needs the layout).
	rewards, err := os.ReadFile("../../testdata/steps/rewards.csv")
	if err != nil {
		f.Fatal(err)
	}
	f.Add(rewards)
	f.Add([]byte("Step,Action,Reward\n0,look,0.5\n1,\"north,\neast\",-0.25\n0,look,1e-3\n"))
	tableMap, err := steps.ParseFields("turn=Step,reward=Reward,action=Action")
	if err != nil {
		f.Fatal(err)
	}
	tabled := corpus.Registry()
	tabled.Files = append([]source.Source{steps.Table{Fields: tableMap}}, tabled.Files...)
	f.Add([]byte(`{"event_type": "episode_initialized", "episode_id": "\u001b[2J<b>|` + "`" + `\uFFFF"}` + "\n" +
		`{"event_type": "turn_completed", "turn": 3, "score": -7, "action": "=1+1\r"}` + "\n"))

	defaults := policy.DefaultTimer()
	policies := []policy.Policy{policy.Policy{Name: policy.Score}.WithTimer(defaults), policy.Policy{Name: policy.ScoreOrObjective}.WithTimer(defaults),
		policy.Policy{Name: policy.Window}.WithTimer(policy.Timer{MaxTurnsStuck: 3, CheckInterval: 1, WarningThreshold: 2}),
		policy.Policy{Name: policy.Score}.WithTimer(policy.Timer{MaxTurnsStuck: 1, CheckInterval: 5, WarningThreshold: 0}),
		policy.Policy{Name: policy.ScoreOrObjective}.WithTimer(policy.Timer{MaxTurnsStuck: 7, CheckInterval: 3, WarningThreshold: 30})}
	for _, n := range policy.Names() { // every variant too, at its defaults
		if n == policy.Any {
			continue // any is its rules, joined by +: none at its defaults
		}
		p, err := policy.Parse(string(n), nil)
		if err != nil {
			f.Fatal(err)
		}
		policies = append(policies, p)
	}
	grid := slices.Concat(expand(policy.Score, [][]int{{1, 2, 7, 40}, {1, 3, 10}, {0}}),
		expand(policy.ScoreOrObjective, [][]int{{1, 3, 40}, {1, 10}, {2}}), expand(policy.Window, [][]int{{2, 40}, {1, 5}, {20}}),
		expand(policy.Patience, [][]int{{3, 40}, {1, 10}, {20}, {5}, {10}, {1}, {2}, {3}}))
	f.Fuzz(func(t *testing.T, data []byte) {
		srcs := corpus.Registry() // or with a field map, for what it claims
		switch head := data[:min(len(data), source.HeadSize)]; {
		case steps.Source{Fields: fieldMap}.Claims(head):
			srcs = mapped
		case steps.Table{Fields: tableMap}.Claims(head):
			srcs = tabled
		}
		lg := corpus.Read([]string{"-"}, corpus.Options{Jobs: 1, Stdin: bytes.NewReader(data), Sources: srcs})
		if len(lg.Episodes) == 0 {
			return
		}
		eps := analyse(lg.Episodes, held(policies, report.Options{Costs: metrics.Costs{CallsPerTurn: 4, CostPerCall: 0.01}, GainHorizon: 30}), nop)
		checkOutcomes(t, lg.Episodes, policies, eps)
		checkJSONBytes(t, eps)
		// A grid large enough for the sweep's fast path.
		gridEps := analyse(lg.Episodes, held(grid, report.Options{Costs: metrics.Costs{CallsPerTurn: 4, CostPerCall: 0.01}, GainHorizon: 30}), nop)
		checkOutcomes(t, lg.Episodes, grid, gridEps)
		checkJSONBytes(t, gridEps)
		for _, format := range textout.Formats {
			check(t, "episode", format, func(w *outWriter) error { return report.WriteEpisodes(w, format, eps, nil) })
			checkStream(t, data, format, policies, srcs)
		}
		// As batch compares them: the episodes that can replay both sides.
		kept, _ := replay.Comparable(append(slices.Clone(lg.Episodes), fixed.Episodes...), policies[:2], "left out")
		all := analyse(kept, held(policies[:2], report.Options{Costs: metrics.Costs{CallsPerTurn: 4, CostPerCall: 0.01}, GainHorizon: 30}), nop)
		d := report.NewDataset(policies[0], policies[1], report.Options{Costs: metrics.Costs{CallsPerTurn: 4}}, all, []report.Skip{{Source: "fuzz.jsonl:1", Reason: "a reason"}}, nil)
		for _, format := range textout.Formats {
			check(t, "batch", format, func(w *outWriter) error { return report.WriteDataset(w, format, d, false, nil) })
		}
	})
}

// checkStream requires the episode command's stream to write what reading
// the whole log, then analysing and writing every episode, writes.
func checkStream(t *testing.T, data []byte, format string, policies []policy.Policy, srcs *corpus.Sources) {
	opts := report.Options{Costs: metrics.Costs{CallsPerTurn: 4, CostPerCall: 0.01}, GainHorizon: 30}
	var want, wantErr, got, gotErr bytes.Buffer
	e := &env{stdin: bytes.NewReader(data), stdout: &want, stderr: &wantErr}
	all := analyse(e.readCorpus([]string{"-"}, 1, true, srcs, "").Episodes, held(policies, opts), nop)
	if err := report.WriteEpisodes(&want, format, all, nil); err != nil {
		t.Fatal(err)
	}
	e = &env{stdin: bytes.NewReader(data), stdout: &got, stderr: &gotErr}
	files, c := corpus.Files([]string{"-"}, srcs)
	if _, err := e.streamEpisodes(&got, format, files, c, 2, srcs, tellNothing, asGrid(policies, opts)); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got.Bytes(), want.Bytes()) || gotErr.String() != wantErr.String() {
		t.Fatalf("episode --format %s streamed:\n%s\n%s\nwhole:\n%s\n%s", format, got.Bytes(), gotErr.Bytes(), want.Bytes(), wantErr.Bytes())
	}
}

// checkOutcomes requires the outcomes of eps to be replay.Run's of each
// policy with a gain horizon of 30.
func checkOutcomes(t *testing.T, logged []*episode.Episode, policies []policy.Policy, eps []report.Episode) {
	for i, ep := range logged {
		kept := slices.Collect(replay.Replayable(ep, slices.Values(policies))) // those whose signals the log has
		if len(eps[i].Outcomes) != len(kept) {
			t.Fatalf("episode %d: %d outcomes of %d replayable policies", i, len(eps[i].Outcomes), len(kept))
		}
		for k, p := range kept {
			want := replay.Run(ep, p)
			want.GainHorizon = 30
			if !reflect.DeepEqual(eps[i].Outcomes[k], want) {
				t.Fatalf("episode %d, %s: outcome %+v, replay.Run %+v", i, p, eps[i].Outcomes[k], want)
			}
		}
	}
}

// checkJSONBytes requires report.WriteJSON to write what encoding/json writes.
func checkJSONBytes(t *testing.T, eps []report.Episode) {
	var got, want bytes.Buffer
	if err := report.WriteEpisodes(&got, "json", eps, nil); err != nil {
		t.Fatal(err)
	}
	js := make([]report.EpisodeJSON, len(eps))
	for i := range eps {
		js[i] = eps[i].JSON()
	}
	enc := json.NewEncoder(&want)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	if err := enc.Encode(js); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got.Bytes(), want.Bytes()) {
		t.Fatalf("WriteJSON differs from encoding/json:\ngot  %s\nwant %s", got.Bytes(), want.Bytes())
	}
}

// check writes one report as the command does and checks what it gives.
func check(t *testing.T, cmd, format string, write func(*outWriter) error) {
	var b bytes.Buffer
	w := &outWriter{w: &b, escape: format == "table" || format == "markdown"}
	if err := write(w); err != nil {
		t.Fatalf("%s --format %s: %v", cmd, format, err)
	}
	if err := w.Flush(); err != nil {
		t.Fatalf("%s --format %s: %v", cmd, format, err)
	}
	out := b.Bytes()
	if format != "json" { // JSON keeps the log's text, escaped as JSON escapes it
		for i := 0; i < len(out); {
			r, size := utf8.DecodeRune(out[i:])
			if (r == utf8.RuneError && size == 1) || (textout.Unprintable(r) && r != '\n') {
				t.Fatalf("%s --format %s: %U at byte %d: %q", cmd, format, r, i, out[max(0, i-40):min(len(out), i+40)])
			}
			i += size
		}
	}
	switch format {
	case "json":
		if !json.Valid(out) {
			t.Fatalf("%s --format json: invalid JSON", cmd)
		}
	case "csv":
		rows, err := csv.NewReader(bytes.NewReader(out)).ReadAll() // FieldsPerRecord: every row as wide as the header
		if err != nil || len(rows) < 2 || len(rows) != bytes.Count(out, []byte("\n")) {
			t.Fatalf("%s --format csv: %d rows in %d lines, %v", cmd, len(rows), bytes.Count(out, []byte("\n")), err)
		}
	}
}

// FuzzBy groups two tables by a column of arbitrary values, as --by does,
// in the table output of batch and sweep: nothing may panic; a key that no
// episode has a value for is the usage error; otherwise every group has its
// one title line, "== Group i of n: …", and no line holds a control
// character (a value forges no line, nor drives the terminal).
func FuzzBy(f *testing.F) {
	f.Add("a\nforged line", "b")
	f.Add("(none)", "")
	f.Add("x\x1b[2J\r", "x")
	f.Add("== Group 3 of 2: z, 1 episode ==", "\u202e")
	dir := f.TempDir()
	f.Fuzz(func(t *testing.T, a, b string) {
		for i, v := range []string{a, b} {
			var buf bytes.Buffer
			w := csv.NewWriter(&buf)
			w.WriteAll([][]string{{"Step", "Score", "Model"}, {"0", "0", v}, {"1", "1", v}})
			if err := os.WriteFile(filepath.Join(dir, fmt.Sprintf("r%d.csv", i)), buf.Bytes(), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		for _, cmd := range []string{"batch", "sweep"} {
			code, stdout, stderr := runCLI(nil, cmd, "--fields", "turn=Step,score=Score", "--by", "Model", "--jobs", "1", dir)
			if code == 2 && strings.Contains(stderr, "lbanalyze: --by: no episode has Model: ") {
				continue
			}
			if code != 0 {
				t.Fatalf("%s %q %q: exit %d, stderr %q", cmd, a, b, code, stderr)
			}
			titles := 0
			n := -1
			for _, line := range strings.Split(stdout, "\n") {
				if strings.IndexFunc(line, textout.Unprintable) >= 0 {
					t.Fatalf("%s %q %q: a control character in %q", cmd, a, b, line)
				}
				var i, of int
				if _, err := fmt.Sscanf(line, "== Group %d of %d:", &i, &of); err == nil {
					titles++
					if n < 0 {
						n = of
					}
					if i != titles || of != n {
						t.Fatalf("%s %q %q: title %q", cmd, a, b, line)
					}
				}
			}
			if titles != n || n < 1 || n > 2 {
				t.Fatalf("%s %q %q: %d titles of %d groups:\n%s", cmd, a, b, titles, n, stdout)
			}
		}
	})
}
