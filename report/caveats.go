package report

import (
	"fmt"
	"slices"
	"strconv"

	"github.com/lbanalyze/lbanalyze/episode"
	"github.com/lbanalyze/lbanalyze/internal/metrics"
)

// What a batch report adds to the metrics of docs/semantics.md, "6.3 Dataset metrics": the caveats of censored
// outcomes, and of tokens and costs only some logs record.

// Censored counts the episodes with a censored outcome under either policy.
func (d *Dataset) Censored() (either, baseline, after int) {
	for i := range d.Episodes {
		b, a := d.Outcome(i, 0).Censored, d.Outcome(i, 1).Censored
		either += b2i(b || a)
		baseline += b2i(b)
		after += b2i(a)
	}
	return either, baseline, after
}

// markCensored marks the verdicts of the metrics on lengths when an outcome
// is censored.
func (d *Dataset) markCensored() {
	n, _, _ := d.Censored()
	if n == 0 {
		return
	}
	for i := range d.Metrics {
		if d.Metrics[i].Lengths {
			d.Metrics[i].Verdict += " (" + strconv.Itoa(n) + " censored: lengths are lower bounds)"
		}
	}
}

// MetricNotes are the notes under the metrics table.
func (d *Dataset) MetricNotes() []string {
	var notes []string
	if slices.ContainsFunc(d.Metrics, func(m metrics.Metric) bool { return m.Expected.Text != "" }) {
		notes = append(notes, "expected: the change that ZorkGPT's objective-progress specification (its section 8) expects "+
			"from its loop break v1 (score) to v2 (score-or-objective); a verdict says how the change compares (docs/semantics.md, \"6.3 Dataset metrics\").")
	}
	if n, b, a := d.Censored(); n > 0 {
		notes = append(notes, fmt.Sprintf("%d of %d episodes have a censored outcome (baseline %d, after %d): the log is cut (the "+
			"recording's own loop break, a kill) before the policy would have stopped, so their lengths are only lower bounds, and the "+
			"verdicts on average turns, turns saved and LLM calls saved (marked) rest on them.", n, len(d.Episodes), b, a))
	}
	if b, a := d.unknown(); b+a > 0 {
		notes = append(notes, fmt.Sprintf("unknown stops, the baseline's %d and the after policy's %d: the log is cut too soon after "+
			"the stop to judge it (docs/semantics.md, \"6.2 Outcome of one policy on one episode\"). The false-termination rate's high "+
			"bound counts unknown stops and censored outcomes as premature, its low bound as fine.", b, a))
	}
	k, n := 0, len(d.Episodes)
	for i := range d.Episodes {
		k += b2i(d.Episodes[i].row.signals.Has(episode.Tokens))
	}
	if k > 0 && k < n {
		notes = append(notes, fmt.Sprintf("tokens saved counts the %d of %d episodes whose logs record tokens; the others count none.", k, n))
	}
	if e := estimated(d.Episodes); e > 0 {
		notes = append(notes, fmt.Sprintf("tokens saved (and cost saved) are estimates for %d of %d episodes: their logs give a run's tokens as one count, spread evenly over its steps.", e, n))
	}
	if d.CostPerMTok > 0 && k < n {
		rest := "the others are not priced (--cost-per-call would price their LLM calls)"
		if d.CostPerCall > 0 {
			rest = fmt.Sprintf("the LLM calls of the other %d at %s a call", n-k, money(d.CostPerCall))
		}
		notes = append(notes, fmt.Sprintf("cost saved prices the tokens of the %d episodes whose logs record them at %s a million; %s.", k, money(d.CostPerMTok), rest))
	}
	return notes
}

// unknown counts the unknown stops under each policy.
func (d *Dataset) unknown() (baseline, after int) {
	for i := range d.Episodes {
		b, a := d.Outcome(i, 0), d.Outcome(i, 1)
		baseline += b2i(b.Unknown())
		after += b2i(a.Unknown())
	}
	return baseline, after
}

// estimated counts the episodes whose tokens per turn are estimates.
func estimated(eps []Episode) int {
	k := 0
	for i := range eps {
		k += b2i(eps[i].row.estimated.Has(episode.Tokens))
	}
	return k
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

// money is a price as given: "$2.5".
func money(v float64) string { return "$" + strconv.FormatFloat(v, 'f', -1, 64) }
