package metrics

import (
	"math"
	"math/rand/v2"
	"runtime"
	"sync"

	"github.com/lbanalyze/lbanalyze/internal/stats"
)

// Bootstrap settings: fixed, so that the same episodes give the same intervals.
const (
	Resamples     = 10_000
	BootstrapSeed = 1
	// MinN is the smallest number of episodes an interval is given for (with
	// fewer, percentiles of a resampled statistic say little).
	MinN = 5
)

// NormalFrom is the fewest episodes from which a sum's or a mean's interval
// is the normal one of its linearisation, not the bootstrap's, where
// Cochran's rule holds for it (docs/semantics.md, "6.3 Dataset metrics").
// A variable so that the calibration study can try it at smaller n.
var NormalFrom = 1000

// intervals gives the 95% intervals of every metric's change (ci), relative
// change in % (pct), and each policy's value (sides: baseline, after), and
// how each metric's were made (method): the normal ones from NormalFrom
// episodes where they are accurate, else the paired bootstrap's. fill writes
// episode i's numerators and denominators of metric k into r: baseline num,
// den, after num, den. A metric's column is made, and tried for the normal
// interval, one metric at a time: of many episodes, every metric's at once
// would take a few tens of MiB (docs/PERFORMANCE.md, "Many episodes").
func intervals(defs []entry, n int, fill func(i, k int, r []float64)) (ci, pct []*[2]float64, sides [][2]*[2]float64, method []Method) {
	ci, pct, sides = make([]*[2]float64, len(defs)), make([]*[2]float64, len(defs)), make([][2]*[2]float64, len(defs))
	method = make([]Method, len(defs))
	var boot []int // the metrics the bootstrap takes
	var col []float64
	if n >= NormalFrom {
		col = make([]float64, 4*n)
	}
	for k := range defs {
		method[k] = PairedNormal
		if n >= NormalFrom {
			for i := range n {
				fill(i, k, col[4*i:][:4])
			}
		}
		if n < NormalFrom || !normal(&defs[k], col, 4, 0, &ci[k], &pct[k], &sides[k]) {
			method[k] = PairedBootstrap
			boot = append(boot, k)
		}
	}
	if len(boot) == 0 {
		return ci, pct, sides, method
	}
	col = nil
	sub, cols := make([]entry, len(boot)), make([]float64, n*4*len(boot))
	for j, k := range boot {
		sub[j] = defs[k]
		for i := range n {
			fill(i, k, cols[i*4*len(boot)+4*j:][:4])
		}
	}
	bci, bpct, bsides := bootstrap(sub, n, cols)
	for j, k := range boot {
		ci[k], pct[k], sides[k] = bci[j], bpct[j], bsides[j]
	}
	return ci, pct, sides, method
}

// SumIntervals gives, for each row of x (a value an episode), the 95%
// interval of its sum over the episodes, as intervals gives a sum's: every
// row on the same resamples; nil below MinN episodes.
func SumIntervals(x [][]float64) []*[2]float64 {
	out := make([]*[2]float64, len(x))
	if len(x) == 0 || len(x[0]) < MinN {
		return out
	}
	defs := make([]entry, len(x))
	for c := range defs {
		defs[c] = entry{scale: 1} // a sum: scale·Σnum
	}
	_, _, sides, _ := intervals(defs, len(x[0]), func(i, c int, r []float64) {
		r[0], r[2] = x[c][i], x[c][i] // both sides the row: its value's interval
	})
	for c := range out {
		out[c] = sides[c][1]
	}
	return out
}

