package report

import "github.com/lbanalyze/lbanalyze/replay"

// Defs are the dataset metrics of docs/semantics.md §6.3 for one price of a
// turn in LLM calls, for commands that sum them over many policies at once
// (sweep): the same definitions batch's tables use.
type Defs struct{ defs []metricDef }

// NewDefs returns the metric definitions.
func NewDefs(callsPerTurn int) Defs { return Defs{metricDefs(callsPerTurn)} }

// Len is the number of metrics.
func (d Defs) Len() int { return len(d.defs) }

// Name is metric k's JSON name, Label its words for tables.
func (d Defs) Name(k int) string  { return d.defs[k].name }
func (d Defs) Label(k int) string { return d.defs[k].label }

// Format shows a value of metric k as tables do.
func (d Defs) Format(k int, v float64) string { return d.defs[k].unit.format(v) }

// Sums are one policy's running sums over episodes: a numerator and a
// denominator a metric, and n.
type Sums struct {
	num, den []float64
	n        int
}

// NewSums returns empty sums.
func (d Defs) NewSums() Sums {
	return Sums{num: make([]float64, len(d.defs)), den: make([]float64, len(d.defs))}
}

// Add counts one episode with its outcome under the policy.
func (d Defs) Add(s *Sums, ep *replay.Episode, o *replay.Outcome) {
	s.n++
	for k := range d.defs {
		df := &d.defs[k]
		s.num[k] += df.num(ep, o)
		if df.den != nil {
			s.den[k] += df.den(ep, o)
		} else {
			s.den[k]++
		}
	}
}

// Value is metric k over the episodes added; false when it is undefined (a
// mean over no episodes).
func (d Defs) Value(s *Sums, k int) (float64, bool) {
	return d.defs[k].value(s.num[k], s.den[k])
}

// Merge adds the sums of t to s (the sums of another part of the episodes).
func (s *Sums) Merge(t *Sums) {
	s.n += t.n
	for k := range s.num {
		s.num[k] += t.num[k]
		s.den[k] += t.den[k]
	}
}
