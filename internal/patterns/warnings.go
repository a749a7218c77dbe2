package patterns

import "github.com/lbanalyze/lbanalyze/policy"

// Warnings is Phase 1C: the countdown warning ZorkGPT prepends to the agent's
// prompt from stuck_warning_threshold (20) turns stuck. It is not logged: the
// spells are derived from the replay of the reference policy (the recording's
// own for v1/v2 logs), up to that policy's stop.
type Warnings struct {
	Policy    string         `json:"policy"`
	Shown     bool           `json:"shown"` // the recording showed them (loop break v1/v2)
	Threshold int            `json:"threshold"`
	Spells    []WarningSpell `json:"spells"`
	Escaped   int            `json:"escaped"`    // spells ended by progress before the stop
	Stopped   int            `json:"stopped"`    // spells ended by the stop
	EndOfLog  int            `json:"end_of_log"` // spells cut by the end of the log
}

// WarningSpell is a run of consecutive turns with the warning in the prompt.
type WarningSpell struct {
	Start int `json:"start"`
	End   int `json:"end"`
	Turns int `json:"turns"`
	// UrgentFrom and CriticalFrom are the first turns at each level, 0 if never.
	UrgentFrom   int    `json:"urgent_from"`
	CriticalFrom int    `json:"critical_from"`
	MaxLevel     string `json:"max_level"`
	MinTurnsLeft int    `json:"min_turns_left"` // the smallest "DIE in N turns"
	Outcome      string `json:"outcome"`        // escaped, stopped or end_of_log
}

// The warning levels of ZorkGPT's get_urgency_level (09a7cc2).
const (
	Important = "important" // "SCORE STAGNATION DETECTED": more than 10 turns left
	Urgent    = "urgent"    // "URGENT WARNING": at most 10 turns left
	Critical  = "critical"  // "CRITICAL EMERGENCY": at most 5 turns left
)

// Level is the urgency of a warning with turnsLeft = max_turns_stuck − turns
// stuck: critical at ≤ 5, urgent at ≤ 10, else important.
func Level(turnsLeft int) string {
	switch {
	case turnsLeft <= 5:
		return Critical
	case turnsLeft <= 10:
		return Urgent
	}
	return Important
}

var levelRank = map[string]int{Important: 1, Urgent: 2, Critical: 3}

// warnings finds the warning spells in steps (the full trace, past the stop);
// only turns up to the first stop count. It returns the warned turns too.
func warnings(steps []step, p policy.Policy, shown bool) (Warnings, []bool) {
	w := Warnings{Policy: p.String(), Shown: shown, Threshold: p.WarningThreshold(), Spells: []WarningSpell{}}
	warned := make([]bool, len(steps)+1)
	var cur *WarningSpell
	prevAnchor := 0
	for i, s := range steps {
		t := i + 1
		// The warning is built at the start of t from the timer as it was
		// after turn t−1's tracking (turn_count before the first call).
		left := p.MaxTurnsStuck() - (t - prevAnchor)
		prevAnchor = int(s.anchor)
		if !s.warned {
			continue
		}
		warned[t] = true
		if cur == nil {
			w.Spells = append(w.Spells, WarningSpell{Start: t, MinTurnsLeft: left, MaxLevel: Important})
			cur = &w.Spells[len(w.Spells)-1]
		}
		cur.End, cur.Turns = t, cur.Turns+1
		cur.MinTurnsLeft = min(cur.MinTurnsLeft, left)
		lv := Level(left)
		if lv == Urgent && cur.UrgentFrom == 0 {
			cur.UrgentFrom = t
		}
		if lv == Critical && cur.CriticalFrom == 0 {
			cur.CriticalFrom = t
			if cur.UrgentFrom == 0 {
				cur.UrgentFrom = t
			}
		}
		if levelRank[lv] > levelRank[cur.MaxLevel] {
			cur.MaxLevel = lv
		}
		switch {
		case s.terminate:
			cur.Outcome = EndStop
			w.Stopped++
		case s.reset:
			cur.Outcome = Escaped
			w.Escaped++
		case t == len(steps):
			cur.Outcome = EndOfLog
			w.EndOfLog++
		default:
			continue
		}
		cur = nil
		if s.terminate {
			break
		}
	}
	return w, warned
}
