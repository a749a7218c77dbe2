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

// BenchmarkCompare10k is batch's metrics over 10,000 episodes (randomPairs),
// with the normal intervals from NormalFrom episodes and, for comparison,
// with the bootstrap (10,000 resamples of 10,000 episodes) in their place.
func BenchmarkCompare10k(b *testing.B) {
	pairs := randomPairs(10_000, 13)
	for _, c := range []struct {
		name string
		from int
	}{{"normal", NormalFrom}, {"bootstrap", len(pairs) + 1}} {
		b.Run(c.name, func(b *testing.B) {
			defer func(v int) { NormalFrom = v }(NormalFrom)
			NormalFrom = c.from
			b.ReportAllocs()
			stop := benchdata.CPU(b)
			for b.Loop() {
				Compare(pairs, Costs{CallsPerTurn: 4}, zorkGPT)
			}
			stop()
		})
	}
}
