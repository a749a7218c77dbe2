package stats

import (
	"fmt"
	"math/bits"
	"math/rand/v2"
	"testing"

	"github.com/lbanalyze/lbanalyze/internal/benchdata"
)

// TestDraw: Draw gives rand.Rand.IntN's indices from the same seed, in the
// same order, for sizes a power of two (masked), not (multiplied), and so
// near 2^62 that about a quarter of the draws are rejected and drawn again:
// 2^62+1 rejects below (2^64 − n) mod n = 2^62 − 3.
func TestDraw(t *testing.T) {
	if bits.UintSize == 32 {
		t.Skip("rand.Rand.IntN draws by 32-bit words on a 32-bit machine")
	}
	for _, size := range []uint64{1, 2, 3, 7, 1000, 1024, 75, 50_000, 1<<40 + 3, 1<<62 + 1} {
		n := int(size)
		want, p := rand.New(rand.NewPCG(1, uint64(n))), rand.NewPCG(1, uint64(n))
		for i := range 10_000 {
			if w, g := want.IntN(n), Draw(p, n); g != w {
				t.Fatalf("n %d, draw %d: Draw %d, IntN %d", n, i, g, w)
			}
		}
		// The same numbers consumed: the streams agree after them.
		if w, g := want.Uint64(), p.Uint64(); g != w {
			t.Fatalf("n %d: the streams part after the draws", n)
		}
	}
}

// BenchmarkDraw is the bootstrap's drawing of 10,000 resamples of n indices
// (the bundled 75 episodes; the 1,000 synthetic ones) into a block of 256
// resamples at most, as bootstrap draws them: by Draw, and by IntN on the
// same PCG.
func BenchmarkDraw(b *testing.B) {
	for _, n := range []int{75, 1000} {
		idx := make([]int32, min(256, max(1, (1<<20)/(4*n)))*n)
		for _, form := range []string{"Draw", "IntN"} {
			b.Run(fmt.Sprintf("n=%d/form=%s", n, form), func(b *testing.B) {
				stop := benchdata.CPU(b)
				for b.Loop() {
					p := rand.NewPCG(1, uint64(n))
					r := rand.New(p)
					for left := 10_000 * n; left > 0; left -= len(idx) {
						block := idx[:min(len(idx), left)]
						if form == "Draw" {
							for j := range block {
								block[j] = int32(Draw(p, n))
							}
						} else {
							for j := range block {
								block[j] = int32(r.IntN(n))
							}
						}
					}
				}
				stop()
			})
		}
	}
}
