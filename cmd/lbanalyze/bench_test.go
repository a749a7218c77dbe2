package main

import (
	"io"
	"os"
	"path/filepath"
	"testing"

	"github.com/lbanalyze/lbanalyze/internal/benchdata"
	"github.com/lbanalyze/lbanalyze/internal/corpus"
)

// benchBatch runs `lbanalyze batch --format json DIR` b.N times and reports
// the bytes of log read per second.
func benchBatch(b *testing.B, dir string) { benchCommand(b, dir, "batch", "--format", "json") }

// benchCommand runs `lbanalyze ARGS... PATH` b.N times and reports the bytes
// of log read per second.
func benchCommand(b *testing.B, path string, args ...string) {
	var size int64 // of the logs the command reads, by its own rules
	files, _ := corpus.Discover([]string{path}, corpus.Registry())
	if info, err := os.Stat(path); err == nil && info.Mode().IsRegular() {
		files = []string{path}
	}
	for _, f := range files {
		if info, err := os.Stat(f); err == nil {
			size += info.Size()
		}
	}
	if size == 0 {
		b.Skipf("no logs under %s", path)
	}
	b.SetBytes(size)
	args = append(args, path)
	stop := benchdata.CPU(b)
	for b.Loop() {
		if code := run(args, nil, io.Discard, io.Discard); code != 0 {
			b.Fatalf("exit %d", code)
		}
	}
	stop()
}

// BenchmarkBatch is the README's main job over the bundled 75 episodes.
func BenchmarkBatch(b *testing.B) { benchBatch(b, "../../testdata/episodes") }

// BenchmarkBatchLarge runs over the large set (75 episodes of 10–20 MB) when
// LBANALYZE_LARGE names its directory: make testdata-large writes it.
func BenchmarkBatchLarge(b *testing.B) {
	dir := os.Getenv("LBANALYZE_LARGE")
	if dir == "" {
		b.Skip("set LBANALYZE_LARGE to the directory of the large set (make testdata-large)")
	}
	benchBatch(b, dir)
}

// BenchmarkSet1000 is batch and sweep over the 1,000 synthetic episodes
// (277 MB, docs/PERFORMANCE.md) when LBANALYZE_SET1000 names their
// directory: lbanalyze synth --seed 1 --episodes 1000 --out DIR.
func BenchmarkSet1000(b *testing.B) {
	dir := os.Getenv("LBANALYZE_SET1000")
	if dir == "" {
		b.Skip("set LBANALYZE_SET1000 to the directory of synth --seed 1 --episodes 1000")
	}
	b.Run("batch", func(b *testing.B) { benchCommand(b, dir, "batch") })
	b.Run("sweep", func(b *testing.B) { benchCommand(b, dir, "sweep") })
}

// BenchmarkTiny is batch and sweep over 50,000 two-step episodes in one
// per-step JSONL file (benchdata.Tiny, 4 MB): what is done an episode.
func BenchmarkTiny(b *testing.B) {
	path := filepath.Join(b.TempDir(), "tiny.jsonl")
	f, err := os.Create(path)
	if err != nil {
		b.Fatal(err)
	}
	if err := benchdata.Tiny(f, 50_000); err != nil {
		b.Fatal(err)
	}
	f.Close()
	b.Run("batch", func(b *testing.B) { benchCommand(b, path, "batch", "--fields", benchdata.TinyFields) })
	b.Run("sweep", func(b *testing.B) { benchCommand(b, path, "sweep", "--fields", benchdata.TinyFields) })
}

// BenchmarkEpisodeConfigsJSON is `episode --format json` with 6,000 configs
// (3 policies × 200 max_turns_stuck × 10 intervals) over 5 bundled logs: the
// replay and the JSON writer, 30,000 results.
func BenchmarkEpisodeConfigsJSON(b *testing.B) {
	files, _ := corpus.Discover([]string{"../../testdata/episodes"}, corpus.Registry())
	benchEpisodeConfigs(b, files[:5])
}

// BenchmarkEpisodeConfigsJSONLarge is the same grid over the file
// LBANALYZE_LARGE_FILE names (docs/PERFORMANCE.md: synth --seed 1 --large --episodes 15,
// 230 MB, 90,000 results).
func BenchmarkEpisodeConfigsJSONLarge(b *testing.B) {
	file := os.Getenv("LBANALYZE_LARGE_FILE")
	if file == "" {
		b.Skip("set LBANALYZE_LARGE_FILE to a log, e.g. synth --seed 1 --large --episodes 15 --out -")
	}
	benchEpisodeConfigs(b, []string{file})
}

// benchEpisodeConfigs runs `episode --format json` with the 6,000-config grid
// over files b.N times.
func benchEpisodeConfigs(b *testing.B, files []string) {
	args := []string{"episode", "--format", "json", "--policy", "score,score-or-objective,window",
		"--max-turns-stuck", "21:220", "--check-interval", "1:10"}
	args = append(args, files...)
	stop := benchdata.CPU(b)
	for b.Loop() {
		if code := run(args, nil, io.Discard, io.Discard); code != 0 {
			b.Fatalf("exit %d", code)
		}
	}
	stop()
}

// BenchmarkEpisodeLongLine is `episode` on a bundled 167-turn log with one
// 50 MB reasoning line (make bench-compare times it beside jq).
func BenchmarkEpisodeLongLine(b *testing.B) {
	src, err := os.ReadFile("../../testdata/episodes/2025-11-03T06-28-59/episode_log.jsonl")
	if err != nil {
		b.Fatal(err)
	}
	benchEpisodeFile(b, func(w io.Writer) error { return benchdata.LongLine(w, src, 50_000_000) })
}

// BenchmarkEpisodeTurns is `episode` on 400,000 short turn_completed lines
// (104 MB, 80 episodes of 5,000 turns): read,
// analysed and written episode by episode (make bench-compare times the
// 2,000,000-line file beside wc -l).
func BenchmarkEpisodeTurns(b *testing.B) {
	benchEpisodeFile(b, func(w io.Writer) error { return benchdata.Turns(w, 400_000) })
}

// benchEpisodeFile runs `episode` b.N times on the log write writes (to a
// file, as users read it), and reports the bytes of log read per second.
func benchEpisodeFile(b *testing.B, write func(io.Writer) error) {
	path := filepath.Join(b.TempDir(), "episode_log.jsonl")
	f, err := os.Create(path)
	if err != nil {
		b.Fatal(err)
	}
	if err := write(f); err != nil {
		b.Fatal(err)
	}
	f.Close()
	info, _ := os.Stat(path)
	b.SetBytes(info.Size())
	stop := benchdata.CPU(b)
	for b.Loop() {
		if code := run([]string{"episode", path}, nil, io.Discard, io.Discard); code != 0 {
			b.Fatalf("exit %d", code)
		}
	}
	stop()
}
