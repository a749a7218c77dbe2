package patterns

import (
	"encoding/binary"
	"sort"

	"github.com/cespare/xxhash/v2"

	"github.com/lbanalyze/lbanalyze/episode"
	"github.com/lbanalyze/lbanalyze/policy"
)

// Repeats are turns whose (action, game response) pair already occurred with
// no progress since its last occurrence: the same thing tried again and the
// same answer received. Progress is the reference policy's (a reset of its
// timer on any turn after the last occurrence, this turn included). Responses
// are compared by hash (episode.Turn.ResponseHash); logs before 61680e8 have no
// zork_response and no repeats.
type Repeats struct {
	Policy string `json:"policy"`
	// TurnsWithResponse counts the turns with an action and a response hash.
	TurnsWithResponse int     `json:"turns_with_response"`
	Turns             int     `json:"turns"` // repeated turns
	Share             float64 `json:"share"` // Turns / TurnsWithResponse
	FirstTurn         int     `json:"first_turn"`
	LongestRun        int     `json:"longest_run"` // consecutive repeated turns
	// Top are the most repeated actions (at most 3), by repeats.
	Top []RepeatedAction `json:"top"`
}

// RepeatedAction is one action's repeats.
type RepeatedAction struct {
	Action    string `json:"action"`
	Repeats   int    `json:"repeats"`
	FirstTurn int    `json:"first_turn"`
}

func repeats(ep *episode.Episode, steps []step, p policy.Policy) (Repeats, []bool) {
	n := ep.N()
	rp := Repeats{Policy: p.String(), Top: []RepeatedAction{}}
	rep := make([]bool, n+1)
	// seen holds the (action, response) pairs, by pairHash, met since the
	// last progress turn: a repeat is a pair met again with no progress since.
	seen := map[uint64]struct{}{}
	byAction := map[uint64]*RepeatedAction{}
	run := 0
	for t := 1; t <= n; t++ {
		if t <= len(steps) && steps[t-1].reset {
			clear(seen) // a pair seen before this reset repeats no more
		}
		tu := &ep.Turns[t-1]
		if tu.ResponseHash == 0 || tu.Action == "" {
			run = 0
			continue
		}
		rp.TurnsWithResponse++
		action := normAction(tu.Action)
		ah := actionHash(action)
		k := pairHash(ah, tu.ResponseHash)
		if _, ok := seen[k]; ok {
			rep[t] = true
			rp.Turns++
			if rp.FirstTurn == 0 {
				rp.FirstTurn = t
			}
			run++
			rp.LongestRun = max(rp.LongestRun, run)
			ra := byAction[ah]
			if ra == nil {
				ra = &RepeatedAction{Action: action, FirstTurn: t}
				byAction[ah] = ra
			}
			ra.Repeats++
		} else {
			run = 0
		}
		seen[k] = struct{}{}
	}
	if rp.TurnsWithResponse > 0 {
		rp.Share = float64(rp.Turns) / float64(rp.TurnsWithResponse)
	}
	for _, ra := range byAction {
		rp.Top = append(rp.Top, *ra)
	}
	sort.Slice(rp.Top, func(i, j int) bool {
		a, b := rp.Top[i], rp.Top[j]
		if a.Repeats != b.Repeats {
			return a.Repeats > b.Repeats
		}
		return a.FirstTurn < b.FirstTurn
	})
	rp.Top = rp.Top[:min(3, len(rp.Top))]
	return rp, rep
}

// Novelty is the share of actions not taken in the previous Window turns (the
// action novelty of ZorkGPT's Phase 1C hints, action_novelty_window = 15).
// Turns without an action (turn_exception) are not counted but still take a
// place in the window.
type Novelty struct {
	Window int     `json:"window"`
	Turns  int     `json:"turns"` // turns with an action
	Novel  int     `json:"novel"`
	Share  float64 `json:"share"`
}

func novelty(ep *episode.Episode, window int) Novelty {
	nv := Novelty{Window: window}
	// recent holds the actions of the last turns, turn t's at t mod its
	// length: an action is novel when none of the previous window turns
	// took it, so those are all that is held, not every action of a long log.
	type taken struct {
		turn int
		hash uint64
	}
	recent := make([]taken, max(min(window, ep.N()), 0)+1)
	for t := 1; t <= ep.N(); t++ {
		a := ep.Turns[t-1].Action
		if a == "" {
			continue
		}
		h := actionHash(normAction(a))
		nv.Turns++
		novel := true
		for _, r := range recent {
			if r.turn > 0 && r.turn >= t-window && r.hash == h {
				novel = false
				break
			}
		}
		if novel {
			nv.Novel++
		}
		recent[t%len(recent)] = taken{t, h}
	}
	if nv.Turns > 0 {
		nv.Share = float64(nv.Novel) / float64(nv.Turns)
	}
	return nv
}

// StateLoops cross-checks the log's state_loop_detected events (the exact
// Jericho state seen again) with the room patterns and the warnings.
type StateLoops struct {
	Events         int `json:"events"`
	FirstTurn      int `json:"first_turn"`
	MaxTurnsInLoop int `json:"max_turns_in_loop"`
	InOscillation  int `json:"in_oscillation"` // events on a turn the oscillation detector flags
	InCamping      int `json:"in_camping"`
	InWarning      int `json:"in_warning"` // events on a turn with the countdown warning
}

func (a *Analysis) stateLoops(ep *episode.Episode) StateLoops {
	var sl StateLoops
	for _, e := range ep.Recorded.StateLoops {
		sl.Events++
		if sl.FirstTurn == 0 || e.Turn < sl.FirstTurn {
			sl.FirstTurn = e.Turn
		}
		sl.MaxTurnsInLoop = max(sl.MaxTurnsInLoop, e.TurnsInLoop)
		if e.Turn < 1 || e.Turn > ep.N() {
			continue
		}
		if a.osc[e.Turn] {
			sl.InOscillation++
		}
		if a.camp[e.Turn] {
			sl.InCamping++
		}
		if e.Turn < len(a.warned) && a.warned[e.Turn] {
			sl.InWarning++
		}
	}
	return sl
}

// actionHash is a normalised action's 64-bit hash. Repeats and novelty key
// their maps by it, 8 bytes a distinct action rather than its text
// (docs/PERFORMANCE.md, "Memory"), as responses are compared by hash; two
// actions of one episode that collide would count as one.
func actionHash(s string) uint64 { return xxhash.Sum64String(s) }

// pairHash is the key of an (action, response) pair: the hash of both hashes.
func pairHash(action, response uint64) uint64 {
	var b [16]byte
	binary.LittleEndian.PutUint64(b[:8], action)
	binary.LittleEndian.PutUint64(b[8:], response)
	return xxhash.Sum64(b[:])
}