// normal sets the normal intervals of metric d, whose columns in rows (width
// full) start at c: each statistic ± z times its standard error, from its
// linearisation at each episode (the delta method), which the bootstrap's
// percentiles approach as n grows. False, and nothing set, when Cochran's
// rule fails for some statistic (too skewed for n).
func normal(d *entry, rows []float64, full, c int, ci, pct **[2]float64, sides *[2]*[2]float64) bool {
	n := len(rows) / full
	var sum [4]float64
	for i := range n {
		for j := range 4 {
			sum[j] += rows[i*full+c+j]
		}
	}
	b, okb := d.value(sum[0], sum[1])
	a, oka := d.value(sum[2], sum[3])
	if !okb || !oka {
		return true // undefined on every resample too: no interval
	}
	gb, ga := d.gradient(sum[0], sum[1]), d.gradient(sum[2], sum[3])
	lb, la, lc, lp := make([]float64, n), make([]float64, n), make([]float64, n), make([]float64, n)
	for i := range n {
		r := rows[i*full+c:][:4]
		lb[i] = gb[0]*r[0] + gb[1]*r[1]
		la[i] = ga[0]*r[2] + ga[1]*r[3]
		lc[i] = la[i] - lb[i]
		if b != 0 {
			lp[i] = 100 * (la[i]/b - a*lb[i]/(b*b))
		}
	}
	var out [4]*[2]float64
	for s, st := range []struct {
		value float64
		l     []float64
	}{{b, lb}, {a, la}, {a - b, lc}, {100 * (a - b) / b, lp}} {
		if s == 3 && b == 0 {
			break
		}
		lo, hi, ok := stats.Normal(st.value, st.l)
		if !ok {
			return false
		}
		out[s] = &[2]float64{lo, hi}
	}
	*sides, *ci, *pct = [2]*[2]float64{out[0], out[1]}, out[2], out[3]
	return true
}

// gradient is the value's derivatives by its summed numerator and
// denominator, where value is defined.
func (d *entry) gradient(num, den float64) [2]float64 {
	if d.den != nil || d.perEpisode {
		return [2]float64{d.scale / den, -d.scale * num / (den * den)}
	}
	return [2]float64{d.scale, 0}
}

// bootstrap gives the paired bootstrap intervals of every metric's change
// (ci), relative change in % (pct), and each policy's value (sides: baseline,
// after). all holds episode i's numerators and denominators at
// [4·len(defs)·i, 4·len(defs)·(i+1)), 4 a metric: baseline num, den, after
// num, den.
//
// The resamples are those of one stream of random indices (deterministic, and
// paired: the same episodes for every metric and both policies), drawn in
// order by one goroutine in blocks and evaluated in parallel: one pass over a
// resample's indices sums every metric at once, in the indices' order, so
// each statistic is the very float a resample at a time gives. The two
// percentiles are selected, not sorted for.
func bootstrap(defs []entry, n int, all []float64) (ci, pct []*[2]float64, sides [][2]*[2]float64) {
	full := 4 * len(defs)
	// Columns equal on every episode (the denominators of 1, the numerators
	// several metrics share) are summed once: the same floats, added in the
	// same order, so the same sums.
	col := make([]int, full) // a column's unique column
	var uniq []int           // the unique columns' first instance
	for j := range full {
		col[j] = -1
		for u, k := range uniq {
			same := true
			for i := range n {
				if math.Float64bits(all[i*full+j]) != math.Float64bits(all[i*full+k]) {
					same = false
					break
				}
			}
			if same {
				col[j] = u
				break
			}
		}
		if col[j] < 0 {
			col[j] = len(uniq)
			uniq = append(uniq, j)
		}
	}
	width := len(uniq)
	rows := make([]float64, n*width)
	for i := range n {
		for u, j := range uniq {
			rows[i*width+u] = all[i*full+j]
		}
	}
	// Per metric and resample: the change and the relative change, and
	// whether each is defined.
	changes, pcts := make([][]float64, len(defs)), make([][]float64, len(defs))
	okc, okp := make([][]bool, len(defs)), make([][]bool, len(defs))
	side := make([][2][]float64, len(defs)) // each policy's value, defined where okc is
	for k := range defs {
		changes[k], pcts[k] = make([]float64, Resamples), make([]float64, Resamples)
		okc[k], okp[k] = make([]bool, Resamples), make([]bool, Resamples)
		side[k] = [2][]float64{make([]float64, Resamples), make([]float64, Resamples)}
	}
	block := resamplesABlock(n)
	type job struct {
		first int     // the first resample of the block
		idx   []int32 // its indices, n a resample
	}
	workers := max(1, runtime.GOMAXPROCS(0))
	jobs, free := make(chan job, workers), make(chan []int32, 2*workers)
	for range 2 * workers {
		free <- make([]int32, block*n)
	}
	go func() {
		rng := rand.New(rand.NewPCG(BootstrapSeed, uint64(n)))
		for first := 0; first < Resamples; first += block {
			count := min(block, Resamples-first)
			idx := (<-free)[:count*n]
			for j := range idx {
				idx[j] = int32(rng.IntN(n))
			}
			jobs <- job{first, idx}
		}
		close(jobs)
	}()
	var wg sync.WaitGroup
	for range workers {
		wg.Go(func() {
			acc := make([]float64, width)
			for jb := range jobs {
				for r := 0; r*n < len(jb.idx); r++ {
					sumRows(acc, rows, jb.idx[r*n:(r+1)*n])
					res := jb.first + r
					for k := range defs {
						b, okb := defs[k].value(acc[col[4*k]], acc[col[4*k+1]])
						a, oka := defs[k].value(acc[col[4*k+2]], acc[col[4*k+3]])
						if !okb || !oka {
							continue
						}
						changes[k][res], okc[k][res] = a-b, true
						side[k][0][res], side[k][1][res] = b, a
						if b != 0 {
							pcts[k][res], okp[k][res] = 100*(a-b)/b, true
						}
					}
				}
				free <- jb.idx[:cap(jb.idx)]
			}
		})
	}
	wg.Wait()
	ci, pct, sides = make([]*[2]float64, len(defs)), make([]*[2]float64, len(defs)), make([][2]*[2]float64, len(defs))
	for k := range defs {
		for s := range 2 {
			sides[k][s] = percentiles(compact(side[k][s], okc[k]))
		}
		ci[k] = percentiles(compact(changes[k], okc[k]))
		pct[k] = percentiles(compact(pcts[k], okp[k]))
	}
	return ci, pct, sides
}

