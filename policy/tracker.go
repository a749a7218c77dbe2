package policy

import "github.com/lbanalyze/lbanalyze/episode"

// Reset says what reset the stuck timer on a turn. In logs from 09a7cc2 on,
// ZorkGPT writes one event per reset (docs/semantics.md, "5.5.5 The v2 reset rules").
type Reset uint8

const (
	NoReset Reset = iota
	// ScoreChange: the end-of-turn score differs from the tracked score
	// (event score_change).
	ScoreChange
	// ObjectiveProgress: a recent objective completion reset the timer
	// (event objective_progress_reset).
	ObjectiveProgress
	// RoomProgress: the turn ended in a room not visited before (variants only;
	// ZorkGPT logs no such event).
	RoomProgress
)

func (r Reset) String() string {
	switch r {
	case ScoreChange:
		return "score_change"
	case ObjectiveProgress:
		return "objective_progress_reset"
	case RoomProgress:
		return "new_room"
	}
	return ""
}

// Observation is what a tracker sees of one turn: its end-of-turn score (the
// previous score when the turn has no turn_completed, docs/semantics.md, "5.5.10 Turns without turn_completed still count"), the
// objective_completed events logged with its turn number, and the room it
// ended in (a key: the room id where the log has one, else a negative key of
// the room's name; 0 when unknown). Start is the room the episode started in,
// the same on every turn (same key; 0 when unknown).
type Observation struct {
	Score      episode.Score
	Objectives int
	Room       int
	Start      int
	// Where the log records them (episode.Signals): the critic's score of the
	// action taken, the proposals rejected before it, and whether the game
	// began again at this turn.
	Critic     float64
	Rejections int
	Restart    bool
	// Location is the name of the room the turn ended in ("" unknown): what
	// a reader of the names sees (ZorkGPT2's supervisor compares loc=).
	Location string
	// Signals are the optional signals the log records: a signal it lacks
	// reads as zero here, and a tracker that needs it must know.
	Signals episode.Signals
	// What the step did (docs/sources.md, "What a step did"): its action
	// as the log writes it, the hash of its response (0: none) and the
	// response's text as kept, and whether it errored.
	Action       string
	Response     uint64
	ResponseText string
	Errored      bool
	// Tokens and Cost are what the step spent, Elapsed the seconds from the
	// run's start to its end, where the log records them (the caps).
	Tokens  int64
	Cost    float64
	Elapsed float64
	// Last: the step is the log's last, and the run ended there by itself
	// (the log is not cut): it asks for no more, so no cap stops it.
	Last bool
	// Capped: the step is the log's last, and the run's own cap ended it
	// there (episode.EndCap).
	Capped bool
}

// Step is what the loop break did on one turn.
type Step struct {
	Turn       int
	Reset      Reset
	Anchor     int  // the turn the timer counts from, after this turn's tracking
	TurnsStuck int  // Turn − Anchor, the value the stuck check compares
	Warned     bool // the countdown warning was in the agent's prompt at the start of Turn
	Checked    bool // Turn is a check turn (Turn % CheckInterval == 0)
	Terminate  bool // the stuck check stops the episode at Turn
	// Reason says why it stops, for a policy with several triggers (the
	// supervisor: which fired) or a repetition rule (what repeated); ""
	// otherwise.
	Reason string
	// Nudged: a repetition rule that nudges before it stops nudged the
	// agent at Turn; Heeded: the logged agent broke the repetition at Turn,
	// after a nudge (docs/policies.md, "Nudge, then stop").
	Nudged, Heeded bool
	// NudgedAt, on a stop that followed a nudge of the rule that stops, is
	// the turn of that nudge; 0 otherwise.
	NudgedAt int
}

// Tracker is the loop-break state of one episode under one policy. Call Step
// for every turn 1, 2, … N in order, turn numbers that ended in
// turn_exception included.
type Tracker interface {
	Step(t int, o Observation) Step
}

// shipped is ZorkGPT's _track_score_for_progress_detection,
// _get_turns_since_score_change and the stuck check of _run_game_loop: the
// score policy (09a7cc2) when objectives is false, score-or-objective
// (36546b7/HEAD) when true.
type shipped struct {
	timer       Timer
	objectives  bool // enable_objective_based_progress
	initialised bool
	tracked     episode.Score // _last_tracked_score
	lastChange  int           // _last_score_change_turn
	lastObj     int           // the latest completed_turn so far; 0 = none yet
}

// ZorkGPT keeps this state on the orchestrator, which main.py builds anew for
// every episode (docs/semantics.md, "5.5.2 The state belongs to one episode"): a fresh tracker per episode.
func newScore(p Policy) Tracker            { return &shipped{timer: p.Timer()} }
func newScoreOrObjective(p Policy) Tracker { return &shipped{timer: p.Timer(), objectives: true} }

func (tr *shipped) Step(t int, o Observation) Step {
	// docs/semantics.md, "5.5.13 The countdown warning reads the same timer": the countdown warning is built at the start of turn t from
	// the same timer, before this turn's tracking runs.
	s := Step{Turn: t, Warned: tr.stuck(t) >= tr.timer.WarningThreshold}
	if o.Objectives > 0 && tr.objectives {
		// docs/semantics.md, "5.9 Cases that a careful reimplementation still gets wrong", item 8: only completions up to the current turn count; several in
		// one turn count once (the code takes max(completed_turn)).
		tr.lastObj = t
	}
	first := !tr.initialised
	s.Reset = tr.track(t, o.Score)
	if !first && s.Reset == NoReset && tr.objectives && tr.lastObj > 0 && t-tr.lastObj <= 1 && t-tr.lastChange > 0 {
		// docs/semantics.md, "5.5.6 v2: one completion resets the timer twice": "recent_objective_completion <= 1" holds at c and at c+1,
		// so a completion at c resets twice and acts like a change at c+1. The
		// turns_stuck > 0 guard is always true here (item 5) but kept as shipped.
		tr.lastChange = t
		s.Reset = ObjectiveProgress
	}
	s.Anchor = tr.lastChange
	tr.timer.check(&s)
	return s
}

// track is the score branch, which every policy that tracks the score shares.
func (tr *shipped) track(t int, score episode.Score) Reset {
	switch {
	case !tr.initialised:
		// docs/semantics.md, "5.5.1 The first call only initialises" / docs/semantics.md, "5.9 Cases that a careful reimplementation still gets wrong", item 1: the first call, at the end of turn 1, only
		// initialises. The baseline is the score after turn 1, so a change during
		// turn 1 is never seen; an objective at turn 1 is acted on at turn 2.
		tr.initialised = true
		tr.tracked = score
		tr.lastChange = 0
	case score != tr.tracked:
		// docs/semantics.md, "5.5.3 Any score change counts": any change counts, up or down, death penalties included.
		tr.tracked = score
		tr.lastChange = t
		return ScoreChange
	}
	return NoReset
}

// stuck is _get_turns_since_score_change() as seen at the start of turn t.
func (tr *shipped) stuck(t int) int {
	if !tr.initialised {
		return t // before the first tracker call it returns turn_count
	}
	return t - tr.lastChange
}
