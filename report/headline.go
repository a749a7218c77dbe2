package report

import (
	"fmt"
	"strings"

	"github.com/lbanalyze/lbanalyze/internal/metrics"
	"github.com/lbanalyze/lbanalyze/internal/textout"
)

// Headline is a batch's bottom line in one sentence: over how many episodes,
// which headline figures (Metric.Headline) the after policy changes
// significantly from the baseline's, for the better or the worse, which it
// changes within chance and which not at all, each with its two values:
//
//	Over 75 episodes, after score-or-objective 40/10 against baseline score
//	40/10: significantly better on false-termination rate (33.3% → 9.3%) and
//	score forgone (312 → 174); significantly worse on turns saved (2224 →
//	1405); no significant change in censored outcomes (0 → 3); the lengths
//	of 3 episodes are lower bounds (censored).
//
// Significant is as in the metrics table: the 95% interval of the change
// clear of 0.
func (d *Dataset) Headline() string {
	n := len(d.Episodes)
	lead := fmt.Sprintf("Over %s, after %s against baseline %s: ", textout.Count(n, "episode"), d.After, d.Baseline)
	if n == 0 {
		return lead + "nothing to compare."
	}
	var better, worse, within, same, undefined, all []string
	intervals := false
	for i := range d.Metrics {
		m := &d.Metrics[i]
		if !m.Headline {
			continue
		}
		if !m.BaselineOK || !m.AfterOK {
			undefined = append(undefined, m.Label)
			continue
		}
		values := m.Unit.Format(m.Baseline) + " → " + m.Unit.Format(m.After)
		all = append(all, m.Label+" "+values)
		intervals = intervals || m.CI != nil
		switch {
		case m.Significant() && (m.CI[0] > 0) == (m.Better > 0):
			better = append(better, m.Label+" ("+values+")")
		case m.Significant():
			worse = append(worse, m.Label+" ("+values+")")
		case m.Baseline == m.After:
			same = append(same, m.Label+" ("+m.Unit.Format(m.After)+")")
		default:
			within = append(within, m.Label+" ("+values+")")
		}
	}
	var parts []string
	if !intervals {
		// Too few episodes for any interval (MinN): the values only.
		parts = append(parts, listed(all), fmt.Sprintf("too few episodes to tell whether a change is significant (an interval needs %d)", metrics.MinN))
	} else {
		for _, g := range []struct {
			words string
			items []string
		}{{"significantly better on ", better}, {"significantly worse on ", worse}, {"no significant change in ", within}, {"unchanged: ", same}} {
			if len(g.items) > 0 {
				parts = append(parts, g.words+listed(g.items))
			}
		}
	}
	if len(undefined) > 0 {
		parts = append(parts, "undefined: "+listed(undefined))
	}
	if c, _, _ := d.Censored(); c > 0 {
		parts = append(parts, fmt.Sprintf("the lengths of %s are lower bounds (censored)", textout.Count(c, "episode")))
	}
	return lead + strings.Join(parts, "; ") + "."
}

// listed joins items as a sentence lists them: "a", "a and b", "a, b and c".
func listed(items []string) string {
	if len(items) < 2 {
		return strings.Join(items, "")
	}
	return strings.Join(items[:len(items)-1], ", ") + " and " + items[len(items)-1]
}