// resamplesABlock is how many resamples of n episodes a block of indices
// holds: up to 256, and up to a MiB, as their n indices a resample would
// otherwise take a kilobyte an episode for each block in flight. The
// resamples are drawn in the same order whatever the blocks.
func resamplesABlock(n int) int { return min(256, max(1, (1<<20)/(4*n))) }

// sumRows sets acc[j] to the sum of column j of rows (len(acc) wide) over
// the rows idx lists, added in idx's order from 0: eight columns at a pass
// of idx, then four, then one, their sums held in registers rather than
// stored and loaded again at every row, which nearly halves the
// bootstrap's summing (BenchmarkSumRows; docs/PERFORMANCE.md, "Many
// episodes"). Each column's sum is the same float as one added a row at a
// time.
func sumRows(acc, rows []float64, idx []int32) {
	width, j := len(acc), 0
	for ; j+8 <= width; j += 8 {
		var a0, a1, a2, a3, a4, a5, a6, a7 float64
		for _, i := range idx {
			x := rows[int(i)*width+j:][:8]
			a0, a1, a2, a3 = a0+x[0], a1+x[1], a2+x[2], a3+x[3]
			a4, a5, a6, a7 = a4+x[4], a5+x[5], a6+x[6], a7+x[7]
		}
		acc[j], acc[j+1], acc[j+2], acc[j+3] = a0, a1, a2, a3
		acc[j+4], acc[j+5], acc[j+6], acc[j+7] = a4, a5, a6, a7
	}
	for ; j+4 <= width; j += 4 {
		var a0, a1, a2, a3 float64
		for _, i := range idx {
			x := rows[int(i)*width+j:][:4]
			a0, a1, a2, a3 = a0+x[0], a1+x[1], a2+x[2], a3+x[3]
		}
		acc[j], acc[j+1], acc[j+2], acc[j+3] = a0, a1, a2, a3
	}
	for ; j < width; j++ {
		var a float64
		for _, i := range idx {
			a += rows[int(i)*width+j]
		}
		acc[j] = a
	}
}

// compact keeps the values of x that ok marks, in order.
func compact(x []float64, ok []bool) []float64 {
	out := x[:0]
	for r, v := range x {
		if ok[r] {
			out = append(out, v)
		}
	}
	return out
}

// percentiles gives the 2.5th and 97.5th percentiles, or nil when fewer than
// half the resamples defined the statistic.
func percentiles(x []float64) *[2]float64 {
	if len(x) < Resamples/2 {
		return nil
	}
	p := stats.Percentiles(x)
	return &p
}
