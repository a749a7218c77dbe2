package metrics

import (
	"path/filepath"
	"testing"

	"github.com/lbanalyze/lbanalyze/internal/benchdata"
	"github.com/lbanalyze/lbanalyze/internal/corpus"
)

// BenchmarkMetrics is batch's metrics with their bootstrap intervals (10,000
// resamples) over the bundled episodes, score against score-or-objective.
func BenchmarkMetrics(b *testing.B) {
	logs, _ := filepath.Glob("../../testdata/episodes/*/episode_log.jsonl")
	eps := compared(corpus.Read(logs, corpus.Options{Jobs: 1}).Episodes)
	b.ReportAllocs()
	stop := benchdata.CPU(b)
	for b.Loop() {
		Compare(eps, Costs{CallsPerTurn: 4}, zorkGPT)
	}
	stop()
}
