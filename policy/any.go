package policy

import (
	"fmt"
	"slices"
	"strings"

	"github.com/lbanalyze/lbanalyze/episode"
)

// Any stops a run at the first of several rules that would stop it
// (docs/policies.md, "Rules combined"): --policy score:40/10+repeat:times=4.
const Any Name = "any"

func init() {
	register(Kind{Name: Any, New: newParts, Variant: true, Parts: combined, Text: anyText, Window: partsWindow,
		Description: "rules joined by +: stop at the first step where one of them stops, its reason naming it"})
}

// combos are the lists of rules Any policies hold, each once (interned): a
// Policy holds the index of its list in its first slot of its own. Index 0
// is no list.
var combos = newInterned[[]Policy]()

// combine is the policy that stops at the first of parts that stops; an
// error for fewer than two, or one that is itself a combination.
func combine(parts ...Policy) (Policy, error) {
	if len(parts) < 2 {
		return Policy{}, fmt.Errorf("any needs at least two rules, joined by +")
	}
	names := make([]string, len(parts))
	for i, p := range parts {
		if p.Kind() == nil || p.Name == Any {
			return Policy{}, fmt.Errorf("%s cannot be a part of any", p)
		}
		names[i] = fmt.Sprintf("%s%v", p.Name, p.values)
	}
	i, _ := combos.intern(strings.Join(names, "+"), func() ([]Policy, error) { return slices.Clone(parts), nil })
	p := Policy{Name: Any}
	p.values[timerSlots] = i
	return p, nil
}

// combined are the rules of an Any policy.
func combined(p Policy) []Policy {
	parts, _ := combos.at(p.values[timerSlots])
	return parts
}

// anyText writes an Any policy as its rules: "any(score 40/10, repeat)".
func anyText(p Policy) string {
	parts := combined(p)
	s := make([]string, len(parts))
	for i, q := range parts {
		s[i] = q.String()
	}
	return "any(" + strings.Join(s, ", ") + ")"
}

// combines reports whether k is a combination of rules its user gives
// (any), not a preset, whose rules are its own and written by its settings.
func (k *Kind) combines() bool { return k != nil && k.Parts != nil && !k.Preset }

// partsWindow is the longest Window of a combination's rules.
func partsWindow(p Policy) int {
	w := 0
	for _, q := range p.Kind().Parts(p) {
		w = max(w, q.Window())
	}
	return w
}

// newParts is the tracker of a policy made of others (Kind.Parts).
func newParts(p Policy) Tracker { return newFirstOf(p.Kind().Parts(p), p.Kind().Preset) }

// Nudges reports whether p nudges before it stops (then=M), or one of its
// rules does.
func (p Policy) Nudges() bool {
	if p.Get(Then) > 0 {
		return true
	}
	if k := p.Kind(); k != nil && k.Parts != nil {
		return slices.ContainsFunc(k.Parts(p), Policy.Nudges)
	}
	return false
}

// firstOf steps every rule through each turn and stops at the first that
// does, its reason naming it. optional: a rule that needs a signal the log
// lacks is left out, found at the first turn (a preset's parts: a log
// without errors simply gives its error rule nothing to see, said by the
// preset's setting that reads it).
type firstOf struct {
	parts    []Policy
	trackers []Tracker
	optional bool
	started  bool
}

func newFirstOf(parts []Policy, optional bool) *firstOf {
	f := &firstOf{parts: parts, optional: optional}
	for _, q := range parts {
		f.trackers = append(f.trackers, q.NewTracker())
	}
	return f
}

func (f *firstOf) Step(t int, o Observation) Step {
	if !f.started && f.optional {
		f.started = true
		for i := len(f.parts) - 1; i >= 0; i-- {
			if len(o.Signals.Lacking(f.parts[i].Needs())) > 0 {
				f.parts, f.trackers = append(f.parts[:i:i], f.parts[i+1:]...), append(f.trackers[:i:i], f.trackers[i+1:]...)
			}
		}
	}
	s := Step{Turn: t, Anchor: t}
	for i, tr := range f.trackers {
		q := tr.Step(t, o)
		s.Warned = s.Warned || q.Warned
		s.Checked = s.Checked || q.Checked
		s.Nudged = s.Nudged || q.Nudged
		s.Heeded = s.Heeded || q.Heeded
		if s.Reset == NoReset {
			s.Reset = q.Reset
		}
		if !s.Terminate && (q.Terminate || q.TurnsStuck > s.TurnsStuck) {
			s.Anchor, s.TurnsStuck = q.Anchor, q.TurnsStuck
		}
		if q.Terminate && !s.Terminate {
			s.Terminate, s.Reason, s.NudgedAt = true, f.parts[i].String(), q.NudgedAt
			if q.Reason != "" {
				s.Reason += ": " + q.Reason
			}
		}
	}
	return s
}

// partsNeed are the signals every rule of parts needs.
func partsNeed(parts []Policy) episode.Signals {
	var need episode.Signals
	for _, q := range parts {
		need |= q.Needs()
	}
	return need
}

// registerPreset adds a preset (docs/policies.md, "Presets"): another
// system's rules as its code runs them, a run stopping at the first of its
// Parts that stops.
func registerPreset(k Kind) {
	k.New, k.Window, k.Preset, k.Ported = newParts, partsWindow, true, true
	register(k)
}
