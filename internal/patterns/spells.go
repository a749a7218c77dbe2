package patterns

import (
	"github.com/lbanalyze/lbanalyze/episode"
	"github.com/lbanalyze/lbanalyze/policy"
)

// How a stuck spell or a warning spell ended.
const (
	EndProgress = "progress"   // the policy's timer was reset (score change, objective)
	EndStop     = "stop"       // the policy stopped the episode in the spell
	EndOfLog    = "end_of_log" // the log ends first: the outcome is unknown
	Escaped     = "escaped"    // a warning spell that ended in progress before the stop
)

// PolicyPatterns is what one policy makes of an episode.
type PolicyPatterns struct {
	Policy string `json:"policy"`
	// StopTurn is the policy's termination turn, 0 when it never stops within the log.
	StopTurn int `json:"stop_turn"`
	// Spells are the stuck spells of at least Options.MinSpell turns, over the
	// whole log (those after the stop are marked after_stop).
	Spells      []Spell `json:"stuck_spells"`
	ShortSpells int     `json:"short_spells"` // spells shorter than Options.MinSpell, not listed
	Longest     int     `json:"longest_spell"`
	// Lead: how many turns before the stop each pattern began in the spell the
	// stop ends; nil when the policy does not stop.
	Lead *Lead `json:"lead"`
}

// Spell is a stuck spell: a maximal run of turns without progress, as the
// policy counts progress (turns whose tracking reset the timer are progress).
type Spell struct {
	Start  int           `json:"start"`
	End    int           `json:"end"` // the stop turn when the spell ended in a stop
	Length int           `json:"length"`
	Score  episode.Score `json:"score"` // the score during the spell
	// RoomsVisited counts distinct rooms: the one at the start and every room
	// reached during the spell.
	RoomsVisited int    `json:"rooms_visited"`
	Ended        string `json:"ended"` // progress, stop or end_of_log
	// LoggedEnd is where the spell ends in the logged run, which may go on past
	// a stop (equal to End otherwise).
	LoggedEnd int  `json:"logged_end"`
	AfterStop bool `json:"after_stop"` // the spell starts after the policy's stop
	// Checks are the check turns within the logged spell at which the timer
	// was at or over max_turns_stuck: every point where the policy would stop.
	Checks []int `json:"over_threshold_checks"`
}

// Lead gives, for a policy's stop at T, T − (first turn of each pattern in
// the stuck spell the stop ends); 0 means the pattern began on the stop
// turn, null that it did not occur in that spell.
type Lead struct {
	StopTurn    int  `json:"stop_turn"`
	StuckSpell  int  `json:"stuck_spell"`
	Warning     *int `json:"warning"` // the policy's own countdown warning
	Oscillation *int `json:"oscillation"`
	Camping     *int `json:"camping"`
	Repeat      *int `json:"repeat"`
}

func (a *Analysis) policyPatterns(ep *episode.Episode, r *rooms, p policy.Policy, opt Options) PolicyPatterns {
	steps := trace(ep, p)
	pp := PolicyPatterns{Policy: p.String(), Spells: []Spell{}}
	for i, s := range steps {
		if s.terminate {
			pp.StopTurn = i + 1
			break
		}
	}
	n := len(steps)
	for t := 1; t <= n; {
		if steps[t-1].reset {
			t++
			continue
		}
		start := t
		for t <= n && !steps[t-1].reset {
			t++
		}
		sp := Spell{Start: start, LoggedEnd: t - 1, End: t - 1, Score: ep.Score(start), Checks: []int{}}
		switch {
		case pp.StopTurn >= start && pp.StopTurn <= sp.LoggedEnd:
			sp.Ended, sp.End = EndStop, pp.StopTurn
		case t > n:
			sp.Ended = EndOfLog
		default:
			sp.Ended = EndProgress
		}
		sp.AfterStop = pp.StopTurn > 0 && start > pp.StopTurn
		sp.Length = sp.End - sp.Start + 1
		seen := map[int]bool{r.at[start]: true}
		for u := start; u <= sp.End; u++ {
			seen[r.after[u]] = true
		}
		sp.RoomsVisited = len(seen)
		for u := start; u <= sp.LoggedEnd; u++ {
			if steps[u-1].terminate {
				sp.Checks = append(sp.Checks, u)
			}
		}
		pp.Longest = max(pp.Longest, sp.Length)
		if sp.Length < opt.MinSpell && sp.Ended != EndStop {
			pp.ShortSpells++
		} else {
			pp.Spells = append(pp.Spells, sp)
		}
		if sp.Ended == EndStop {
			pp.Lead = a.lead(steps, sp)
		}
	}
	return pp
}

func (a *Analysis) lead(steps []step, sp Spell) *Lead {
	T := sp.End
	l := &Lead{StopTurn: T, StuckSpell: T - sp.Start}
	first := func(on func(t int) bool) *int {
		for t := sp.Start; t <= T; t++ {
			if on(t) {
				v := T - t
				return &v
			}
		}
		return nil
	}
	if a.Warnings != nil {
		l.Warning = first(func(t int) bool { return steps[t-1].warned })
	}
	l.Oscillation = first(func(t int) bool { return a.osc[t] })
	l.Camping = first(func(t int) bool { return a.camp[t] })
	l.Repeat = first(func(t int) bool { return a.rep[t] })
	return l
}
