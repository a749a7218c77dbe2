package tau2

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/lbanalyze/lbanalyze/episode"
	"github.com/lbanalyze/lbanalyze/internal/benchdata"
	"github.com/lbanalyze/lbanalyze/internal/realdata"
	"github.com/lbanalyze/lbanalyze/source"
)

// BenchmarkRead reads a generated results file of 30 MB (benchdata.Tau2),
// for its rate per byte beside the JSONL sources' (TALES's BenchmarkRead;
// docs/PERFORMANCE.md, "Runs judged by their result").
func BenchmarkRead(b *testing.B) {
	var buf bytes.Buffer
	if err := benchdata.Tau2(&buf, 30<<20); err != nil {
		b.Fatal(err)
	}
	data := buf.Bytes()
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	stop := benchdata.CPU(b)
	for b.Loop() {
		n := 0
		res := (Source{}).Read(bytes.NewReader(data), "bench.json", source.Options{}, func(ep *episode.Episode) { n++ })
		if res.Cut != nil || n == 0 {
			b.Fatalf("%d simulations, %v", n, res.Cut)
		}
	}
	stop()
}

// BenchmarkReadLeaderboard reads every leaderboard run
// (shared/external/tau2, 29 MB; skipped when absent): the rate on real
// files beside the generated one's.
func BenchmarkReadLeaderboard(b *testing.B) {
	dir := realdata.External(b, "tau2")
	files, _ := filepath.Glob(filepath.Join(dir, "*", "*.json"))
	var data [][]byte
	size := 0
	for _, f := range files {
		d, err := os.ReadFile(f)
		if err != nil {
			b.Fatal(err)
		}
		data, size = append(data, d), size+len(d)
	}
	b.SetBytes(int64(size))
	b.ReportAllocs()
	stop := benchdata.CPU(b)
	for b.Loop() {
		for _, d := range data {
			if res := (Source{}).Read(bytes.NewReader(d), "bench.json", source.Options{}, func(*episode.Episode) {}); res.Cut != nil {
				b.Fatal(res.Cut)
			}
		}
	}
	stop()
}
