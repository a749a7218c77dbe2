package replay

import (
	"fmt"
	"math"
	"slices"

	"github.com/lbanalyze/lbanalyze/episode"
	"github.com/lbanalyze/lbanalyze/policy"
)

// SelfCheck compares a replay with the loop-break events the recording wrote
// itself (logs from 2025-11-05 on): the score_change and
// objective_progress_reset turns (which fully reconstruct the timer, docs/semantics.md, "5.5 Semantics and quirks"
// item 5) and the stuck_termination turn and turns_stuck.
type SelfCheck struct {
	// Policy is the shipped policy whose replay reproduces every recorded reset,
	// "" when neither does.
	Policy policy.Name
	// Mismatches are the first differences, when no policy reproduces them.
	Mismatches []string
	// Timer is the settings the recording is assumed to have run with
	// (ZorkGPT's defaults, or --config), and Replayed what Policy does with them.
	Timer policy.Timer
	// ReplayedTurn and ReplayedStuck are where Policy at Timer stops (0: never).
	ReplayedTurn, ReplayedStuck int
	// TerminationMatch: the replay at Timer stops where the recording stopped
	// (with the same turns_stuck), or neither stops.
	TerminationMatch bool
	// Consistent lists, per check interval, the max_turns_stuck values that
	// the system that ran the log accepts and that reproduce the recording's
	// end.
	Consistent []Consistent
	// DefaultsConsistent: 40/10 is among them.
	DefaultsConsistent bool
	// CounterOnly: the recording kept the rule's counter but did not stop on
	// it (episode.Recorded.CounterOnly): the replayed stop is what the rule
	// would have done, not a check of the recording, and no setting is
	// inferred from the end.
	CounterOnly bool
}

// Consistent is a range of max_turns_stuck for one stuck_check_interval.
type Consistent struct {
	CheckInterval    int `json:"check_interval"`
	MaxTurnsStuckMin int `json:"max_turns_stuck_min"`
	MaxTurnsStuckMax int `json:"max_turns_stuck_max"`
}

// Recorder is what a self-check needs of the system that ran a log: Rules,
// the policies its recordings may have run, most likely first, for a log that
// records a stop rule's events but not which rule; and Accepts, whether its
// configuration takes max_turns_stuck w with check interval i: among those
// settings Check finds the ones consistent with a recorded stop.
type Recorder struct {
	Rules   []policy.Name
	Accepts func(w, i int) bool
}

// Check runs the self-check of ep, recorded by sys, with the assumed
// settings timer; nil when the log holds no loop-break event of its own.
func Check(ep *episode.Episode, timer policy.Timer, sys Recorder) *SelfCheck {
	rec := ep.Recorded
	if !rec.Any() {
		return nil
	}
	candidates := slices.Clone(sys.Rules)
	if len(rec.Rules) > 0 {
		candidates = candidates[:0]
		for _, r := range rec.Rules {
			candidates = append(candidates, policy.Name(r))
		}
	}
	if len(candidates) == 0 {
		return nil // a system with no rule of its own recorded none
	}
	want := recordedResets(rec)
	sc := &SelfCheck{Timer: timer, CounterOnly: rec.CounterOnly}
	var stuck []int
	for i, name := range candidates {
		got, st := resets(ep, name, rec.Through)
		if slices.Equal(got, want) {
			sc.Policy, stuck = name, st
			break
		}
		if i == 0 {
			sc.Mismatches = diffResets(want, got)
			stuck = st
		}
	}
	if sc.Policy != "" {
		sc.Mismatches = nil
	}
	name := sc.Policy
	if name == "" {
		name = candidates[0]
	}
	out := Run(ep, policy.Policy{Name: name}.WithTimer(timer))
	sc.ReplayedTurn, sc.ReplayedStuck = out.TerminationTurn, out.TurnsStuck
	if st := rec.Stop; st != nil {
		sc.TerminationMatch = out.TerminationTurn == st.Turn && out.TurnsStuck == st.TurnsStuck
	} else {
		sc.TerminationMatch = !out.Terminated()
	}
	if rec.CounterOnly {
		return sc
	}
	sc.Consistent = consistent(stuck, rec.Stop, sys.Accepts)
	for _, c := range sc.Consistent {
		if c.CheckInterval == policy.DefaultCheckInterval &&
			c.MaxTurnsStuckMin <= policy.DefaultMaxTurnsStuck && policy.DefaultMaxTurnsStuck <= c.MaxTurnsStuckMax {
			sc.DefaultsConsistent = true
		}
	}
	return sc
}

