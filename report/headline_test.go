package report

import (
	"testing"

	"github.com/lbanalyze/lbanalyze/internal/metrics"
	"github.com/lbanalyze/lbanalyze/policy"
	"github.com/lbanalyze/lbanalyze/replay"
)

// TestHeadline: the sentence sorts the headline figures by what changed:
// significantly better or worse (the interval clear of 0, read against the
// way each figure improves), within chance, not at all; leaves out the other
// metrics; says when there are too few episodes for intervals, which
// figures are undefined, and how many lengths are lower bounds. Each
// expected sentence is written out by hand from the metrics given.
func TestHeadline(t *testing.T) {
	score := policy.Policy{Name: policy.Score}
	v2 := policy.Policy{Name: policy.ScoreOrObjective}
	ci := func(lo, hi float64) *[2]float64 { return &[2]float64{lo, hi} }
	metric := func(label string, u metrics.Unit, better int, base, after float64, interval *[2]float64) metrics.Metric {
		return metrics.Metric{Label: label, Unit: u, Headline: better != 0, Better: better, Baseline: base, After: after,
			BaselineOK: true, AfterOK: true, Change: after - base, CI: interval}
	}
	episodes := func(n, censored int) []Episode {
		eps := make([]Episode, n)
		for i := range eps {
			b, a := replay.Outcome{}, replay.Outcome{Censored: i < censored}
			eps[i].row = &row{outcomes: [2]replay.Compact{b.Compact(), a.Compact()}}
		}
		return eps
	}
	for _, tc := range []struct {
		name     string
		episodes []Episode
		metrics  []metrics.Metric
		want     string
	}{
		{"every kind of change", episodes(75, 3), []metrics.Metric{
			metric("episodes terminated", metrics.Count, 0, 47, 38, ci(-15, -4)), // not a headline figure
			metric("false-termination rate", metrics.Percent, -1, 33.33, 9.33, ci(-34.67, -14.67)),
			metric("turns saved", metrics.Count, +1, 2224, 1405, ci(-1265, -430)),
			metric("tokens saved", metrics.Count, +1, 100, 120, ci(-5, 45)),
			metric("score forgone", metrics.Count, -1, 312, 174, ci(-258, -38)),
			metric("censored outcomes", metrics.Count, -1, 0, 0, ci(0, 0)),
		}, "Over 75 episodes, after score-or-objective 40/10 against baseline score 40/10: " +
			"significantly better on false-termination rate (33.3% → 9.3%) and score forgone (312 → 174); " +
			"significantly worse on turns saved (2224 → 1405); no significant change in tokens saved (100 → 120); " +
			"unchanged: censored outcomes (0); the lengths of 3 episodes are lower bounds (censored)."},
		{"worse, for a figure that improves downwards", episodes(20, 1), []metrics.Metric{
			metric("false-termination rate", metrics.Percent, -1, 5, 20, ci(5, 25)),
			metric("turns saved", metrics.Count, +1, 100, 300, ci(50, 350)),
		}, "Over 20 episodes, after score-or-objective 40/10 against baseline score 40/10: " +
			"significantly better on turns saved (100 → 300); significantly worse on false-termination rate (5.0% → 20.0%); " +
			"the lengths of 1 episode are lower bounds (censored)."},
		{"too few for intervals", episodes(3, 0), []metrics.Metric{
			metric("false-termination rate", metrics.Percent, -1, 33.333, 0, nil),
			metric("turns saved", metrics.Count, +1, 0, 40, nil),
			metric("score forgone", metrics.Count, -1, 0, 0, nil),
		}, "Over 3 episodes, after score-or-objective 40/10 against baseline score 40/10: " +
			"false-termination rate 33.3% → 0.0%, turns saved 0 → 40 and score forgone 0 → 0; " +
			"too few episodes to tell whether a change is significant (an interval needs 5)."},
		{"undefined", episodes(10, 0), []metrics.Metric{
			metric("turns saved", metrics.Count, +1, 0, 40, ci(10, 70)),
			{Label: "mean thing", Headline: true, Better: 1, BaselineOK: false, AfterOK: true},
		}, "Over 10 episodes, after score-or-objective 40/10 against baseline score 40/10: " +
			"significantly better on turns saved (0 → 40); undefined: mean thing."},
		{"no episodes", nil, nil, "Over 0 episodes, after score-or-objective 40/10 against baseline score 40/10: nothing to compare."},
	} {
		t.Run(tc.name, func(t *testing.T) {
			d := &Dataset{Baseline: score, After: v2, Episodes: tc.episodes, Metrics: tc.metrics}
			if got := d.Headline(); got != tc.want {
				t.Errorf("got  %q\nwant %q", got, tc.want)
			}
		})
	}
}
