package patterns

import (
	"slices"
	"sort"

	"github.com/lbanalyze/lbanalyze/internal/stats"
)

// Summary is the patterns over a dataset: the building block of the batch
// output. Every share comes with its n.
// The revisit penalty and the warnings, and their rows and leads, are left
// out (nil) when no episode was analysed for them (Options).
type Summary struct {
	Episodes int              `json:"episodes"`
	Patterns []PatternSummary `json:"patterns"`
	Leads    []LeadSummary    `json:"leads"`
	Revisit  *RevisitSummary  `json:"revisit_penalty"`
	Escape   *EscapeSummary   `json:"warning_escape"`
}

// PatternSummary: how many episodes show a pattern, of those where it can be
// measured, and the median first turn among them.
type PatternSummary struct {
	Pattern         string   `json:"pattern"` // oscillation, camping, repeat, warning, revisit_penalty, state_loop
	Episodes        int      `json:"episodes"`
	Of              int      `json:"of"`
	MedianFirstTurn *float64 `json:"median_first_turn"`
}

// LeadSummary is, for one policy, the median number of turns between each
// pattern's start and the stop, over the episodes the policy stops (n = the
// stops in whose final stuck spell the pattern occurred).
type LeadSummary struct {
	Policy      string   `json:"policy"`
	Stops       int      `json:"stops"`
	StuckSpell  MedianN  `json:"stuck_spell"`
	Warning     *MedianN `json:"warning"`
	Oscillation MedianN  `json:"oscillation"`
	Camping     MedianN  `json:"camping"`
	Repeat      MedianN  `json:"repeat"`
}

// MedianN is a median with its n; Median is null when n is 0.
type MedianN struct {
	N      int      `json:"n"`
	Median *float64 `json:"median"`
}

// RevisitSummary is Phase 1B over the dataset.
type RevisitSummary struct {
	Episodes  int     `json:"episodes"` // episodes replayed (with room ids)
	Turns     int     `json:"turns"`
	Penalised int     `json:"penalised"`
	Share     float64 `json:"share"` // Penalised / Turns: the honest figure (confidence only)
	// The comparison with the logs that ran the rule.
	Compared           int `json:"compared_episodes"`
	LoggedEvents       int `json:"logged_events"`
	Agree              int `json:"agree"`
	Disagreements      int `json:"disagreements"`
	DisagreeEpisodes   int `json:"disagreeing_episodes"`
	ConfidenceMismatch int `json:"confidence_mismatches"`
}

// EscapeSummary compares the warning escape rate of logs recorded with the
// countdown warnings (loop break v1/v2, from 2025-11-05) with the same measure
// replayed on older logs, which never showed them.
type EscapeSummary struct {
	WithWarnings    Rate `json:"with_warnings"`
	WithoutWarnings Rate `json:"without_warnings"`
	// Difference is with − without, with Newcombe's hybrid score interval
	// (method 10); null when either side has no spell.
	Difference *Interval `json:"difference"`
}

// Rate is an escape rate: warning spells that ended in progress before the
// stop, of those that ended in progress or in the stop (spells cut by the end
// of the log are counted apart). Spells of one episode are not independent:
// read the interval as a floor on the uncertainty.
type Rate struct {
	Episodes int       `json:"episodes"` // episodes in this group
	Spells   int       `json:"spells"`
	Escaped  int       `json:"escaped"`
	Stopped  int       `json:"stopped"`
	EndOfLog int       `json:"end_of_log"`
	N        int       `json:"n"`    // Escaped + Stopped
	Rate     *Interval `json:"rate"` // Wilson score interval; null when N is 0
}

// Interval is an estimate with a 95% interval.
type Interval struct {
	Estimate float64 `json:"estimate"`
	Low      float64 `json:"low"`
	High     float64 `json:"high"`
	Method   string  `json:"method"`
}

