package stats

import (
	"math/bits"
	"math/rand/v2"
)

// Draw is a uniform index in [0, n) from p, the very one, consuming the
// same numbers of p, that rand.New(p).IntN(n) gives on a 64-bit machine, so
// that a seed draws the resamples rand.Rand would: Lemire's multiply and
// reject (ACM TOMACS 29(1), 2019), on a concrete PCG rather than through
// rand.Rand's Source, whose call would take about half the bootstrap's
// drawing (docs/PERFORMANCE.md, "Many episodes"). On a 32-bit machine IntN
// takes another path; Draw does not, so a seed draws alike everywhere. n is
// above 0, as IntN's: it panics otherwise.
func Draw(p *rand.PCG, n int) int {
	if n <= 0 {
		panic("stats.Draw: n <= 0")
	}
	m := uint64(n)
	if m&(m-1) == 0 {
		return int(p.Uint64() & (m - 1))
	}
	hi, lo := bits.Mul64(p.Uint64(), m)
	if lo < m {
		for thresh := -m % m; lo < thresh; {
			hi, lo = bits.Mul64(p.Uint64(), m)
		}
	}
	return int(hi)
}
