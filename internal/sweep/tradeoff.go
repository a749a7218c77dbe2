package sweep

import (
	"fmt"
	"math"

	"github.com/lbanalyze/lbanalyze/internal/metrics"
)

// BreakEven is the trade-off of the named change in the user's units
// (docs/commands.md, "sweep: which setting to ship"): the exchange rate, in
// turns (tokens when they rank the configs) and in dollars when priced, per
// episode stopped before a later gain (premature or unjudged, the high
// bound: a lost solve where the score is one), at which the change breaks
// even, from the bounds of its intervals against now on all n episodes. A
// change that saves more is worth shipping when such an episode is worth
// less than Rate to the user: the least it saves over the most such
// episodes it may add. A safer change (Safer), when such an episode is
// worth more than Rate: the most it may cost over the fewest it avoids.
type BreakEven struct {
	Safer bool
	// Rate is in turns (tokens) per episode; +Inf: at any rate (no more such
	// episodes at the bound, or no cost); 0: at none (no saving shown, or
	// none avoided at the bound).
	Rate float64
	// Dollars is the same in dollars, when the sweep is priced.
	Dollars *float64
	// Saved is the bound of what it saves (turns or tokens, negative for a
	// cost), Episodes the bound of the change of such episodes (n times the
	// bound of the rate's change).
	Saved, Episodes float64
}

// breakEven is the break-even of the named change of a, from its own
// comparison with now.
func (r *Result) breakEven(a *Answer) *BreakEven {
	ft, sv := metricNamed(a.Versus, "false_termination_rate"), metricNamed(a.Versus, r.savedMetric())
	if sv.CI == nil {
		return nil
	}
	// The bounds: of the change of such episodes the upper, the most it adds
	// (for a safer change minus the fewest it avoids); of what it saves the
	// lower, the least (for a safer change minus the most it costs).
	b := &BreakEven{Safer: a.Safer, Saved: sv.CI[0], Episodes: ft.CI[1] / 100 * float64(r.N)}
	b.Rate = rate(b.Saved, b.Episodes, a.Safer)
	for i := range a.Versus {
		if m := &a.Versus[i]; m.Name == "cost_saved" && m.CI != nil {
			d := rate(m.CI[0], b.Episodes, a.Safer)
			b.Dollars = &d
		}
	}
	return b
}

// rate is the break-even of saving saved over a change of episodes: for a
// change that saves more, saved ÷ episodes (+Inf when it adds none, 0 when
// it saves none); for a safer one, −saved ÷ −episodes (0 when it costs
// nothing: worth it at any value, as +Inf reads for the other way; +Inf when
// it avoids none).
func rate(saved, episodes float64, safer bool) float64 {
	if safer {
		switch {
		case episodes >= 0:
			return math.Inf(1)
		case saved >= 0:
			return 0
		}
		return saved / episodes
	}
	switch {
	case saved <= 0:
		return 0
	case episodes <= 0:
		return math.Inf(1)
	}
	return saved / episodes
}

// words says the break-even in a sentence, and the trade-off's verdict at
// --value-per-point beside the rule's.
func (b *BreakEven) words(r *Result) string {
	unit := r.rank()
	var s string
	switch {
	case !b.Safer && b.Rate == 0:
		s = fmt.Sprintf("none: the %s it saves may be none (the lower bound of its interval, %s)", unit, signed(b.Saved))
	case !b.Safer && math.IsInf(b.Rate, 1):
		s = fmt.Sprintf("ship at any value of an episode stopped before a later gain: at least %s %s saved and, at the bound of "+
			"its interval, no more such episodes", signed(b.Saved), unit)
	case !b.Safer:
		s = fmt.Sprintf("ship if a lost solve (an episode stopped before a later gain) is worth less than %s %s%s to you "+
			"(%s %s over %.1f more, the intervals' bounds)",
			num(b.Rate), unit, b.dollars(), signed(b.Saved), unit, b.Episodes)
	case math.IsInf(b.Rate, 1):
		s = "none: it may avoid no episode stopped before a later gain (the upper bound of its change is not below 0)"
	case b.Rate == 0:
		s = fmt.Sprintf("ship at any value of an episode stopped before a later gain: it avoids at least %.1f and costs no %s at the bound",
			-b.Episodes, unit)
	default:
		s = fmt.Sprintf("ship if a lost solve (an episode stopped before a later gain) is worth more than %s %s%s to you "+
			"(%s %s lost over %.1f avoided, the intervals' bounds)",
			num(b.Rate), unit, b.dollars(), num(-b.Saved), unit, -b.Episodes)
	}
	if v := r.ValuePerPoint; v > 0 {
		s += "; " + b.verdict(v, unit)
	}
	return s
}

// verdict is the trade-off's at a value of v per episode: beside the rule's
// verdict, never in its place (the calibration study has not shown a
// decision on net value sound: docs/calibration.md).
func (b *BreakEven) verdict(v float64, unit string) string {
	worth := v < b.Rate
	if b.Safer {
		worth = v > b.Rate
	}
	w := "favours the change"
	if !worth {
		w = "does not favour the change"
	}
	return fmt.Sprintf("at --value-per-point %s %s the trade-off %s, on the intervals' bounds (the verdict above is the rule's, "+
		"which the value does not change)", num(v), unit, w)
}

// dollars is the rate in dollars, in parentheses, when priced.
func (b *BreakEven) dollars() string {
	if b.Dollars == nil || math.IsInf(*b.Dollars, 0) || *b.Dollars == 0 {
		return ""
	}
	return " (" + metrics.Dollars.Format(*b.Dollars) + ")"
}

// num is a rate with three significant figures at most, without exponent.
func num(v float64) string {
	switch {
	case math.Abs(v) >= 100:
		return fmt.Sprintf("%.0f", v)
	case math.Abs(v) >= 10:
		return fmt.Sprintf("%.1f", v)
	}
	return fmt.Sprintf("%.2f", v)
}

// signed is a count with its sign: "+80".
func signed(v float64) string { return fmt.Sprintf("%+.0f", v) }