// Digest is what SummariseAll reads of an episode's Analysis: a dataset keeps
// its episodes' digests, not their analyses, which hold a few slices the
// length of the episode (docs/PERFORMANCE.md, "Memory").
type Digest struct {
	Turns int
	// The first turn of each pattern, 0 when it never shows.
	Oscillation, Camping, Repeat, Warning, Penalised, StateLoop int
	Repeats                                                     bool // some turn has a response: repeats can be told
	WarningsShown                                               bool
	// Warned and Revisited: the warnings and the revisit penalty were
	// analysed (Options.Warnings, Options.Revisit).
	Warned, Revisited                  bool
	Spells, Escaped, Stopped, EndOfLog int // of the warnings
	Revisit                            revisitDigest
	Leads                              []PolicyLead
}

// revisitDigest is Revisit without its lists.
type revisitDigest struct {
	Replayed, Recorded                                                         bool
	Turns, Penalised, LoggedEvents, Agree, Disagreements, ConfidenceMismatches int
}

// PolicyLead is a policy's lead over its stop (PolicyPatterns.Lead).
type PolicyLead struct {
	Policy string
	Lead   *Lead // nil when the policy does not stop
}

// Digest is a's digest.
func (a *Analysis) Digest() Digest {
	d := Digest{Turns: a.Turns, Oscillation: a.Oscillation.FirstTurn, Camping: a.Camping.FirstTurn,
		Repeat: a.Repeats.FirstTurn, Repeats: a.Repeats.TurnsWithResponse > 0, Penalised: a.firstPenalised(),
		StateLoop: a.StateLoops.FirstTurn, WarningsShown: a.WarningsShown}
	if w := a.Warnings; w != nil {
		d.Warned, d.Spells, d.Escaped, d.Stopped, d.EndOfLog = true, len(w.Spells), w.Escaped, w.Stopped, w.EndOfLog
		if len(w.Spells) > 0 {
			d.Warning = w.Spells[0].Start
		}
	}
	if rv := a.Revisit; rv != nil {
		d.Revisited = true
		d.Revisit = revisitDigest{rv.Replayed, rv.Recorded, rv.Turns, rv.Penalised, rv.LoggedEvents, rv.Agree, rv.DisagreementCount, rv.ConfidenceMismatches}
	}
	d.Leads = make([]PolicyLead, len(a.Policies))
	for i, pp := range a.Policies {
		d.Leads[i] = PolicyLead{pp.Policy, pp.Lead}
	}
	return d
}

