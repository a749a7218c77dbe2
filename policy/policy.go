// Package policy holds the loop-break policies lbanalyze replays: the rule as
// ZorkGPT shipped it (score-only, 09a7cc2; score-or-objective, 36546b7/HEAD)
// and the rule as its documents describe it (window). A Policy is a small value
// with no I/O; a Tracker steps it through one episode, turn by turn.
//
// The quirks of the shipped rule are reproduced on purpose and named where they
// are (replay-semantics.md §5.5 and §5.9).
package policy

import (
	"fmt"
	"strings"
)

// Name names a policy.
type Name string

// The policies of replay-semantics.md §6.1.
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

// Names lists every policy in a fixed order.
var Names = []Name{Score, ScoreOrObjective, Window}

// ParseName returns the policy called s.
func ParseName(s string) (Name, error) {
	for _, n := range Names {
		if string(n) == s {
			return n, nil
		}
	}
	return "", fmt.Errorf("unknown policy %q (known: %s)", s, strings.Join(nameStrings(), ", "))
}

func nameStrings() []string {
	s := make([]string, len(Names))
	for i, n := range Names {
		s[i] = string(n)
	}
	return s
}

// Params are the [tool.zorkgpt.loop_break] settings that shape termination.
type Params struct {
	MaxTurnsStuck    int `json:"max_turns_stuck"`         // W: stop when the timer reaches it
	CheckInterval    int `json:"check_interval"`          // the timer is checked when turn % CheckInterval == 0
	WarningThreshold int `json:"stuck_warning_threshold"` // the countdown warning shows from this timer value
}

// ZorkGPT's defaults; none was ever changed (replay-semantics.md §5.1).
const (
	DefaultMaxTurnsStuck    = 40
	DefaultCheckInterval    = 10
	DefaultWarningThreshold = 20
)

// DefaultParams returns ZorkGPT's defaults, 40/10 with warnings from 20.
func DefaultParams() Params {
	return Params{DefaultMaxTurnsStuck, DefaultCheckInterval, DefaultWarningThreshold}
}

// Policy is one policy with its parameters.
type Policy struct {
	Name Name
	Params
}

// String gives the short form used in tables: "score-or-objective 40/10".
func (p Policy) String() string {
	return fmt.Sprintf("%s %d/%d", p.Name, p.MaxTurnsStuck, p.CheckInterval)
}

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
	return nil
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
