package policy

import "github.com/lbanalyze/lbanalyze/episode"

// Patience is the general policy of the variants (docs/policies.md), named after early stopping's
// patience (Keras, Lightning): several progress sources, each with its own.
const Patience Name = "patience"

func init() {
	register(Kind{Name: Patience, New: newPatience, Variant: true, SettingNeeds: patienceNeeds,
		Settings:    []string{"objective_patience", "room_patience", "score_mode", "min_delta", "min_turns"},
		Description: "stop at the first check turn T ≥ min_turns at which every enabled progress source (score changes, objective completions, first visits to a room) has gone its own patience (max_turns_stuck, objective_patience, room_patience) without progress"})
}

// patience stops at the first check turn T (T % interval == 0, T ≥ M) with
// T − last_s ≥ patience_s for every enabled source s, last_s being the last
// turn s made progress (0 if never):
//   - score (always on, patience W): a turn t ≥ 2 whose score moved from the
//     tracked score (scoreSource); turn 1 only initialises, as shipped;
//   - objective (patience K, on unless objective_patience = -1): a completion,
//     anchored at its own turn c as window does, not c+1 as shipped;
//   - room (patience R, on when room_patience > 0): a turn ending in a room not
//     visited before in the episode, the starting room counting as visited.
//
// Step's Anchor is the latest progress turn of any enabled source and
// TurnsStuck = Turn − Anchor; Warned compares the same timer, as seen at the
// start of the turn, with stuck_warning_threshold. With a patience shorter
// than W the stop can come with TurnsStuck < W: TurnsStuck says how long
// nothing at all happened, not which patience ran out.
//
// With objectives and rooms off this is the score policy (mode changes, D = 1,
// M = 0); with K = W and rooms off it is window. replay/variants_test.go checks
// both over every bundled log.
type patience struct {
	p        Params
	score    scoreSource
	objK     int // 0: objectives off
	lastObj  int
	visited  map[int]bool // room keys; nil until the first turn
	lastRoom int
}

func newPatience(p Policy) Tracker { return newPatienceTracker(p.Params) }

func newPatienceTracker(p Params) *patience {
	pt := &patience{p: p, score: scoreSource{increase: p.ScoreMode == ScoreIncrease, delta: p.minDelta()}}
	if k, on := p.objectivePatience(); on {
		pt.objK = k
	}
	return pt
}

func (pt *patience) Step(t int, o Observation) Step {
	// As shipped (docs/semantics.md, "5.5.13 The countdown warning reads the same timer"), the warning is built before this turn's tracking.
	s := Step{Turn: t, Warned: pt.timer(t) >= pt.p.WarningThreshold}
	first := !pt.score.initialised
	if pt.score.track(t, o.Score) {
		s.Reset = ScoreChange
	}
	if pt.objK > 0 && o.Objectives > 0 {
		// Several in one turn count once. As window, the initialising turn 1
		// anchors at 1 but reports no reset.
		pt.lastObj = t
		if s.Reset == NoReset && !first {
			s.Reset = ObjectiveProgress
		}
	}
	if pt.p.RoomPatience > 0 && pt.newRoom(o) {
		pt.lastRoom = t
		if s.Reset == NoReset {
			s.Reset = RoomProgress
		}
	}
	s.Anchor = pt.anchor()
	s.TurnsStuck = t - s.Anchor
	s.Checked = t%pt.p.CheckInterval == 0
	s.Terminate = s.Checked && t >= pt.p.MinTurns &&
		t-pt.score.last >= pt.p.MaxTurnsStuck &&
		(pt.objK == 0 || t-pt.lastObj >= pt.objK) &&
		(pt.p.RoomPatience == 0 || t-pt.lastRoom >= pt.p.RoomPatience)
	return s
}

// newRoom records a visit and says whether it was the first to that room.
// Without a known starting room, the first room seen stands for it.
func (pt *patience) newRoom(o Observation) bool {
	if pt.visited == nil {
		pt.visited = map[int]bool{}
		if o.Start != 0 {
			pt.visited[o.Start] = true
		}
	}
	if o.Room == 0 || pt.visited[o.Room] {
		return false
	}
	start := len(pt.visited) == 0
	pt.visited[o.Room] = true
	return !start
}

// anchor is the latest progress turn of any enabled source.
func (pt *patience) anchor() int {
	a := pt.score.last
	if pt.objK > 0 {
		a = max(a, pt.lastObj)
	}
	if pt.p.RoomPatience > 0 {
		a = max(a, pt.lastRoom)
	}
	return a
}

func (pt *patience) timer(t int) int {
	if !pt.score.initialised {
		return t // before the first call, as _get_turns_since_score_change
	}
	return t - pt.anchor()
}

// scoreSource is the score branch (shipped.track) generalised: in mode
// increase only a score above the tracked one counts, and a move smaller than
// delta is not progress and leaves the tracked score where it was, so slow
// drift accumulates until it reaches delta. With D = 1 the tracked score is
// the last score (changes) or the best score so far (increase).
type scoreSource struct {
	increase    bool
	delta       int // D ≥ 1
	initialised bool
	tracked     int // the score at the last progress (or after turn 1)
	last        int // the last progress turn; 0 = none
}

func (s *scoreSource) track(t, score int) bool {
	if !s.initialised {
		// docs/semantics.md, "5.5.1 The first call only initialises": the first call, after turn 1, only sets the baseline.
		s.initialised = true
		s.tracked = score
		return false
	}
	d := score - s.tracked
	if !s.increase && d < 0 {
		d = -d // up or down both count
	}
	if d < s.delta {
		return false
	}
	s.tracked, s.last = score, t
	return true
}

// patienceNeeds are the signals patience's settings turn on.
func patienceNeeds(p Params) episode.Signals {
	var need episode.Signals
	if _, on := p.objectivePatience(); on {
		need = need.With(episode.Objectives)
	}
	if p.RoomPatience > 0 {
		need = need.With(episode.Rooms)
	}
	return need
}