// SummariseAll builds the dataset summary of the digests ds point to (any
// order; the result does not depend on it except for the order of Leads,
// which follows the policies' first appearance): a dataset of many episodes
// shares the digests that show nothing (docs/PERFORMANCE.md, "Many
// episodes").
func SummariseAll(ds []*Digest) Summary {
	s := Summary{Episodes: len(ds), Patterns: []PatternSummary{}, Leads: []LeadSummary{},
		Revisit: &RevisitSummary{}, Escape: &EscapeSummary{}}
	warned := slices.ContainsFunc(ds, func(d *Digest) bool { return d.Warned })
	revisited := slices.ContainsFunc(ds, func(d *Digest) bool { return d.Revisited })
	type col struct {
		name  string
		first []float64
		of    int
	}
	cols := []*col{{name: "oscillation"}, {name: "camping"}, {name: "repeat"}, {name: "warning"},
		{name: "revisit_penalty"}, {name: "state_loop"}}
	add := func(c *col, measurable bool, first int) {
		if !measurable {
			return
		}
		c.of++
		if first > 0 {
			c.first = append(c.first, float64(first))
		}
	}
	leads := map[string]*leadAcc{}
	var order []string
	for _, a := range ds {
		add(cols[0], a.Turns >= 4, a.Oscillation)
		add(cols[1], a.Turns > 0, a.Camping)
		add(cols[2], a.Repeats, a.Repeat)
		add(cols[3], a.Turns > 0 && a.Warned, a.Warning)
		add(cols[4], a.Revisit.Replayed, a.Penalised)
		add(cols[5], a.Turns > 0, a.StateLoop)

		rv := s.Revisit
		if a.Revisit.Replayed {
			rv.Episodes++
			rv.Turns += a.Revisit.Turns
			rv.Penalised += a.Revisit.Penalised
		}
		if a.Revisit.Replayed && (a.Revisit.Recorded || a.Revisit.LoggedEvents > 0) {
			rv.Compared++
			rv.LoggedEvents += a.Revisit.LoggedEvents
			rv.Agree += a.Revisit.Agree
			rv.Disagreements += a.Revisit.Disagreements
			if a.Revisit.Disagreements > 0 {
				rv.DisagreeEpisodes++
			}
			rv.ConfidenceMismatch += a.Revisit.ConfidenceMismatches
		}

		if a.Warned {
			r := &s.Escape.WithoutWarnings
			if a.WarningsShown {
				r = &s.Escape.WithWarnings
			}
			r.Episodes++
			r.Spells += a.Spells
			r.Escaped += a.Escaped
			r.Stopped += a.Stopped
			r.EndOfLog += a.EndOfLog
		}

		for _, pl := range a.Leads {
			acc := leads[pl.Policy]
			if acc == nil {
				acc = &leadAcc{}
				leads[pl.Policy] = acc
				order = append(order, pl.Policy)
			}
			acc.add(pl.Lead)
		}
	}
	for _, c := range cols {
		if c.name == "warning" && !warned || c.name == "revisit_penalty" && !revisited {
			continue
		}
		s.Patterns = append(s.Patterns, PatternSummary{Pattern: c.name, Episodes: len(c.first), Of: c.of, MedianFirstTurn: median(c.first)})
	}
	if s.Revisit.Turns > 0 {
		s.Revisit.Share = float64(s.Revisit.Penalised) / float64(s.Revisit.Turns)
	}
	for _, r := range []*Rate{&s.Escape.WithWarnings, &s.Escape.WithoutWarnings} {
		r.N = r.Escaped + r.Stopped
		if r.N > 0 {
			lo, hi := stats.Wilson(r.Escaped, r.N)
			r.Rate = &Interval{Estimate: float64(r.Escaped) / float64(r.N), Low: lo, High: hi, Method: "wilson"}
		}
	}
	if w, wo := s.Escape.WithWarnings, s.Escape.WithoutWarnings; w.N > 0 && wo.N > 0 {
		d, lo, hi := stats.Newcombe(w.Escaped, w.N, wo.Escaped, wo.N)
		s.Escape.Difference = &Interval{Estimate: d, Low: lo, High: hi, Method: "newcombe"}
	}
	for _, name := range order {
		l := leads[name].summary(name)
		if !warned {
			l.Warning = nil
		}
		s.Leads = append(s.Leads, l)
	}
	if !revisited {
		s.Revisit = nil
	}
	if !warned {
		s.Escape = nil
	}
	return s
}

type leadAcc struct {
	stops                       int
	spell, warn, osc, camp, rep []float64
}

func (l *leadAcc) add(ld *Lead) {
	if ld == nil {
		return
	}
	l.stops++
	l.spell = append(l.spell, float64(ld.StuckSpell))
	for _, x := range []struct {
		v  *int
		to *[]float64
	}{{ld.Warning, &l.warn}, {ld.Oscillation, &l.osc}, {ld.Camping, &l.camp}, {ld.Repeat, &l.rep}} {
		if x.v != nil {
			*x.to = append(*x.to, float64(*x.v))
		}
	}
}

func (l *leadAcc) summary(name string) LeadSummary {
	m := func(v []float64) MedianN { return MedianN{N: len(v), Median: median(v)} }
	warn := m(l.warn)
	return LeadSummary{Policy: name, Stops: l.stops, StuckSpell: m(l.spell), Warning: &warn,
		Oscillation: m(l.osc), Camping: m(l.camp), Repeat: m(l.rep)}
}

func (a *Analysis) firstPenalised() int {
	for t := 1; t < len(a.penalised); t++ {
		if a.penalised[t] {
			return t
		}
	}
	return 0
}

// median of v, nil when v is empty.
func median(v []float64) *float64 {
	if len(v) == 0 {
		return nil
	}
	s := append([]float64(nil), v...)
	sort.Float64s(s)
	m := s[len(s)/2]
	if len(s)%2 == 0 {
		m = (s[len(s)/2-1] + s[len(s)/2]) / 2
	}
	return &m
}
