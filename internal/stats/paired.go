package stats

import "math"

// zPower80 is the one-sided normal quantile of 80% power.
const zPower80 = 0.8416212335729143

func sq(x float64) float64 { return x * x }

// PairedMeanN is roughly how many subjects in all a paired comparison needs
// to show a mean difference of diff (> 0) at a one-sided 2.5% level with 80%
// power, from its 95% interval [lo, hi] on n subjects: the interval's
// half-width shrinks as 1/√n, so the standard error on m subjects is
// (hi − lo)/(2·z)·√(n/m), and m ≈ n·((z_α + z_β)·se/diff)². ok is false when
// diff is not positive (no sample size shows it) or the interval has no
// width.
func PairedMeanN(n int, lo, hi, diff float64) (m int, ok bool) {
	if diff <= 0 || hi <= lo || n <= 0 {
		return 0, false
	}
	se := (hi - lo) / (2 * z95)
	return int(math.Ceil(float64(n) * sq((z95+zPower80)*se/diff))), true
}

// TangoPaired is the difference of two proportions measured on the same n
// subjects, b of them positive under the first only and c under the second
// only, with Tango's 95% score interval (Tango 1998, "Equivalence test and
// confidence interval for the difference in proportions for the
// paired-sample design", Statistics in Medicine 17:891–908): the values Δ of
// the difference that its score test does not reject,
//
//	|b − c − nΔ| / √(n·(2·q(Δ) + Δ·(1 − Δ))) < z,
//
// q(Δ) the maximum-likelihood estimate, under Δ, of the share positive under
// the second only: the root (√(B² − 4AC) − B)/2A of A·q² + B·q + C with
// A = 2n, B = −b − c + (2n − b + c)·Δ, C = −c·Δ·(1 − Δ). The statistic falls
// as Δ rises, so each limit is found by bisection. b = c = 0 gives
// ±z²/(n + z²) whatever the concordant subjects: no discordant subject in n
// bounds the discordance as Wilson's interval of 0 in n does. n = 0 gives
// the whole range [−1, 1].
func TangoPaired(b, c, n int) (diff, lo, hi float64) {
	if n <= 0 {
		return 0, -1, 1
	}
	nn, fb, fc := float64(n), float64(b), float64(c)
	diff = (fb - fc) / nn
	score := func(d float64) float64 {
		bq := -fb - fc + (2*nn-fb+fc)*d
		cq := -fc * d * (1 - d)
		q := (math.Sqrt(max(0, bq*bq-8*nn*cq)) - bq) / (4 * nn)
		v := nn * (2*q + d*(1-d))
		if v <= 0 {
			return math.Copysign(math.Inf(1), fb-fc-nn*d)
		}
		return (fb - fc - nn*d) / math.Sqrt(v)
	}
	// root is the Δ in [from, to] where score(Δ) = target, score falling.
	root := func(from, to, target float64) float64 {
		for to-from > 1e-13 { // about 44 halvings of [-1, 1]
			m := (from + to) / 2
			if score(m) > target {
				from = m
			} else {
				to = m
			}
		}
		return (from + to) / 2
	}
	lo, hi = -1, 1
	if diff > -1 {
		lo = root(-1, diff, z95)
	}
	if diff < 1 {
		hi = root(diff, 1, -z95)
	}
	return diff, lo, hi
}

// PairedSettle is how many subjects in all would settle a paired comparison
// of a new setting with the current one: the upper bound of the difference
// Δ (positive under the new setting only minus under the current one only,
// as a share) below margin, at a one-sided 2.5% level with 80% power. A
// margin above 0 is non-inferiority, 0 superiority (the new setting shown
// to have fewer). It rests on a stated assumption, the discordance observed
// (b subjects positive under the new setting only, c under the current one
// only, of n), with its uncertainty: at a difference Δ and a share
// discordant at least |Δ|, the sample size of a McNemar-type test against
// the margin (docs/commands.md, "sweep: which setting to ship"),
//
//	n ≈ (z_α + z_β)² · discordance / (margin − Δ)²,
//
// never less, for a margin above 0, than the size at which no discordant
// subject bounds Δ within the margin (z²/(n+z²) ≤ margin: 189 at 2%). low
// is the count at the favourable end of Tango's interval of Δ (TangoPaired)
// and the low end of Wilson's interval of the discordance;
// high the count at the discordance observed, 0 when there is no such
// estimate (none observed, or Δ observed at or above the margin: more, or
// no count, would do). never is true only when the data show that no count
// would do: the interval's lower bound is above the margin.
func PairedSettle(b, c, n int, margin float64) (low, high int, never bool) {
	_, lo, _ := TangoPaired(b, c, n)
	if lo > margin+1e-12 {
		return 0, 0, true
	}
	// The low end takes the discordance at its Wilson lower bound too: fewer
	// discordant subjects need fewer of them in all.
	dLow, _ := Wilson(b+c, n)
	low = SettleAt(lo, max(dLow, math.Abs(lo)), margin)
	if b+c > 0 {
		delta := float64(b-c) / float64(n)
		high = SettleAt(delta, max(float64(b+c)/float64(n), math.Abs(delta)), margin)
	}
	if high > 0 && high < low {
		high = low
	}
	return low, high, false
}

// SettleAt is PairedSettle's count at a difference delta and a share
// discordant d (shares, d ≥ |delta|): how many subjects in all would show
// the difference below margin; 0 when delta is at or above the margin (no
// count would).
func SettleAt(delta, d, margin float64) int {
	if delta >= margin-1e-12 {
		return 0
	}
	need := sq(z95+zPower80) * d / sq(margin-delta)
	if margin > 0 {
		need = max(need, z95*z95*(1-margin)/margin)
	}
	if need <= 0 {
		return 0
	}
	return int(math.Ceil(need - 1e-9))
}