// reset is one timer reset: its turn and kind.
type reset struct {
	turn int
	kind policy.Reset
}

func recordedResets(rec episode.Recorded) []reset {
	var r []reset
	for _, c := range rec.Resets {
		r = append(r, reset{c.Turn, resetKind(c.Kind)})
	}
	slices.SortFunc(r, func(a, b reset) int { return a.turn - b.turn })
	return r
}

// resets replays name with no termination and returns its resets up to turn
// through (0: all) and the timer after each turn (stuck[t] = t − anchor,
// index t).
func resets(ep *episode.Episode, name policy.Name, through int) ([]reset, []int) {
	never := policy.Policy{Name: name}.WithTimer(policy.Timer{MaxTurnsStuck: math.MaxInt, CheckInterval: 1, WarningThreshold: math.MaxInt})
	var r []reset
	stuck := make([]int, ep.N()+1)
	Trace(ep, never, func(s policy.Step) {
		if s.Reset != policy.NoReset && (through == 0 || s.Turn <= through) {
			r = append(r, reset{s.Turn, s.Reset})
		}
		stuck[s.Turn] = s.TurnsStuck
	})
	return r, stuck
}

func diffResets(want, got []reset) []string {
	var d []string
	inWant, inGot := map[reset]bool{}, map[reset]bool{}
	for _, x := range want {
		inWant[x] = true
	}
	for _, x := range got {
		inGot[x] = true
	}
	for _, x := range want {
		if !inGot[x] {
			d = append(d, fmt.Sprintf("recorded %s at turn %d, not in the replay", x.kind, x.turn))
		}
	}
	for _, x := range got {
		if !inWant[x] {
			d = append(d, fmt.Sprintf("replay resets (%s) at turn %d, not recorded", x.kind, x.turn))
		}
	}
	slices.Sort(d)
	if len(d) > 5 {
		d = append(d[:5], fmt.Sprintf("… and %d more", len(d)-5))
	}
	return d
}

// consistent finds, per stuck_check_interval, the max_turns_stuck values that
// reproduce the end of the recording: a stop at the recorded turn and at no
// check turn before it, or no stop at all. Only settings the system accepts
// count (ZorkGPT: interval 1..100, max_turns_stuck up to 1000, at least the
// interval and above a warning threshold of at least 5). Without a recorded
// stop every interval is consistent with large enough values: only the
// default interval is listed, up to maxListed.
func consistent(stuck []int, st *episode.Stop, accepts func(w, i int) bool) []Consistent {
	n := len(stuck) - 1
	var out []Consistent
	for iv := 1; iv <= n; iv++ {
		last, hi := n, maxListed
		if st != nil {
			if st.Turn%iv != 0 || st.Turn > n {
				continue
			}
			last, hi = st.Turn-1, stuck[st.Turn]
		} else if iv != policy.DefaultCheckInterval {
			continue
		}
		lo := 1
		for t := iv; t <= last; t += iv {
			lo = max(lo, stuck[t]+1)
		}
		for ; accepts != nil && lo <= hi && !accepts(lo, iv); lo++ {
		}
		for ; accepts != nil && hi >= lo && !accepts(hi, iv); hi-- {
		}
		if lo <= hi {
			out = append(out, Consistent{iv, lo, hi})
		}
	}
	return out
}

// maxListed is the largest max_turns_stuck a self-check lists without a
// recorded stop, whose end any larger value reproduces too.
const maxListed = 1000

// resetKind is the tracker's name for a recorded kind of reset.
func resetKind(k episode.ResetKind) policy.Reset {
	for _, r := range []policy.Reset{policy.ScoreChange, policy.ObjectiveProgress, policy.RoomProgress} {
		if r.String() == string(k) {
			return r
		}
	}
	return policy.NoReset
}
