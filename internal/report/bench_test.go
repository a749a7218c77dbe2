package report

import (
	"testing"

	"github.com/lbanalyze/lbanalyze/internal/benchdata"
	"github.com/lbanalyze/lbanalyze/policy"
)

// BenchmarkMetrics is batch's metrics with their bootstrap intervals (10,000
// resamples) over the bundled episodes, score against score-or-objective.
func BenchmarkMetrics(b *testing.B) {
	var eps []Episode
	for _, ep := range bundledEpisodes(b) {
		eps = append(eps, Analyse(ep, []policy.Policy{score, sor}, policy.DefaultTimer(), Options{CallsPerTurn: 4}))
	}
	b.ReportAllocs()
	stop := benchdata.CPU(b)
	for b.Loop() {
		Metrics(eps, 0, 1, Options{CallsPerTurn: 4})
	}
	stop()
}
