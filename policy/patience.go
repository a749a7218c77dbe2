package policy

import (
	"image/color"

	"github.com/lbanalyze/lbanalyze/episode"
)

// Patience is the general policy of the variants (docs/policies.md), named after early stopping's
// patience (Keras, Lightning): several progress sources, each with its own.
const Patience Name = "patience"

// Patience's settings beside the timer; increase has the last two.
var (
	ObjectivePatience = &Setting{Key: "objective_patience", Flag: "objective-patience", Label: "obj", Min: 1,
		Special: []Special{{0, "max_turns_stuck"}, {ObjectivesOff, off}}, Needs: episode.Objectives,
		Usage: "objective_patience K (patience): turns an objective completion buys; 0: max_turns_stuck, -1: objectives are not progress"}
	RoomPatience = &Setting{Key: "room_patience", Flag: "room-patience", Label: "room", Special: []Special{{0, off}}, Needs: episode.Rooms,
		Usage: "room_patience R (patience): turns a first visit to a room buys; 0: rooms are not progress"}
	ScoreMode = &Setting{Key: "score_mode", Flag: "score-mode", Default: ScoreChanges, Names: []string{"changes", "increase"},
		Usage: "score_mode (patience): changes (any score change is progress) or increase (only a new best score)"}
	MinDelta = &Setting{Key: "min_delta", Flag: "min-delta", Label: "delta", Default: deltaScale, Scale: deltaScale,
		Usage: "min_delta D (increase, patience): a score move smaller than D is not progress and does not move the tracked score; a decimal for a real-valued score (0.1)"}
	MinTurns = &Setting{Key: "min_turns", Flag: "min-turns", Label: "warm-up",
		Usage: "min_turns M (increase, patience): warm-up, no stop before turn M"}
)

// WarmUp is p's min_turns: no stop before that turn; 0 for a policy
// without it.
func (p Policy) WarmUp() int { return p.Get(MinTurns) }

// The values of score_mode: which score moves are progress.
const (
	// ScoreChanges: any change of the tracked score, up or down, as shipped.
	ScoreChanges = iota
	// ScoreIncrease: only a new best score (mode max); a death penalty, or
	// climbing back to a score already reached, is not progress.
	ScoreIncrease
)

// ObjectivesOff as objective_patience: objective completions are not progress.
const ObjectivesOff = -1

// deltaScale: min_delta is kept in thousandths, so that a real-valued score
// (a normalised one, summed rewards of 0.1) has thresholds of its size.
const deltaScale = 1000

func init() {
	register(Kind{Name: Patience, New: newPatience, Variant: true,
		Settings:    timed(ObjectivePatience, RoomPatience, ScoreMode, MinDelta, MinTurns),
		Color:       color.NRGBA{0xE6, 0x9F, 0x00, 0xFF}, // orange
		Description: "stop at a check turn when each kind of progress switched on — score changes, objective completions, first visits to a room — has gone its own patience without any"})
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
	timer    Timer
	minTurns int
	score    scoreSource
	objK     int // 0: objectives off
	roomR    int // 0: rooms off
	lastObj  int
	visited  map[int]bool // room keys; nil until the first turn
	lastRoom int
}

func newPatience(p Policy) Tracker {
	return newPatienceTracker(p, p.Get(ScoreMode), objectivePatience(p), p.Get(RoomPatience))
}

// newPatienceTracker is patience with p's timer, min_delta and min_turns,
// and the score mode, objective patience K (0: off) and room patience R
// (0: off) given.
func newPatienceTracker(p Policy, mode, k, r int) *patience {
	return &patience{timer: p.Timer(), minTurns: p.Get(MinTurns), objK: k, roomR: r,
		score: scoreSource{increase: mode == ScoreIncrease, delta: episode.Score(p.Get(MinDelta)) / deltaScale}}
}

// objectivePatience is K: objective_patience, max_turns_stuck for its 0, and
// 0 when objectives are not progress.
func objectivePatience(p Policy) int {
	switch k := p.Get(ObjectivePatience); k {
	case ObjectivesOff:
		return 0
	case 0:
		return p.MaxTurnsStuck() // the default follows W
	default:
		return k
	}
}

func (pt *patience) Step(t int, o Observation) Step {
	// As shipped (docs/semantics.md, "5.5.13 The countdown warning reads the same timer"), the warning is built before this turn's tracking.
	s := Step{Turn: t, Warned: pt.stuck(t) >= pt.timer.WarningThreshold}
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
	if pt.roomR > 0 && pt.newRoom(o) {
		pt.lastRoom = t
		if s.Reset == NoReset {
			s.Reset = RoomProgress
		}
	}
	s.Anchor = pt.anchor()
	s.TurnsStuck = t - s.Anchor
	s.Checked = t%pt.timer.CheckInterval == 0
	s.Terminate = s.Checked && t >= pt.minTurns &&
		t-pt.score.last >= pt.timer.MaxTurnsStuck &&
		(pt.objK == 0 || t-pt.lastObj >= pt.objK) &&
		(pt.roomR == 0 || t-pt.lastRoom >= pt.roomR)
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
	if pt.roomR > 0 {
		a = max(a, pt.lastRoom)
	}
	return a
}

// stuck is the timer as seen at the start of turn t.
func (pt *patience) stuck(t int) int {
	if !pt.score.initialised {
		return t // before the first call, as _get_turns_since_score_change
	}
	return t - pt.anchor()
}

// scoreSource is the score branch (shipped.track) generalised: in mode
// increase only a score above the tracked one counts, and a move smaller than
// delta is not progress and leaves the tracked score where it was, so slow
// drift accumulates until it reaches delta. A move of 0 is never progress, so
// that D = 0 counts any move. On whole scores every D up to 1 is the same
// rule: the tracked score is the last score (changes) or the best score so
// far (increase).
type scoreSource struct {
	increase    bool
	delta       episode.Score // D ≥ 0
	initialised bool
	tracked     episode.Score // the score at the last progress (or after turn 1)
	last        int           // the last progress turn; 0 = none
}

func (s *scoreSource) track(t int, score episode.Score) bool {
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
	// A move is compared with D to the places a score is kept to, so that
	// 0.3 − 0.2 (0.09999999999999998 in binary) is a move of 0.1.
	if d <= 0 || d+episode.ScoreResolution < s.delta {
		return false
	}
	s.tracked, s.last = score, t
	return true
}
