package main

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/spf13/cobra"

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

// streamInputs are files of every kind episode may be given: a third of the
// bundled set and what it passes over, logs of several segments, bad lines, a
// file that is not a log, a missing one, a copy (a duplicate id).
func streamInputs(t *testing.T) []string {
	all, _ := filepath.Glob("../../testdata/episodes/*/*")
	var args []string
	for i, path := range all {
		if i%3 == 0 || !strings.HasPrefix(filepath.Base(filepath.Dir(path)), "20") {
			args = append(args, path)
		}
	}
	logs, _ := filepath.Glob("testdata/logs/*")
	dir := t.TempDir()
	var multi []byte
	for _, name := range []string{"two-episodes.jsonl", "bad-lines.jsonl", "two-episodes.jsonl", "premature.jsonl"} {
		data, err := os.ReadFile(filepath.Join("testdata/logs", name))
		if err != nil {
			t.Fatal(err)
		}
		multi = append(multi, data...)
	}
	os.WriteFile(filepath.Join(dir, "multi.jsonl"), multi, 0o644)
	premature, _ := os.ReadFile("testdata/logs/premature.jsonl")
	os.WriteFile(filepath.Join(dir, "copy.jsonl"), premature, 0o644)
	return append(append(args, logs...), filepath.Join(dir, "multi.jsonl"), filepath.Join(dir, "missing.jsonl"), filepath.Join(dir, "copy.jsonl"))
}

// held analyses an episode with every outcome held: the policies its log
// can replay, the others named in its notes.
func held(policies []policy.Policy, opts report.Options) func(*episode.Episode) report.Episode {
	return func(ep *episode.Episode) report.Episode {
		e := report.Analyse(ep, slices.Collect(replay.Replayable(ep, slices.Values(policies))), policy.DefaultTimer(), opts)
		e.Unreplayed = replay.Notes(ep, slices.Values(policies))
		return e
	}
}

// nop is a step of no progress shown.
func nop() {}

// asGrid analyses an episode as the episode command does: over a grid whose
// outcomes are replayed as they are written (report.AnalyseGrid).
func asGrid(policies []policy.Policy, opts report.Options) func(*episode.Episode) report.Episode {
	g := policy.List(policies...)
	return func(ep *episode.Episode) report.Episode {
		return report.AnalyseGrid(ep, g, policy.DefaultTimer(), opts)
	}
}

// tellNothing has nothing to say before an episode.
func tellNothing(*episode.Episode) []string { return nil }

// expand is name under every combination of vals, as a grid flag makes it.
func expand(name policy.Name, vals [][]int) []policy.Policy {
	var g policy.Grid
	g.Product(name, vals)
	return g.Policies()
}

// The streamed episode command writes what reading the whole corpus, then
// analysing, then writing every episode writes, on stdout and on stderr: in
// every format, with few results and many, whatever the number of jobs;
// with every outcome held, or replayed as it is written.
func TestStreamEqualsWholeCorpus(t *testing.T) {
	args := streamInputs(t)
	defaults := policy.DefaultTimer()
	grid := expand(policy.Window, [][]int{{5, 10, 20, 40, 80}, {1, 5, 10}, {20}})
	opts := report.Options{Costs: metrics.Costs{CallsPerTurn: 4, CostPerCall: 0.01}, GainHorizon: 30}
	for _, policies := range [][]policy.Policy{{policy.Policy{Name: policy.Score}.WithTimer(defaults), policy.Policy{Name: policy.ScoreOrObjective}.WithTimer(defaults)}, grid} {
		for _, format := range textout.Formats {
			var want, wantErr bytes.Buffer
			e := &env{stdout: &want, stderr: &wantErr}
			all := e.readCorpus(args, 2, true, nil, "").Episodes
			if err := report.WriteEpisodes(&want, format, analyse(all, held(policies, opts), nop), nil); err != nil {
				t.Fatal(err)
			}
			if !bytes.Contains(wantErr.Bytes(), []byte("is in 2 files")) || !bytes.Contains(want.Bytes(), []byte("multi.jsonl")) {
				t.Fatalf("the inputs miss a case:\n%s", wantErr.String())
			}
			for _, jobs := range []int{1, 4} {
				var got, gotErr bytes.Buffer
				e := &env{stdout: &got, stderr: &gotErr}
				files, c := corpus.Files(args, corpus.Registry())
				n, err := e.streamEpisodes(&got, format, files, c, jobs, nil, tellNothing, asGrid(policies, opts))
				if err != nil || n != len(all) {
					t.Fatalf("%s, jobs %d: %d episodes, %v", format, jobs, n, err)
				}
				if !bytes.Equal(got.Bytes(), want.Bytes()) {
					t.Errorf("%s, %d policies, jobs %d: stdout differs (%d bytes, want %d)", format, len(policies), jobs, got.Len(), want.Len())
				}
				if gotErr.String() != wantErr.String() {
					t.Errorf("%s, jobs %d: stderr\n%s\nwant\n%s", format, jobs, gotErr.String(), wantErr.String())
				}
			}
		}
	}
}

