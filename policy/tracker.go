package policy

// Reset says what reset the stuck timer on a turn. In logs from 09a7cc2 on,
// ZorkGPT writes one event per reset (replay-semantics.md §5.5 item 5).
type Reset uint8

const (
	NoReset Reset = iota
	// ScoreChange: the end-of-turn score differs from the tracked score
	// (event score_change).
	ScoreChange
	// ObjectiveProgress: a recent objective completion reset the timer
	// (event objective_progress_reset).
	ObjectiveProgress
)

func (r Reset) String() string {
	switch r {
	case ScoreChange:
		return "score_change"
	case ObjectiveProgress:
		return "objective_progress_reset"
	}
	return ""
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
}

// Tracker is the loop-break state of one episode under one policy: ZorkGPT's
// _track_score_for_progress_detection, _get_turns_since_score_change and the
// stuck check of _run_game_loop, as of the policy's version.
type Tracker struct {
	p           Policy
	initialised bool
	tracked     int // _last_tracked_score
	lastChange  int // _last_score_change_turn (for Window: the last score change only)
	lastObj     int // the latest completed_turn so far; 0 = none yet
}

// NewTracker returns a fresh tracker. ZorkGPT keeps this state on the
// orchestrator, which main.py builds anew for every episode (§5.5 item 2).
func (p Policy) NewTracker() *Tracker { return &Tracker{p: p} }

// Step runs turn t, whose end-of-turn score is score (the previous score when
// the turn has no turn_completed, §5.5 item 10); objective says an
// objective_completed was logged with turn t. Call it for every turn 1, 2, … N
// in order: turn numbers that ended in turn_exception included.
func (tr *Tracker) Step(t, score int, objective bool) Step {
	p := tr.p
	// §5.5 item 13: the countdown warning is built at the start of turn t from
	// the same timer, before this turn's tracking runs.
	s := Step{Turn: t, Warned: tr.timer(t) >= p.WarningThreshold}

	if objective && p.Name != Score {
		// §5.9 item 8: only completions up to the current turn count; several in
		// one turn count once (the code takes max(completed_turn)).
		tr.lastObj = t
	}
	switch {
	case !tr.initialised:
		// §5.5 item 1 / §5.9 item 1: the first call, at the end of turn 1, only
		// initialises. The baseline is the score after turn 1, so a change during
		// turn 1 is never seen; an objective at turn 1 is acted on at turn 2.
		tr.initialised = true
		tr.tracked = score
		tr.lastChange = 0
	case score != tr.tracked:
		// §5.5 item 3: any change counts, up or down, death penalties included.
		tr.tracked = score
		tr.lastChange = t
		s.Reset = ScoreChange
	case p.Name == ScoreOrObjective && tr.lastObj > 0 && t-tr.lastObj <= 1 && t-tr.lastChange > 0:
		// §5.5 item 6: "recent_objective_completion <= 1" holds at c and at c+1,
		// so a completion at c resets twice and acts like a change at c+1. The
		// turns_stuck > 0 guard is always true here (item 5) but kept as shipped.
		tr.lastChange = t
		s.Reset = ObjectiveProgress
	case p.Name == Window && objective:
		s.Reset = ObjectiveProgress
	}
	s.Anchor = tr.anchor()
	s.TurnsStuck = t - s.Anchor
	// §5.5 item 9: checked only when t % interval == 0, after the tracking of
	// the same turn, so a reset on a check turn prevents termination there.
	s.Checked = t%p.CheckInterval == 0
	s.Terminate = s.Checked && s.TurnsStuck >= p.MaxTurnsStuck
	return s
}

// anchor is the turn the timer counts from.
func (tr *Tracker) anchor() int {
	if tr.p.Name == Window && tr.lastObj > tr.lastChange {
		// The documented rule: an objective anchors at its own turn c, not c+1.
		return tr.lastObj
	}
	return tr.lastChange
}

// timer is _get_turns_since_score_change() as seen at the start of turn t.
func (tr *Tracker) timer(t int) int {
	if !tr.initialised {
		return t // before the first tracker call it returns turn_count
	}
	return t - tr.anchor()
}
