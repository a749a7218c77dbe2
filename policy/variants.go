package policy

import (
	"fmt"
	"strings"
)

// The settings of the variants (docs/policies.md). Each is a Dimension (params.go);
// the shipped policies and window have none of them, so their behaviour and
// their String cannot change.

// ScoreMode says which score moves are progress: an enumeration stored as an
// int so that Params stays comparable and flag-friendly.
type ScoreMode int

const (
	// ScoreChanges: any change of the tracked score, up or down, as shipped.
	ScoreChanges ScoreMode = iota
	// ScoreIncrease: only a new best score (mode max); a death penalty, or
	// climbing back to a score already reached, is not progress.
	ScoreIncrease
)

// ScoreModes names the modes, by value: the spelling of --score-mode.
var ScoreModes = []string{"changes", "increase"}

func (m ScoreMode) String() string {
	if m >= 0 && int(m) < len(ScoreModes) {
		return ScoreModes[m]
	}
	return fmt.Sprintf("ScoreMode(%d)", int(m))
}

// ObjectivesOff as objective_patience: objective completions are not progress.
const ObjectivesOff = -1

// objectivePatience is K, and whether objectives are progress at all.
func (p Params) objectivePatience() (int, bool) {
	switch {
	case p.ObjectivePatience == ObjectivesOff:
		return 0, false
	case p.ObjectivePatience == 0:
		return p.MaxTurnsStuck, true // the default follows W
	}
	return p.ObjectivePatience, true
}

// minDelta is D; 0 (a Params built without it) means 1, every move.
func (p Params) minDelta() int { return max(p.MinDelta, 1) }

func (p Params) variantsUsable() error {
	switch {
	case p.ObjectivePatience < ObjectivesOff:
		return fmt.Errorf("objective_patience must be at least 1 (0: max_turns_stuck, -1: off), not %d", p.ObjectivePatience)
	case p.RoomPatience < 0:
		return fmt.Errorf("room_patience must not be negative (0: off), not %d", p.RoomPatience)
	case p.ScoreMode < 0 || int(p.ScoreMode) >= len(ScoreModes):
		return fmt.Errorf("score_mode must be one of %s, not %d", strings.Join(ScoreModes, ", "), p.ScoreMode)
	case p.MinDelta < 0:
		return fmt.Errorf("min_delta must not be negative, not %d", p.MinDelta)
	case p.MinTurns < 0:
		return fmt.Errorf("min_turns must not be negative, not %d", p.MinTurns)
	}
	return nil
}

// variantString is the tail of Policy.String: each variant setting the policy
// has and that differs from its default, in the order of Dimensions.
func (p Policy) variantString() string {
	var b strings.Builder
	if has("objective_patience", p.Name) {
		switch {
		case p.ObjectivePatience == ObjectivesOff:
			b.WriteString(" obj off")
		case p.ObjectivePatience > 0:
			fmt.Fprintf(&b, " obj %d", p.ObjectivePatience)
		}
	}
	if has("room_patience", p.Name) && p.RoomPatience > 0 {
		fmt.Fprintf(&b, " room %d", p.RoomPatience)
	}
	if has("score_mode", p.Name) && p.ScoreMode != ScoreChanges {
		b.WriteString(" " + p.ScoreMode.String())
	}
	if has("min_delta", p.Name) && p.MinDelta > 1 {
		fmt.Fprintf(&b, " delta %d", p.MinDelta)
	}
	if has("min_turns", p.Name) && p.MinTurns > 0 {
		fmt.Fprintf(&b, " warm-up %d", p.MinTurns)
	}
	b.WriteString(p.supervisorString())
	return b.String()
}

// has says whether policy n has the parameter with JSON key key.
func has(key string, n Name) bool {
	for i := range dimensions {
		if dimensions[i].Key == key {
			return dimensions[i].Has(n)
		}
	}
	return false
}