// segmentsReader is a log of many segments of many turns, made as it is read:
// at its end, it notes how much of the heap is in use.
type segmentsReader struct {
	segments, turns int
	seg, turn       int
	buf             bytes.Buffer
	heapAtEnd       uint64
}

func (r *segmentsReader) Read(p []byte) (int, error) {
	for r.buf.Len() < len(p) && r.seg < r.segments {
		id := fmt.Sprintf("2025-11-04T%02d:%02d:00", r.seg/60, r.seg%60)
		if r.turn == 0 {
			fmt.Fprintf(&r.buf, `{"timestamp": "2025-11-04T09:35:24", "level": "INFO", "event_type": "episode_initialized", "episode_id": "%s", "max_turns": 5000}`+"\n", id)
		}
		r.turn++
		fmt.Fprintf(&r.buf, `{"timestamp": "2025-11-04T09:35:25", "level": "INFO", "event_type": "turn_completed", "episode_id": "%s", "turn": %d, "action": "go north", "score": %d, "location": "West of House"}`+"\n", id, r.turn, r.turn/100)
		if r.turn == r.turns {
			r.seg, r.turn = r.seg+1, 0
		}
	}
	if r.buf.Len() == 0 {
		if r.heapAtEnd == 0 {
			r.heapAtEnd = liveHeap()
		}
		return 0, io.EOF
	}
	return r.buf.Read(p)
}

func liveHeap() uint64 {
	// Two collections: what a sync.Pool holds (the readers' tables of turns)
	// lasts one and is no episode's.
	runtime.GC()
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return m.HeapAlloc
}

// The episode command holds a few episodes at a time, not the whole input:
// at the end of a log of 150 segments of 3,000 turns (30 MB of turns held
// whole), the heap holds less than a third of that.
func TestEpisodeStreamHoldsFewEpisodes(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(2)) // episodes in flight are a few a core
	const whole = 150 * 3000 * 72                   // bytes of the turns (a episode.Turn is 72)
	r := &segmentsReader{segments: 150, turns: 3000}
	before := liveHeap()
	var out, errb bytes.Buffer
	if code := run([]string{"episode", "--format", "csv", "-"}, r, &out, &errb); code != 0 {
		t.Fatalf("exit %d: %s", code, errb.String())
	}
	if n := bytes.Count(out.Bytes(), []byte("\n")); n != 1+150*2 {
		t.Fatalf("%d lines of CSV, want a header and 2 rows an episode", n)
	}
	held := int64(r.heapAtEnd) - int64(before)
	t.Logf("%d KB more on the heap at the end of the log than before; the turns are %d KB", held>>10, whole>>10)
	if held > whole/3 {
		t.Errorf("at the end of the log, %d MB more on the heap than before (the turns are %d MB)", held>>20, whole>>20)
	}
}

// mostHeap runs f and gives the most heap in use (after a collection) in
// samples taken every 50 ms meanwhile, and at its end.
func mostHeap(f func()) uint64 {
	done, most := make(chan struct{}), make(chan uint64)
	go func() {
		var m uint64
		for {
			select {
			case <-done:
				most <- max(m, liveHeap())
				return
			case <-time.After(50 * time.Millisecond):
				m = max(m, liveHeap())
			}
		}
	}()
	f()
	close(done)
	return <-most
}

// heldBy runs the command args and gives the most heap it held beyond what
// was in use before.
func heldBy(t *testing.T, args []string) int64 {
	before := liveHeap()
	var errb bytes.Buffer
	code := 0
	most := mostHeap(func() { code = run(args, nil, io.Discard, &errb) })
	if code != 0 {
		t.Fatalf("%v: exit %d: %s", args, code, errb.String())
	}
	return int64(most) - int64(before)
}

