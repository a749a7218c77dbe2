// Package policy holds the loop-break policies lbanalyze replays: the rule as
// ZorkGPT shipped it (score-only, 09a7cc2; score-or-objective, 36546b7/HEAD)
// and the rule as its documents describe it (window). A Policy is a small value
// with no I/O; a Tracker steps it through one episode, turn by turn.
//
// The quirks of the shipped rule are reproduced on purpose and named where they
// are (docs/semantics.md, "5.5 Semantics and quirks" and "5.9 Cases that a careful reimplementation still gets wrong").
package policy

import (
	"cmp"
	"fmt"
	"image/color"
	"slices"
	"strings"

	"github.com/lbanalyze/lbanalyze/episode"
)

// Name names a policy.
type Name string

// The policies of docs/semantics.md, "6.1 Policies".
const (
	// Score is the loop break of 09a7cc2 (and HEAD with
	// enable_objective_based_progress = false): only score changes reset the timer.
	Score Name = "score"
	// ScoreOrObjective is the loop break of 36546b7/HEAD, ZorkGPT's default today:
	// an objective completion at c resets the timer at c and again at c+1.
	ScoreOrObjective Name = "score-or-objective"
	// Window is the rule as the specification and loop_break.md describe it:
	// stop when neither the score nor an objective moved in the last W turns.
	Window Name = "window"
)

// Kind is one policy of the registry: how to build its tracker, and what users
// and the systems that may run it need to know of it.
type Kind struct {
	Name Name
	// Description is its rule in one sentence, as docs/policies.md's table
	// gives it ("The policies", TestPoliciesDocumented); a system names by
	// it a rule it has no words of its own for.
	Description string
	New         func(Policy) Tracker
	// Ported: the rule of another agent than the one lbanalyze began with,
	// replayed as that agent's code runs it (ZorkGPT2's); listed after the
	// specification's policies (Names).
	Ported bool
	// Variant: one of the variants, listed after the shipped policies and
	// window (docs/semantics.md, "6.1 Policies").
	Variant bool
	// ThresholdFree: its tracking depends on neither max_turns_stuck nor
	// stuck_check_interval (on its own settings it may), and it stops at
	// the first check turn from its warm-up (Policy.WarmUp) whose
	// TurnsStuck reaches max_turns_stuck, so a sweep may replay it once for
	// every timer of the same own settings (replay.Sweeper).
	ThresholdFree bool
	// Settings are its settings, in the order tables show them: the timer's
	// it has (TimerSettings, in their order) first, then its own, of which a
	// Policy holds at most maxOwn. A policy without settings (none) is named
	// alone.
	Settings []*Setting
	// Color is its colour in every chart and in the HTML report, no other
	// policy's: the first policies chose one of Okabe and Ito's palette,
	// told apart by people with any common colour-vision deficiency; a
	// policy that gives none is given one of a larger palette (paletteColor).
	Color color.NRGBA
	// Warning, for a policy without stuck_warning_threshold whose prompt
	// shows a countdown all the same, is how many turns stuck bring it
	// (zorkburr's ZorkburrWarning); 0 for the rest (Policy.WarningFrom).
	Warning int
	// Needs are the signals a log must record for it to be replayed as
	// defined; its settings may need more (Setting.Needs, Policy.Needs) or
	// read some where a log records them (Setting.Reads, Policy.Off).
	Needs episode.Signals
	// Clock: its rule reads nothing but when each turn ends, so it replays
	// on a run whose log records its start and end and not its steps
	// (episode.Episode.Tick); every other policy needs the agent's steps.
	Clock bool
	// Window is how many turns before a stop count as its recent past (an
	// objective completed within them makes the stop a candidate false
	// termination); nil: max_turns_stuck.
	Window func(Policy) int
	// Parts, for a policy made of others (any, a preset: docs/policies.md,
	// "Rules combined", "Presets"), are its rules: it stops at the first
	// that stops, and needs what they need — but for a Preset, whose rules
	// a log cannot feed are left out, as its settings that read their
	// signals say. Text, where set, is how it is written, in place of its
	// name and settings.
	Parts  func(Policy) []Policy
	Preset bool
	Text   func(Policy) string

	slots []*Setting // its settings by their place in a Policy's values
}

// Has reports whether the policy has setting s.
func (k *Kind) Has(s *Setting) bool { return slices.Contains(k.Settings, s) }

