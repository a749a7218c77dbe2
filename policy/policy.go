// Package policy holds the loop-break policies lbanalyze replays: the rule as
// ZorkGPT shipped it (score-only, 09a7cc2; score-or-objective, 36546b7/HEAD)
// and the rule as its documents describe it (window). A Policy is a small value
// with no I/O; a Tracker steps it through one episode, turn by turn.
//
// The quirks of the shipped rule are reproduced on purpose and named where they
// are (docs/semantics.md §5.5 and §5.9).
package policy

import (
	"fmt"
	"slices"
	"strings"

	"github.com/lbanalyze/lbanalyze/episode"
)

// Name names a policy.
type Name string

// The policies of docs/semantics.md §6.1.
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
// and ZorkGPT need to know of it.
type Kind struct {
	Name        Name
	Description string // one sentence, for --help and the README
	New         func(Policy) Tracker
	// ZorkGPT is how ZorkGPT runs this policy as it is: the value of
	// enable_objective_based_progress; nil when it cannot without a code change.
	ZorkGPT *bool
	// Change is, for a policy ZorkGPT cannot run, the smallest change to its
	// tracker that would run it, in one sentence.
	Change string
	// Variant: one of the variants, listed after the shipped policies and
	// window (docs/semantics.md, "6.1 Policies").
	Variant bool
	// ThresholdFree: its tracking depends on neither max_turns_stuck nor
	// stuck_check_interval, and it stops at the first check turn whose
	// TurnsStuck reaches max_turns_stuck, so a sweep may replay it once for
	// every setting (replay.Sweeper).
	ThresholdFree bool
	// Settings are the keys of the settings it has beyond the three every
	// policy has (Dimensions).
	Settings []string
	// Needs are the signals a log must record for it to be replayed as
	// defined, and SettingNeeds those its settings turn on (Policy.Needs).
	Needs        episode.Signals
	SettingNeeds func(Params) episode.Signals
	// Rule is the rule in one sentence, in the words of a harness that
	// records a score per step (Policy.HarnessBlock); "" for settings that
	// need more than the score, and nil for a policy that always does.
	Rule func(Params) string
	// Harness: a harness's log is offered it when no policy is asked for
	// (HarnessDefaults).
	Harness bool
	// Plain: no setting changes what it does, so String names it alone.
	Plain bool
}

var registry = map[Name]*Kind{}

// register adds a policy; each policy's file registers itself.
func register(k Kind) { registry[k.Name] = &k }

func yes() *bool { t := true; return &t }
func no() *bool  { f := false; return &f }

func init() {
	register(Kind{Name: Score, New: newScore, ZorkGPT: no(), ThresholdFree: true, Harness: true,
		Rule:        func(p Params) string { return scoreRule(p, false) },
		Description: "the loop break as shipped in 09a7cc2: only a change of the end-of-turn score, up or down, resets the timer"})
	register(Kind{Name: ScoreOrObjective, New: newScoreOrObjective, ZorkGPT: yes(), ThresholdFree: true,
		Needs:       episode.Signals(episode.Objectives),
		Description: "the loop break as shipped in 36546b7 (ZorkGPT's default): a score change resets the timer, and an objective completed at turn c resets it at c and again at c+1"})
	register(Kind{Name: Window, New: newWindow, ThresholdFree: true, Needs: episode.Signals(episode.Objectives),
		Description: "the rule as ZorkGPT's documents describe it: stop when neither the score changed nor an objective was completed in the last max_turns_stuck turns",
		Change:      "anchor an objective completion at its own turn (t − completed_turn == 0) instead of within one turn, so that it counts as a score change at c rather than c+1"})
}

