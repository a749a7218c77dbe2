package tau2

import (
	"bytes"
	"testing"

	"github.com/lbanalyze/lbanalyze/episode"
	"github.com/lbanalyze/lbanalyze/internal/benchdata"
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
