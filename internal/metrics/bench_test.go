package metrics

import (
	"fmt"
	"math/rand/v2"
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

// BenchmarkSumRows is the bootstrap's summing of 10,000 resamples' columns
// at the sizes the sweep gives it (the bundled 75 episodes, 13 columns; the
// 1,000 synthetic episodes, 12), the indices a block of resamples as
// bootstrap draws them: by sumRows, and row by row (every column of an
// index's row, then the next index's).
func BenchmarkSumRows(b *testing.B) {
	for _, size := range []struct{ n, width int }{{75, 13}, {1000, 12}} {
		rows := make([]float64, size.n*size.width)
		for j := range rows {
			rows[j] = float64(j % 97)
		}
		block := resamplesABlock(size.n)
		idx, rng := make([]int32, block*size.n), rand.New(rand.NewPCG(BootstrapSeed, uint64(size.n)))
		for j := range idx {
			idx[j] = int32(rng.IntN(size.n))
		}
		acc := make([]float64, size.width)
		for _, form := range []struct {
			name string
			sum  func(acc, rows []float64, idx []int32)
		}{{"passes", sumRows}, {"rows", sumRowByRow}} {
			b.Run(fmt.Sprintf("n=%d/form=%s", size.n, form.name), func(b *testing.B) {
				stop := benchdata.CPU(b)
				for b.Loop() {
					for r := range Resamples {
						at := r % block * size.n
						form.sum(acc, rows, idx[at:at+size.n])
					}
				}
				stop()
			})
		}
	}
}