// Names lists every registered policy: those of §6.1 (the shipped rules and
// window), then the variants, each group in alphabetical order.
func Names() []Name {
	names := make([]Name, 0, len(registry))
	for n := range registry {
		names = append(names, n)
	}
	slices.SortFunc(names, func(a, b Name) int {
		if va, vb := registry[a].Variant, registry[b].Variant; va != vb {
			if va {
				return 1
			}
			return -1
		}
		return strings.Compare(string(a), string(b))
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

// Params are the [tool.zorkgpt.loop_break] settings that shape termination,
// and the settings of the variants (variants.go). It stays comparable: it is a
// map key. The zero value of every variant setting is its default, so a Params
// built field by field still means today's behaviour.
type Params struct {
	MaxTurnsStuck    int `json:"max_turns_stuck"`         // W: stop when the timer reaches it
	CheckInterval    int `json:"check_interval"`          // the timer is checked when turn % CheckInterval == 0
	WarningThreshold int `json:"stuck_warning_threshold"` // the countdown warning shows from this timer value

	// ObjectivePatience is K, the turns an objective completion buys under
	// patience: 0 means W, ObjectivesOff that objectives are not progress.
	ObjectivePatience int `json:"objective_patience,omitempty"`
	// RoomPatience is R, the turns a first visit to a room buys under
	// patience: 0 means rooms are not progress.
	RoomPatience int `json:"room_patience,omitempty"`
	// ScoreMode says which score moves are progress (increase, patience).
	ScoreMode ScoreMode `json:"score_mode,omitempty"`
	// MinDelta is D: a score move smaller than D is not progress (increase,
	// patience). 0 means 1, every move, as shipped.
	MinDelta int `json:"min_delta,omitempty"`
	// MinTurns is M, the warm-up: no stop before turn M (increase, patience).
	MinTurns int `json:"min_turns,omitempty"`
}

// ZorkGPT's defaults; none was ever changed (docs/semantics.md §5.1).
const (
	DefaultMaxTurnsStuck    = 40
	DefaultCheckInterval    = 10
	DefaultWarningThreshold = 20
)

// DefaultParams returns ZorkGPT's defaults, 40/10 with warnings from 20.
func DefaultParams() Params {
	return Params{MaxTurnsStuck: DefaultMaxTurnsStuck, CheckInterval: DefaultCheckInterval, WarningThreshold: DefaultWarningThreshold}
}

// Policy is one policy with its parameters.
type Policy struct {
	Name Name
	Params
}

// String gives the short form used in tables, "score-or-objective 40/10", and
// every further parameter that differs from its default: "score 40/10/30" for a
// warning threshold of 30, as --policy writes it, then the variant settings the
// policy has: "patience 40/10 obj 20 room 30 increase delta 5 warm-up 50"
// (variantString).
func (p Policy) String() string {
	if k := p.Kind(); k != nil && k.Plain {
		return string(p.Name)
	}
	s := fmt.Sprintf("%s %d/%d", p.Name, p.MaxTurnsStuck, p.CheckInterval)
	if p.WarningThreshold != DefaultWarningThreshold {
		s += fmt.Sprintf("/%d", p.WarningThreshold)
	}
	return s + p.variantString()
}

// NewTracker returns a fresh tracker for one episode.
func (p Policy) NewTracker() Tracker { return registry[p.Name].New(p) }

// Kind is the registry's entry for the policy.
func (p Policy) Kind() *Kind { return registry[p.Name] }

// Usable reports a setting that cannot be replayed at all.
func (p Params) Usable() error {
	if p.MaxTurnsStuck < 1 {
		return fmt.Errorf("max_turns_stuck must be at least 1, not %d", p.MaxTurnsStuck)
	}
	if p.CheckInterval < 1 {
		return fmt.Errorf("stuck_check_interval must be at least 1, not %d", p.CheckInterval)
	}
	if p.WarningThreshold < 0 {
		return fmt.Errorf("stuck_warning_threshold must not be negative, not %d", p.WarningThreshold)
	}
	return p.variantsUsable()
}

// Refusals lists why ZorkGPT's GameConfiguration would refuse these settings
// (its pydantic bounds and its two model validators), each naming the key.
// lbanalyze still replays them: a what-if may go where ZorkGPT cannot.
func (p Params) Refusals() []string {
	var r []string
	bound := func(key string, v, lo, hi int) {
		if v < lo || v > hi {
			r = append(r, fmt.Sprintf("%s = %d is outside ZorkGPT's range %d..%d", key, v, lo, hi))
		}
	}
	bound("max_turns_stuck", p.MaxTurnsStuck, 1, 1000)
	bound("stuck_check_interval", p.CheckInterval, 1, 100)
	bound("stuck_warning_threshold", p.WarningThreshold, 5, 100)
	if p.MaxTurnsStuck < p.CheckInterval {
		r = append(r, fmt.Sprintf("max_turns_stuck (%d) must be >= stuck_check_interval (%d)", p.MaxTurnsStuck, p.CheckInterval))
	}
	if p.WarningThreshold >= p.MaxTurnsStuck {
		r = append(r, fmt.Sprintf("stuck_warning_threshold (%d) must be < max_turns_stuck (%d)", p.WarningThreshold, p.MaxTurnsStuck))
	}
	return r
}
