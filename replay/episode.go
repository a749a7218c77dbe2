// Package replay rebuilds ZorkGPT episodes from their logs (eras E3a–E3c of
// docs/log-format.md) into compact per-turn records, and replays loop-break
// policies over them turn by turn.
package replay

import (
	"fmt"

	"github.com/lbanalyze/lbanalyze/jsonl"
)

// Episode is one episode segment of a log: a compact record per turn plus the
// events that matter for the loop break. Turns[t-1] is turn t.
type Episode struct {
	ID       string // ZorkGPT's episode id, e.g. 2025-11-04T09:35:24
	Source   string // the path as given ("-" for stdin)
	Segment  int    // position of this segment in its file, 1-based
	Segments int    // how many replayable segments the file holds
	Era      string // E3a, E3b or E3c (docs/log-format.md §2.1)
	// LoopBreak is the loop-break code the recording ran, as far as the log
	// shows: "v2" (36546b7+), "v1" (09a7cc2+) or "" when nothing shows it.
	LoopBreak string
	MaxTurns  int // max_turns of episode_initialized or orchestrator_init; 0 unknown

	Turns            []Turn
	Objectives       []Completion      // objective_completed, in log order
	ObjectiveUpdates []ObjectiveUpdate // objectives_updated
	Deaths           []Death           // game_over_detected and death text
	InitialRoomID    int               // map_initial_room_added.room_id; 0 unknown
	InitialRoom      string

	End      End
	Recorded Recorded

	// CriticOverrides are the critic_override events (E3: turn and reason;
	// "breaking_oscillation" is the rejection manager's A-B-A-B rule).
	CriticOverrides []CriticOverride
	// StateLoops are the state_loop_detected events (09608fd+): the exact
	// Jericho state was seen before. Informational in ZorkGPT.
	StateLoops []StateLoop

	MissingTurns   int // turns 1..N without turn_completed (score carried forward)
	ExceptionTurns int // of which turn_exception was logged
	SkippedLines   int // lines of this segment that could not be used
	Problems       []Problem
	ProblemCount   int // all problems, Problems holds the first few
}

// Turn is the end-of-turn state of one turn.
type Turn struct {
	Score      int
	RoomID     int    // Jericho room id after the action; 0 when unknown (ZorkGPT's own sentinel)
	Location   string // room name after the action
	Action     string
	Objectives int  // objective_completed events logged with this turn
	Missing    bool // no turn_completed: score, room and location carried forward
	Exception  bool // turn_exception was logged for this turn
	// ResponseHash identifies the game's response of this turn (zork_response,
	// 61680e8+): the 64-bit xxHash of the field as written, never the
	// text; 0 when the log has none.
	ResponseHash uint64
}

// N is the last turn number of the log.
func (e *Episode) N() int { return len(e.Turns) }

// Score is the score after turn t (0 before turn 1).
func (e *Episode) Score(t int) int {
	if t < 1 || t > len(e.Turns) {
		return 0
	}
	return e.Turns[t-1].Score
}

// FinalScore is the score after the last turn.
func (e *Episode) FinalScore() int { return e.Score(e.N()) }

// Name is the episode id, with its position when the file holds several.
func (e *Episode) Name() string {
	if e.Segments > 1 {
		return fmt.Sprintf("%s (segment %d of %d)", e.ID, e.Segment, e.Segments)
	}
	return e.ID
}

// Completion is one objective_completed event.
type Completion struct {
	Turn      int    `json:"turn"`
	Objective string `json:"objective"`
}

// ObjectiveUpdate is one objectives_updated event: how many objectives the
// discovered list held (the list itself is not kept: nothing reads it, and a
// long log of long lists would cost memory for nothing).
type ObjectiveUpdate struct {
	Turn  int
	Count int
}

// Death is a game over: game_over_detected (E3c) or death text in zork_response.
type Death struct {
	Turn   int
	Reason string
}

// EndReason is how the log ends.
type EndReason string

const (
	EndMaxTurns         EndReason = "max_turns"         // episode_completed reason max_turns
	EndGameOver         EndReason = "game_over"         // episode_completed reason game_over
	EndStuckTermination EndReason = "stuck_termination" // the recording's own loop break
	EndException        EndReason = "exception"         // episode_exception
	EndInterrupted      EndReason = "interrupted"       // episode_finalized without episode_completed (Ctrl-C)
	EndNone             EndReason = "none"              // no end event: the log is truncated
)

// End is the end of the log.
type End struct {
	Reason     EndReason
	Turn       int // the turn the end event carries; 0 for none
	TurnsStuck int // stuck_termination only
	Detail     string
}

// Recorded holds the loop-break events the recording wrote itself
// (logs from 2025-11-05 on).
type Recorded struct {
	ScoreChanges     []RecordedChange
	ObjectiveResets  []int // objective_progress_reset turns
	StuckTermination *StuckTermination
	// Penalties are the location_penalty_applied events (Phase 1B, 09a7cc2+),
	// in log order. Not counted by Any: they never touch the timer.
	Penalties []RecordedPenalty
}

// RecordedPenalty is one location_penalty_applied event. The confidences are
// NaN when the log has null (or NaN) there.
type RecordedPenalty struct {
	Turn               int
	LocationID         int // the room at the start of the turn (0 = unknown)
	RecentVisits       int
	BaseConfidence     float64
	AdjustedConfidence float64
}

// CriticOverride is one critic_override event.
type CriticOverride struct {
	Turn   int
	Reason string
}

// StateLoop is one state_loop_detected event.
type StateLoop struct {
	Turn          int
	LoopStartTurn int
	TurnsInLoop   int
}

// Any reports whether the log holds any loop-break event.
func (r Recorded) Any() bool {
	return len(r.ScoreChanges) > 0 || len(r.ObjectiveResets) > 0 || r.StuckTermination != nil
}

// RecordedChange is one score_change event.
type RecordedChange struct {
	Turn, Old, New int
}

// StuckTermination is the recording's stuck_termination event.
type StuckTermination struct {
	Turn       int `json:"turn"`
	Score      int `json:"score"`
	TurnsStuck int `json:"turns_stuck"`
}

// Problem is a line that could not be used, or was used with a repair.
type Problem struct {
	Line    int // 0 when not about one line
	Msg     string
	Skipped bool
}

func (p Problem) String() string {
	if p.Line > 0 {
		return fmt.Sprintf("%d: %s", p.Line, p.Msg)
	}
	return p.Msg
}

// ProblemMessages are the episode's problems as "file:line: message", the
// first few word for word and the rest counted.
func (e *Episode) ProblemMessages() []string {
	var w []string
	name := jsonl.DisplayName(e.Source)
	for _, p := range e.Problems {
		if p.Line > 0 {
			w = append(w, fmt.Sprintf("%s:%d: %s", name, p.Line, p.Msg))
		} else {
			w = append(w, fmt.Sprintf("%s: %s", name, p.Msg))
		}
	}
	if more := e.ProblemCount - len(e.Problems); more > 0 {
		w = append(w, fmt.Sprintf("%s: … and %d more problems", name, more))
	}
	return w
}
