package report

import (
	"fmt"
	"slices"
	"strconv"
)

// What a batch report adds to the metrics of §6.3: their price in dollars,
// and the caveat of censored outcomes.

// priceMetrics adds, when calls are priced, the cost saved beside the LLM
// calls saved: the same metric in dollars (its change, interval and verdict
// scale with it).
func (d *Dataset) priceMetrics() {
	if !d.Priced() {
		return
	}
	for i, m := range d.Metrics {
		if m.Name != "llm_calls_saved" {
			continue
		}
		c := d.CostPerCall
		m.Name, m.Label, m.Unit = "cost_saved", "cost saved", dollars
		m.Baseline, m.After, m.Change = m.Baseline*c, m.After*c, m.Change*c
		if m.CI != nil {
			m.CI = &[2]float64{m.CI[0] * c, m.CI[1] * c}
		}
		d.Metrics = slices.Insert(d.Metrics, i+1, m)
		return
	}
}

// lengthMetrics are the metrics that rest on the lengths of the episodes,
// which a censored outcome makes lower bounds.
var lengthMetrics = map[string]bool{"avg_turns_per_episode": true, "turns_saved": true, "turns_saved_pct": true,
	"llm_calls_saved": true, "cost_saved": true}

// Censored counts the episodes with a censored outcome under either policy.
func (d *Dataset) Censored() (either, baseline, after int) {
	for i := range d.Episodes {
		b, a := d.Episodes[i].Outcomes[0].Censored, d.Episodes[i].Outcomes[1].Censored
		either += int(b2f(b || a))
		baseline += int(b2f(b))
		after += int(b2f(a))
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
		if lengthMetrics[d.Metrics[i].Name] {
			d.Metrics[i].Verdict += " (" + strconv.Itoa(n) + " censored: lengths are lower bounds)"
		}
	}
}

// MetricNotes are the notes under the metrics table.
func (d *Dataset) MetricNotes() []string {
	n, b, a := d.Censored()
	if n == 0 {
		return nil
	}
	return []string{fmt.Sprintf("%d of %d episodes have a censored outcome (baseline %d, after %d): the recording's own loop break "+
		"cut the log before the policy would have stopped, so their lengths are only lower bounds, and the verdicts on "+
		"average turns, turns saved and LLM calls saved (marked) rest on them.", n, len(d.Episodes), b, a)}
}
