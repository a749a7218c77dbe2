package main

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/lbanalyze/lbanalyze/episode"
	"github.com/lbanalyze/lbanalyze/internal/benchdata"
	"github.com/lbanalyze/lbanalyze/internal/corpus"
	"github.com/lbanalyze/lbanalyze/internal/metrics"
	"github.com/lbanalyze/lbanalyze/policy"
	"github.com/lbanalyze/lbanalyze/report"
	"github.com/lbanalyze/lbanalyze/source"
	"github.com/lbanalyze/lbanalyze/source/steps"
)

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

// What batch holds for an episode, stage by stage (docs/PERFORMANCE.md,
// "Memory"), over 5,000 logs of two turns with ZorkGPT's max_turns of 5,000:
// read, within 1,100 bytes (883 measured: its Episode, 480 bytes, its two
// turns, 176, its id and file name); analysed, within 1,000 more (924: its
// report.Episode, 136, two outcomes of 272, the digest of its patterns and
// its self-check); in the dataset, within 100 more (34).
func TestBatchCostAnEpisode(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(2)) // the readers' buffers grow with the cores
	const n = 5000
	dir := tinyDataset(t, n)
	pair := []policy.Policy{{Name: policy.Score}, {Name: policy.ScoreOrObjective}}
	opts := report.Options{Costs: metrics.Costs{CallsPerTurn: 4}}
	h0 := liveHeap()
	c := corpus.Read([]string{dir}, corpus.Options{Jobs: 2})
	h1 := liveHeap()
	eps := analyse(c.Episodes, func(ep *episode.Episode) report.Episode {
		return report.Analyse(ep, pair, policy.DefaultTimer(), opts).Summarised()
	}, nop)
	h2 := liveHeap()
	d := report.NewDataset(pair[0], pair[1], opts, eps, skips(c.Skipped), c.Passed)
	h3 := liveHeap()
	runtime.KeepAlive(d)
	if len(d.Episodes) != n {
		t.Fatalf("%d episodes", len(d.Episodes))
	}
	read, analysed, dataset := (int64(h1)-int64(h0))/n, (int64(h2)-int64(h1))/n, (int64(h3)-int64(h2))/n
	t.Logf("an episode: read %d bytes, analysed %d more, in the dataset %d more", read, analysed, dataset)
	if read > 1100 || analysed > 1000 || dataset > 100 {
		t.Errorf("an episode: read %d bytes (want ≤ 1,100), analysed %d more (≤ 1,000), in the dataset %d more (≤ 100)", read, analysed, dataset)
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
