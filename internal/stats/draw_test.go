package stats

import (
	"math/bits"
	"math/rand/v2"
	"testing"
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
