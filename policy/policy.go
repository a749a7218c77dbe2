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
	Name        Name
	Description string // one sentence, for --help and the README
	New         func(Policy) Tracker
	// System is the system whose rule it is: ZorkGPT (its loop breaks, the
	// rule its documents describe, and lbanalyze's variants of them) or
	// ZorkGPT2 (zorkburr, supervisor). Names lists ZorkGPT's first.
	System episode.System
	// ZorkGPT is how ZorkGPT runs this policy as it is: the value of
	// enable_objective_based_progress; nil when it cannot without a code
	// change, and Change is then the smallest change to its tracker that
	// would run it, in one sentence.
	ZorkGPT *bool
	Change  string
	// ZorkGPT2: ZorkGPT2 runs it as it is, set by [tool.zorkburr]
	// (Policy.ZorkburrTOML), once its runner stops on the rule; otherwise
	// ZorkGPT2Change is the smallest change to ZorkGPT2 that would run it.
	ZorkGPT2       bool
	ZorkGPT2Change string
	// Rule is the rule in one sentence, in the words of a harness that
	// records a score per step (Policy.HarnessBlock); "" for settings that
	// need more than the score, and nil for a policy that always does.
	Rule func(Params) string
	// Offered are the systems that stop no run on a rule of their own whose
	// logs are replayed under it when no policy is asked for (Offered).
	Offered []episode.System
	// Variant: one of the variants, listed after the shipped policies and
	// window (docs/semantics.md, "6.1 Policies").
	Variant bool
	// ThresholdFree: its tracking depends on neither max_turns_stuck nor
	// stuck_check_interval, and it stops at the first check turn whose
	// TurnsStuck reaches max_turns_stuck, so a sweep may replay it once for
	// every setting (replay.Sweeper).
	ThresholdFree bool
	// Warning, for a policy without stuck_warning_threshold whose prompt
	// shows a countdown all the same, is how many turns stuck bring it
	// (zorkburr's ZorkburrWarning); 0 for the rest (Policy.WarningFrom).
	Warning int
	// Settings are the keys of the settings it has beyond the three every
	// policy has (Dimensions), and Lacks the keys of those three it has not
	// (the supervisor has no stuck timer, zorkburr no warning threshold,
	// none no setting at all: String names it alone).
	Settings []string
	Lacks    []string
	// Needs are the signals a log must record for it to be replayed as
	// defined, and SettingNeeds those its settings turn on (Policy.Needs). A
	// setting that only reads a signal where the log records it says so
	// itself (Dimension.Reads).
	Needs        episode.Signals
	SettingNeeds func(Params) episode.Signals
	// Window is how many turns before a stop count as its recent past (an
	// objective completed within them makes the stop a candidate false
	// termination); nil: max_turns_stuck.
	Window func(Params) int
}

// timer are the keys of the stuck timer's settings, which every policy has
// but those that lack them (Kind.Lacks).
var timer = []string{"max_turns_stuck", "check_interval", "stuck_warning_threshold"}

var registry = map[Name]*Kind{}

// register adds a policy; each policy's file registers itself.
func register(k Kind) { registry[k.Name] = &k }

func yes() *bool { t := true; return &t }
func no() *bool  { f := false; return &f }

// afterResults is the part of the change to ZorkGPT2 that every rule of
// ZorkGPT's needs: its check sees the counter after the turn, not the larger
// of the turn before's and this one's (docs/zorkgpt2.md, "The stuck rule").
const afterResults = "and check it once a turn, after record_results, rather than after every Burr step (zorkburr/main.py)"

func init() {
	register(Kind{Name: Score, New: newScore, ZorkGPT: no(), ThresholdFree: true,
		Offered:        []episode.System{episode.Harness, episode.ZorkGPT2},
		Rule:           func(p Params) string { return scoreRule(p, false) },
		ZorkGPT2Change: "in record_results, let a score change during turn 1 leave turns_since_progress alone, " + afterResults,
		Description:    "the loop break as shipped in 09a7cc2: only a change of the end-of-turn score, up or down, resets the timer"})
	register(Kind{Name: ScoreOrObjective, New: newScoreOrObjective, ZorkGPT: yes(), ThresholdFree: true,
		Needs:          episode.Signals(episode.Objectives),
		ZorkGPT2Change: "in record_results, let a score change during turn 1 leave turns_since_progress alone and reset it at a turn c that completes an objective and again at c+1, " + afterResults,
		Description:    "the loop break as shipped in 36546b7 (ZorkGPT's default): a score change resets the timer, and an objective completed at turn c resets it at c and again at c+1"})
	register(Kind{Name: Window, New: newWindow, ThresholdFree: true, Needs: episode.Signals(episode.Objectives),
		Description:    "the rule as ZorkGPT's documents describe it: stop when neither the score changed nor an objective was completed in the last max_turns_stuck turns",
		Change:         "anchor an objective completion at its own turn (t − completed_turn == 0) instead of within one turn, so that it counts as a score change at c rather than c+1",
		ZorkGPT2Change: "in record_results, let a score change during turn 1 leave turns_since_progress alone and reset it at a turn that completes an objective, " + afterResults})
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
		case k.System != episode.ZorkGPT:
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

	// The supervisor's settings (supervisor.go). Each field holds 0 for its
	// default and -1 for off (Dimension.Get and Set translate), so that a
	// Params built field by field has the supervisor's thresholds; JSON
	// writes them through their Dimensions, never as these fields.
	Checkpoint       int `json:"-"` // C: reviews at C, 2C, …, of the last C turns
	FlatCheckpoints  int `json:"-"` // stop when the score did not change over this many checkpoints
	MinCritic        int `json:"-"` // stop when the mean critic score is below this, in hundredths
	MaxRejectedTurns int `json:"-"` // stop when more turns than this had a rejected proposal
	SpiralRejections int `json:"-"` // stop when one turn had this many rejected proposals
	RoomStreak       int `json:"-"` // stop when this many consecutive turns ended in the same room
}

// ZorkGPT's defaults; none was ever changed (docs/semantics.md, "5.1 Timeline").
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
// (variantString). A policy without a stuck timer shows only its own
// settings: "supervisor", "supervisor checkpoint 50 critic 0.4".
func (p Policy) String() string {
	s := string(p.Name)
	if has("max_turns_stuck", p.Name) {
		s += fmt.Sprintf(" %d/%d", p.MaxTurnsStuck, p.CheckInterval)
		if p.WarningThreshold != DefaultWarningThreshold && has("stuck_warning_threshold", p.Name) {
			s += fmt.Sprintf("/%d", p.WarningThreshold)
		}
	}
	return s + p.variantString()
}

// WarningFrom is how many turns stuck bring the countdown warning into the
// agent's prompt, where its tracker's Step.Warned turns on:
// stuck_warning_threshold, or its Kind's Warning for a policy without it.
func (p Policy) WarningFrom() int {
	if has("stuck_warning_threshold", p.Name) {
		return p.WarningThreshold
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
		return k.Window(p.Params)
	}
	return p.MaxTurnsStuck
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
	if err := p.variantsUsable(); err != nil {
		return err
	}
	return p.supervisorUsable()
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

// Refusals lists why ZorkGPT would refuse p's settings (Params.Refusals),
// for a rule of ZorkGPT's with a stuck timer; none for another system's rule
// (ZorkGPT2 checks its own as --config reads it) or a policy without a timer.
func (p Policy) Refusals() []string {
	if k := p.Kind(); k != nil && k.System != episode.ZorkGPT || !has("max_turns_stuck", p.Name) {
		return nil
	}
	return p.Params.Refusals()
}