// slot is where a Policy of k holds s, -1 when k has no s.
func (k *Kind) slot(s *Setting) int { return slices.Index(k.slots, s) }

var registry = map[Name]*Kind{}

// register adds a policy; each policy's file registers itself.
func register(k Kind) {
	timer := 0 // how many of the timer's settings it has: they come first
	for timer < min(len(k.Settings), len(TimerSettings)) && k.Settings[timer] == TimerSettings[timer] {
		timer++
	}
	own := k.Settings[timer:]
	if len(own) > maxOwn || slices.ContainsFunc(own, func(s *Setting) bool { return slices.Contains(TimerSettings, s) }) {
		panic(fmt.Sprintf("policy %s: the timer's settings it has come first, in their order, then at most %d of its own", k.Name, maxOwn))
	}
	if k.Color == (color.NRGBA{}) {
		k.Color = paletteColor(k.Name)
	}
	k.slots = append(make([]*Setting, len(TimerSettings)), own...)
	copy(k.slots, k.Settings[:timer])
	registry[k.Name] = &k
}

func init() {
	register(Kind{Name: Score, New: newScore, ThresholdFree: true,
		Settings:    TimerSettings,
		Color:       color.NRGBA{0xD5, 0x5E, 0x00, 0xFF}, // vermillion
		Description: "only a change of the end-of-turn score, up or down, resets the timer; a change during turn 1 is never seen"})
	register(Kind{Name: ScoreOrObjective, New: newScoreOrObjective, ThresholdFree: true,
		Settings:    TimerSettings,
		Color:       color.NRGBA{0x00, 0x72, 0xB2, 0xFF}, // blue
		Needs:       episode.Signals(episode.Objectives),
		Description: "as score, and an objective completed at turn c resets the timer at c and again at c+1"})
	register(Kind{Name: Window, New: newWindow, ThresholdFree: true, Needs: episode.Signals(episode.Objectives),
		Settings:    TimerSettings,
		Color:       color.NRGBA{0xCC, 0x79, 0xA7, 0xFF}, // reddish purple
		Description: "stop when neither the score changed nor an objective was completed in the last W turns, an objective counting at its own turn"})
}

// Names lists every registered policy: those of docs/semantics.md, "6.1 Policies" (the shipped rules and
// window), then the rules of other systems (ZorkGPT2's), then the variants,
// each group in alphabetical order.
func Names() []Name {
	names := make([]Name, 0, len(registry))
	for n := range registry {
		names = append(names, n)
	}
	group := func(k *Kind) int {
		switch {
		case k.Variant:
			return 2
		case k.Ported:
			return 1
		}
		return 0
	}
	slices.SortFunc(names, func(a, b Name) int {
		return cmp.Or(cmp.Compare(group(registry[a]), group(registry[b])), strings.Compare(string(a), string(b)))
	})
	return names
}

// Lookup returns the registry's entry for a policy name.
func Lookup(n Name) (*Kind, bool) {
	k, ok := registry[n]
	return k, ok
}

// ParseName returns the policy called s.
func ParseName(s string) (Name, error) {
	if _, ok := registry[Name(s)]; ok {
		return Name(s), nil
	}
	return "", fmt.Errorf("unknown policy %q (known: %s)", s, strings.Join(nameStrings(), ", "))
}

func nameStrings() []string {
	var s []string
	for _, n := range Names() {
		s = append(s, string(n))
	}
	return s
}

// maxOwn is how many settings of its own a policy may have beside the
// timer's (the supervisor's six).
const maxOwn = 6

// Policy is one policy with its settings. It stays small and comparable: it
// is a map key, and a sweep's inner loop reads it. values holds each setting
// as its difference from the setting's default, so that Policy{Name: n} is n
// at its defaults: first the timer's (TimerSettings, at their defaults where
// the policy lacks them), then the policy's own in its Kind's order (0 past
// them). Name's Kind reads them: another policy is made with New or
// WithTimer, not by renaming one.
type Policy struct {
	Name   Name
	values [timerSlots + maxOwn]int
}

// New is policy n with the values given for the settings it has, the
// defaults for the others.
func New(n Name, given Values) Policy {
	p := Policy{Name: n}
	if k := p.Kind(); k != nil {
		for _, s := range k.Settings {
			if v, ok := given[s]; ok {
				p = p.With(s, v)
			}
		}
	}
	return p
}