// The episode command holds a grid's outcomes a chunk at a time, and of
// its reports what waits for its turn up to maxHeld, in every format: over
// bundled episodes and a grid of 100,000 configs (two episodes; one of
// 64,000 for the tables, drawn in two passes), the heap in use while they
// are replayed and written stays within 48 MiB of what it was before.
// Measured: 4 to 33 MB, most of it noise (a collection that runs while the
// workers render counts the garbage they make meanwhile as in use); with
// the reports held whole, 25 to 98 MB for one episode (JSON's the most);
// with every outcome and row held, 144 to 161 MB for two (a replay.Outcome
// is about 272 bytes on 64-bit).
func TestEpisodeGridHeldInChunks(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(2))
	files, _ := filepath.Glob("../../testdata/episodes/*/episode_log.jsonl")
	for _, format := range textout.Formats {
		intervals, logs := "1:500", files[:2]
		if format == "table" || format == "markdown" {
			intervals, logs = "1:320", files[:1]
		}
		args := []string{"episode", "--format", format, "--policy", "score", "--max-turns-stuck", "1:200", "--check-interval", intervals}
		args = append(args, logs...)
		// Noise only adds (garbage counted as in use): a run over the bound
		// is run once more, and the smaller is what is held.
		held := heldBy(t, args)
		if held > 48<<20 {
			held = min(held, heldBy(t, args))
		}
		t.Logf("%s: at most %d KB more on the heap than before", format, held>>10)
		if held > 48<<20 {
			t.Errorf("%s: %d MB more on the heap than before", format, held>>20)
		}
	}
}

