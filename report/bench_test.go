package report

import (
	"path/filepath"
	"testing"

	"github.com/lbanalyze/lbanalyze/internal/benchdata"
	"github.com/lbanalyze/lbanalyze/policy"
	"github.com/lbanalyze/lbanalyze/replay"
)

// BenchmarkMetrics is batch's metrics with their bootstrap intervals (10,000
// resamples) over the bundled episodes, score against score-or-objective.
func BenchmarkMetrics(b *testing.B) {
	logs, _ := filepath.Glob("../testdata/episodes/*/episode_log.jsonl")
	var eps []Episode
	for _, f := range logs {
		lg, err := replay.ReadFile(f, nil, replay.Options{})
		if err != nil {
			b.Fatal(err)
		}
		for _, ep := range lg.Episodes {
			eps = append(eps, Analyse(ep, []policy.Policy{score, sor}, policy.DefaultParams(), 4))
		}
	}
	if len(eps) < 70 {
		b.Fatalf("%d episodes", len(eps))
	}
	b.ReportAllocs()
	stop := benchdata.CPU(b)
	for b.Loop() {
		Metrics(eps, 0, 1, 4)
	}
	stop()
}
