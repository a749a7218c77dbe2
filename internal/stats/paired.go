package stats

import "math"

// zPower80 is the one-sided normal quantile of 80% power.
const zPower80 = 0.8416212335729143

// NewcombePaired is the difference of two proportions measured on the same
// n = a+b+c+d subjects, with Newcombe's 95% interval for paired data (his
// method 10: Newcombe 1998, "Improved confidence intervals for the
// difference between binomial proportions based on paired data", Statistics
// in Medicine 17:2635–2650). a counts the subjects positive under both, b
// under the first only, c under the second only, d under neither; the
// difference is p1 − p2 = (b − c)/n.
//
// The Wilson limits of the two marginals, (a+b)/n and (a+c)/n, are combined
// with φ, the correlation of the 2×2 table, corrected as the paper does: 0
// when a marginal total is 0; (ad − bc − n/2)/√(…), floored at 0, when ad >
// bc. b = c = 0 gives an interval around 0 as wide as the marginals' Wilson
// limits allow, never [0, 0]. n = 0 gives the whole range [−1, 1].
func NewcombePaired(a, b, c, d int) (diff, lo, hi float64) {
	n := a + b + c + d
	if n <= 0 {
		return 0, -1, 1
	}
	nn := float64(n)
	p1, p2 := float64(a+b)/nn, float64(a+c)/nn
	l1, u1 := Wilson(a+b, n)
	l2, u2 := Wilson(a+c, n)
	phi := pairedPhi(a, b, c, d)
	diff = float64(b-c) / nn
	// The two distances below and above: each the square-and-add of the
	// marginals' Wilson distances, less their covariance.
	below := math.Sqrt(max(0, sq(p1-l1)-2*phi*(p1-l1)*(u2-p2)+sq(u2-p2)))
	above := math.Sqrt(max(0, sq(u1-p1)-2*phi*(u1-p1)*(p2-l2)+sq(p2-l2)))
	return diff, max(-1, diff-below), min(1, diff+above)
}

// pairedPhi is the correlation of the 2×2 table [[a, b], [c, d]] as method 10
// uses it: 0 when a marginal total is 0 (no correlation can be estimated);
// with a positive association, its numerator ad − bc reduced by n/2 and
// floored at 0 (Newcombe 1998's continuity correction of φ, which his worked
// examples follow).
func pairedPhi(a, b, c, d int) float64 {
	den := float64(a+b) * float64(c+d) * float64(a+c) * float64(b+d)
	if den == 0 {
		return 0
	}
	num := float64(a)*float64(d) - float64(b)*float64(c)
	if num > 0 {
		num = max(0, num-float64(a+b+c+d)/2)
	}
	return num / math.Sqrt(den)
}

func sq(x float64) float64 { return x * x }

// PairedNonInferiorityN is roughly how many subjects a paired non-inferiority
// test of a new setting against the current one needs, at a one-sided 2.5%
// level (the upper bound of a 95% interval) and 80% power, when the new one
// alone is positive on a share pb of subjects, the current one alone on pc,
// and the margin is margin (shares, not percentage points):
//
//	n ≈ (z_α + z_β)² · (pb + pc) / (margin − (pb − pc))²
//
// (the sample size for McNemar-type non-inferiority with discordant shares pb
// and pc). With no discordance expected, pb + pc = 0, the formula gives 0; n
// is then, and never less than, the size at which a sample with no positive
// subject at all has the interval's upper bound within the margin: the
// Wilson upper limit of 0/n, z²/(n+z²) ≤ margin. ok is false when pb − pc is
// at or above the margin: no sample size shows non-inferiority.
func PairedNonInferiorityN(pb, pc, margin float64) (n int, ok bool) {
	// pb − pc is compared with a little slack: 0.03 − 0.01 is 0.0199…98 in
	// floating point, and a margin it equals is not met.
	if margin <= 0 || pb-pc >= margin-1e-12 || pb < 0 || pc < 0 {
		return 0, false
	}
	z2 := z95 * z95
	floor := math.Ceil(z2 * (1 - margin) / margin)
	need := sq(z95+zPower80) * (pb + pc) / sq(margin-(pb-pc))
	return int(max(floor, math.Ceil(need))), true
}