// Get is p's value of s, as users give it (in steps of 1/Scale); its default
// when p's policy has no s.
func (p Policy) Get(s *Setting) int {
	if k := p.Kind(); k != nil {
		if i := k.slot(s); i >= 0 {
			return s.Default + p.values[i]
		}
	}
	return s.Default
}

// With is p with s at v, as users give it; p itself when its policy has no s.
func (p Policy) With(s *Setting, v int) Policy {
	if k := p.Kind(); k != nil {
		if i := k.slot(s); i >= 0 {
			p.values[i] = v - s.Default
		}
	}
	return p
}

// Has reports whether p's policy has s.
func (p Policy) Has(s *Setting) bool {
	k := p.Kind()
	return k != nil && k.Has(s)
}

// String gives the short form used in tables, "score-or-objective 40/10", and
// every further setting that differs from its default: "score 40/10/30" for a
// warning threshold of 30, as --policy writes it, then the policy's own
// settings, each by its label: "patience 40/10 obj 20 room 30 increase delta
// 5 warm-up 50" (Setting.shown). A policy without a stuck timer shows only its
// own settings: "supervisor", "supervisor checkpoint 50 critic 0.4".
func (p Policy) String() string {
	s := string(p.Name)
	k := p.Kind()
	if k == nil {
		return s
	}
	if k.Text != nil {
		return k.Text(p)
	}
	for _, x := range k.Settings {
		switch v := p.Get(x); x {
		case MaxTurnsStuck:
			s += fmt.Sprintf(" %d/%d", v, p.CheckInterval())
		case CheckInterval:
		case WarningThreshold:
			if v != x.Default {
				s += fmt.Sprintf("/%d", v)
			}
		default:
			s += x.shown(v)
		}
	}
	return s
}

// WarningFrom is how many turns stuck bring the countdown warning into the
// agent's prompt, where its tracker's Step.Warned turns on:
// stuck_warning_threshold, or its Kind's Warning for a policy without it.
func (p Policy) WarningFrom() int {
	if p.Has(WarningThreshold) {
		return p.WarningThreshold()
	}
	if k := p.Kind(); k != nil {
		return k.Warning
	}
	return 0
}

// Window is how many turns before a stop count as its recent past: its
// Kind's Window, else max_turns_stuck.
func (p Policy) Window() int {
	if k := p.Kind(); k != nil && k.Window != nil {
		return k.Window(p)
	}
	return p.MaxTurnsStuck()
}

// NewTracker returns a fresh tracker for one episode.
func (p Policy) NewTracker() Tracker { return registry[p.Name].New(p) }

// Kind is the registry's entry for the policy.
func (p Policy) Kind() *Kind { return registry[p.Name] }

// Usable reports a setting that cannot be replayed at all, the first in
// the order of its Kind.
func (p Policy) Usable() error {
	if k := p.Kind(); k.combines() && len(k.Parts(p)) == 0 {
		return fmt.Errorf("%s: no rules: write them joined by +", p.Name)
	}
	if k := p.Kind(); k != nil {
		for _, s := range k.Settings {
			if err := s.usable(p.Get(s)); err != nil {
				return err
			}
		}
	}
	return nil
}

// off are the settings of p that are on but read a signal a log recording
// only have lacks, so that they are off on it, and the signals they lack.
func (p Policy) Off(have episode.Signals) (keys []string, lacking []episode.Signal) {
	k := p.Kind()
	if k == nil {
		return nil, nil
	}
	var lack episode.Signals
	for _, s := range k.Settings {
		if s.Reads == 0 || have.Has(s.Reads) || s.isOff(p.Get(s)) {
			continue
		}
		keys = append(keys, s.Key)
		lack = lack.With(s.Reads)
	}
	return keys, lack.List()
}

// Needs are the signals a log must record for p to be replayed as defined:
// its kind's, and those its settings turn on (patience's objectives and
// rooms).
func (p Policy) Needs() episode.Signals {
	k := p.Kind()
	if k == nil {
		return 0
	}
	need := k.Needs
	if k.combines() {
		need |= partsNeed(k.Parts(p))
	}
	for _, s := range k.Settings {
		if s.Needs != 0 && !s.isOff(p.Get(s)) {
			need = need.With(s.Needs)
		}
	}
	return need
}
