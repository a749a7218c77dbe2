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

	"github.com/lbanalyze/lbanalyze/episode"
	"github.com/lbanalyze/lbanalyze/internal/corpus"
	"github.com/lbanalyze/lbanalyze/internal/metrics"
	"github.com/lbanalyze/lbanalyze/internal/textout"
	"github.com/lbanalyze/lbanalyze/policy"
	"github.com/lbanalyze/lbanalyze/replay"
	"github.com/lbanalyze/lbanalyze/report"
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