// tinyDataset writes n logs of two turns, each in a directory of its own, as
// a run of many short episodes leaves them.
func tinyDataset(t *testing.T, n int) string {
	t.Helper()
	dir := t.TempDir()
	for i := range n {
		id := fmt.Sprintf("2025-11-%02dT%02d:%02d:%02d.%06d", 1+i/86400%28, i/3600%24, i/60%60, i%60, i)
		sub := filepath.Join(dir, fmt.Sprintf("ep%06d", i))
		if err := os.Mkdir(sub, 0o755); err != nil {
			t.Fatal(err)
		}
		log := fmt.Sprintf(`{"timestamp": "2025-11-04T09:35:24", "level": "INFO", "event_type": "episode_initialized", "episode_id": "%s", "max_turns": 5000}`+"\n", id)
		for turn := 1; turn <= 2; turn++ {
			log += fmt.Sprintf(`{"timestamp": "2025-11-04T09:35:25", "level": "INFO", "event_type": "turn_completed", "episode_id": "%s", "turn": %d, "action": "go north", "score": %d, "location": "West of House"}`+"\n", id, turn, turn*(i%3))
		}
		if err := os.WriteFile(filepath.Join(sub, "episode_log.jsonl"), []byte(log), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// What batch holds for an episode (docs/PERFORMANCE.md, "Many episodes")
// as it reads and analyses the episodes (batchRead), and then in the
// dataset: of 5,000 ZorkGPT logs of two turns, each in a directory of its
// own, within 1,250 bytes once read and analysed (925–939 measured: its
// report.Episode, 64 bytes, its row, 288, what few episodes have of it,
// its self-check and facts, 150, its digest, 230, the path of its file);
// of 5,000 episodes of two steps in one file (benchdata.Tiny, read with
// --fields), within 500 (379: its digest, which shows nothing, shared).
// In the dataset, within 100 more. Held whole instead (its Episode, 512
// bytes, its two turns, 240, its outcomes, 544, the analysis of its
// patterns), each would take 2,993–3,013 and 2,528–2,531 once read and
// analysed (2026-12-07).
func TestBatchCostAnEpisode(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(2)) // the readers' buffers grow with the cores
	const n = 5000
	tiny := filepath.Join(t.TempDir(), "tiny.jsonl")
	f, err := os.Create(tiny)
	if err != nil {
		t.Fatal(err)
	}
	if err := benchdata.Tiny(f, n); err != nil {
		t.Fatal(err)
	}
	f.Close()
	for _, c := range []struct {
		name, path, fields string
		most               int64
	}{
		{"zorkgpt", tinyDataset(t, n), "", 1250},
		{"tiny", tiny, "episode=episode,turn=step,score=score", 500},
	} {
		t.Run(c.name, func(t *testing.T) {
			flags := batchFlags{jobs: 2, fields: fieldsFlags{fields: c.fields}}
			srcs, err := flags.fields.sources()
			if err != nil {
				t.Fatal(err)
			}
			e := &env{stdout: io.Discard, stderr: io.Discard}
			b := &batchRead{f: &flags, cmd: &cobra.Command{}, sides: sides{policy.Policy{Name: policy.Score}, policy.Policy{Name: policy.ScoreOrObjective},
				policy.DefaultTimer(), report.Options{Costs: metrics.Costs{CallsPerTurn: 4}}}}
			h0 := liveHeap()
			corp := b.read(e, []string{c.path}, srcs)
			h1 := liveHeap()
			groups, grouped, err := b.split()
			if err != nil || grouped {
				t.Fatalf("%v, %d groups", err, len(groups))
			}
			d, err := flags.compare(e, b, groups[0], skips(corp.Skipped), corp.Passed)
			if err != nil {
				t.Fatal(err)
			}
			h2 := liveHeap()
			runtime.KeepAlive(d)
			runtime.KeepAlive(corp)
			if len(d.Episodes) != n {
				t.Fatalf("%d episodes", len(d.Episodes))
			}
			analysed, dataset := (int64(h1)-int64(h0))/n, (int64(h2)-int64(h1))/n
			t.Logf("an episode: read and analysed %d bytes, in the dataset %d more", analysed, dataset)
			if analysed > c.most || dataset > 100 {
				t.Errorf("an episode: read and analysed %d bytes (want ≤ %d), in the dataset %d more (≤ 100)", analysed, c.most, dataset)
			}
		})
	}
}

// readCapped reads a log at the turn cap whose every action and response is
// a distinct text of source.MaxText bytes, written as it is read.
func readCapped(t *testing.T) *episode.Episode {
	t.Helper()
	fields, err := steps.ParseFields(benchdata.TextFields)
	if err != nil {
		t.Fatal(err)
	}
	r, w := io.Pipe()
	go func() { w.CloseWithError(benchdata.DistinctTexts(w, source.MaxTurn, source.MaxText)) }()
	var ep *episode.Episode
	steps.Table{Fields: fields}.Read(r, "texts.csv", source.Options{}, func(e *episode.Episode) { ep = e })
	if ep == nil || ep.N() != source.MaxTurn {
		t.Fatalf("no episode of %d turns", source.MaxTurn)
	}
	return ep
}

// A log at the turn cap whose every action and response is a distinct text
// of source.MaxText bytes (docs/PERFORMANCE.md, "Memory"): its episode,
// once read, holds its 200,000 turns of 120 bytes (23 MiB), the first 1 MiB
// of its texts whole and the rest short in 32 bytes each (400,000 less the
// 1,800 or so whole, 12 MiB): within 38 MiB (36 measured; every text whole
// would be 228 MiB). Equal texts stay equal: the first turn's action is
// whole, the last's short, and the note says so.
func TestCappedLogOfDistinctTexts(t *testing.T) {
	if testing.Short() {
		t.Skip("reads 200,000 steps of 1 KB")
	}
	h0 := liveHeap()
	ep := readCapped(t)
	held := int64(liveHeap()) - int64(h0)
	t.Logf("the episode holds %d MiB", held>>20)
	first, last := ep.Turns[0], ep.Turns[ep.N()-1]
	if len(first.Action) != source.MaxText || !strings.HasPrefix(first.Action, "action 0000000 abc") ||
		!strings.HasPrefix(last.Action, "action 0…512:") || !strings.HasPrefix(last.Response, "output 0…512:") || last.Action == ep.Turns[ep.N()-2].Action {
		t.Errorf("first action %q…, last %q and %q", first.Action[:20], last.Action, last.Response)
	}
	if !slices.ContainsFunc(ep.Notes, func(n string) bool {
		return strings.Contains(n, "398180 texts (actions, rooms, responses) past the first 1 MiB of distinct ones")
	}) {
		t.Errorf("notes %q", ep.Notes)
	}
	if held > 38<<20 {
		t.Errorf("the episode holds %d MiB, want at most 38", held>>20)
	}
	runtime.KeepAlive(ep)
}
