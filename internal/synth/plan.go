package synth

import (
	"fmt"
	"io"
	"math"
	"strings"
	"time"

	"github.com/lbanalyze/lbanalyze/episode"
	"github.com/lbanalyze/lbanalyze/policy"
)

// Episode is the plan of one episode, turn by turn. Write renders it as the
// episode_log.jsonl ZorkGPT would have written.
type Episode struct {
	ID       string    // ZorkGPT's id: "2025-11-04T09:35:24"
	Start    time.Time // the clock of the first line (naive local time)
	MaxTurns int       // max_turns_per_episode; 500 when 0
	TaskName bool      // Python 3.12+: "taskName": null on every line
	// LoopBreak is the loop break the recording ran: nil for code before
	// 09a7cc2 (no loop-break events), Score for 09a7cc2 (v1), ScoreOrObjective
	// for HEAD (v2). Its events are replayed by the policy package, so they are
	// exactly what that code writes, and a stop cuts the plan short.
	LoopBreak *policy.Policy
	// Code is the date of the ZorkGPT code the recording ran; the zero value
	// means HEAD. Events and fields added later than Code are left out
	// (docs/log-format.md, "2.2 Fingerprints for dating a file"), so that a log's fingerprints match its date.
	Code        time.Time
	InitialRoom Room
	Turns       []Turn // Turns[t-1] is turn t
	// Ending says how the log ends when the plan runs out before a game over,
	// max_turns or a loop-break stop.
	Ending Ending
	// Models name the LLMs in orchestrator_init and the objective update.
	AgentModel string
	// Spells are the stuck spells the model planned: not written to the log,
	// they document the episode (testdata/episodes/README.md).
	Spells []Spell
}

// Room is a Jericho location: its Z-machine object number and name, and
// what the extractor counts there (jericho_extraction_success). Exits 0
// means unknown: the writer then counts 3 exits and 2 objects.
type Room struct {
	ID      int
	Name    string
	Exits   int
	Objects int
}

// Turn is what happens in one turn.
type Turn struct {
	Action      string
	Reasoning   string  // agent_reasoning of final_action_selection
	Response    string  // the game's text
	To          Room    // where the agent is after the action
	Score       int     // score after the action
	CriticScore float64 // may be NaN, as parsed from an LLM
	Confidence  float64
	Completed   []string // objectives completed by this turn
	// Discovered, when not nil, is the list of an objectives_updated written
	// after this turn's stuck check (the periodic update).
	Discovered []string
	GameOver   string // "Player death", "Victory" …: the game ends this turn
	Exception  string // the turn fails: turn_exception, no turn_completed
	// ExceptionType is turn_exception.error_type; RuntimeError when empty.
	ExceptionType string
	Combat        bool // jericho_extraction_success.in_combat after the action
	StateLoop     bool // the exact state hash was seen before
	StateHash     int64
	Duration      time.Duration // wall time of the turn; 30 s when 0
}

// Ending is how a log ends when its plan runs out early.
type Ending int

const (
	// EndAuto: episode_completed with reason max_turns if the plan reached
	// MaxTurns, else the log simply stops (a killed run).
	EndAuto Ending = iota
	EndException
	EndInterrupted // Ctrl-C: episode_finalized without episode_completed
	// EndKilled: the process was killed while writing the first line of the
	// last planned turn, which is left without its end and its newline.
	EndKilled
)

// Commits that changed what E3c logs hold, by their date (docs/log-format.md
// docs/log-format.md, "2.1 Era table", "2.2 Fingerprints for dating a file", "3.4 Objectives" and "3.6 Episode start and end"); Episode.Code decides which of them a log shows.
var (
	commitExceptionType    = time.Date(2025, 10, 28, 0, 0, 0, 0, time.UTC) // 582fc52: turn_exception.error_type, fallback_action
	commitRoomDescription  = time.Date(2025, 11, 4, 0, 0, 0, 0, time.UTC)  // 994088f: room_description_captured
	commitObjectiveReason  = time.Date(2025, 11, 6, 0, 0, 0, 0, time.UTC)  // 0c42702: objectives_updated.reasoning
	commitObjectiveStartup = time.Date(2025, 11, 7, 0, 0, 0, 0, time.UTC)  // 7014b2f: turn_1_objective_generation(_skipped)
)

// has reports whether the recording's code includes a commit of that date.
func (e *Episode) has(commit time.Time) bool { return e.Code.IsZero() || !e.Code.Before(commit) }

// Outcome is what Write did: how many turns it wrote and how the log ended.
type Outcome struct {
	Turns  int
	Reason string // max_turns, game_over, stuck_termination, exception, interrupted, none
	Score  int
	Lines  int
}

// Write renders e to w.
func Write(w io.Writer, e *Episode) (Outcome, error) {
	if e.MaxTurns == 0 {
		e.MaxTurns = 500
	}
	l := NewLog(w, e.Start)
	l.TaskName = e.TaskName
	wr := writer{Log: l, e: e}
	out := wr.episode()
	out.Lines = l.Lines()
	return out, l.Flush()
}

type writer struct {
	*Log
	e         *Episode
	room      Room
	score     int
	history   []int // location ids at critic time, ZorkGPT's deque(maxlen=20)
	tracker   policy.Tracker
	anchor    int // the tracker's last_change before this turn
	tracked   int // the tracker's last tracked score
	completed int
	open      []string // discovered objectives still open
	lastObjUp int
}

func (w *writer) id() KV { return KV{"episode_id", w.e.ID} }

func (w *writer) code() string {
	switch {
	case w.e.LoopBreak == nil:
		return "v0"
	case w.e.LoopBreak.Name == policy.Score:
		return "v1"
	}
	return "v2"
}

func (w *writer) episode() Outcome {
	e := w.e
	if e.LoopBreak != nil {
		w.tracker = e.LoopBreak.NewTracker()
	}
	w.room = e.InitialRoom
	w.start()
	for i := range e.Turns {
		t := i + 1
		tu := &e.Turns[i]
		d := tu.Duration
		if d == 0 {
			d = 30 * time.Second
		}
		step := d / 12
		if e.Ending == EndKilled && t == len(e.Turns) {
			w.killed(t, tu, step)
			return Outcome{Turns: t - 1, Reason: "killed", Score: w.score}
		}
		if reason := w.turn(t, tu, step); reason != "" {
			return Outcome{Turns: t, Reason: reason, Score: w.score}
		}
		w.Tick(d - 12*step)
	}
	n := len(e.Turns)
	switch e.Ending {
	case EndException:
		w.Event("ERROR", "episode_exception", "Episode failed with exception: Jericho process died unexpectedly",
			w.id(), KV{"turn", n}, KV{"error", "Jericho process died unexpectedly"})
		return Outcome{Turns: n, Reason: "exception", Score: w.score}
	case EndInterrupted:
		w.finalize(n)
		return Outcome{Turns: n, Reason: "interrupted", Score: w.score}
	}
	return Outcome{Turns: n, Reason: "none", Score: w.score}
}

func (w *writer) start() {
	e := w.e
	w.Plain("INFO", "Loaded map state from game_files/map_state.json")
	init := []KV{w.id(), {"episode_log_file", "game_files/episodes/" + e.ID + "/episode_log.jsonl"},
		{"game_file_path", "infrastructure/zork.z5"}, {"agent_model", e.agentModel()},
		{"critic_model", "qwen/qwen3-30b-a3b"}}
	if w.code() == "v2" {
		init = append(init, KV{"critic_enabled", true})
	}
	init = append(init, KV{"info_ext_model", "qwen/qwen3-30b-a3b"}, KV{"max_turns", e.MaxTurns})
	w.Event("INFO", "orchestrator_init", "ZorkOrchestrator v2 initialized with Jericho", init...)
	w.Tick(3 * time.Millisecond)
	w.Progress("episode_synthesizer", "episode_initialization", 0, "Initializing new episode: "+e.ID, "Starting episode "+e.ID)
	w.Event("INFO", "episode_initialized", "Episode initialized: "+e.ID, w.id(), KV{"turn", 0}, KV{"max_turns", e.MaxTurns})
	w.Tick(412 * time.Millisecond)
	intro := 717
	w.Plain("INFO", fmt.Sprintf("Jericho environment started successfully - intro length: %d", intro))
	w.Event("INFO", "jericho_started", "Jericho interface started successfully", w.id(), KV{"intro_length", intro})
	w.Event("INFO", "verbose_mode_enabled", "Enabled verbose mode: Maximum verbosity.", w.id(), KV{"verbose_response", "Maximum verbosity."})
	w.extraction(e.InitialRoom, false)
	w.Event("INFO", "map_initial_room_added", "Initial room added to map: "+e.InitialRoom.Name, w.id(),
		KV{"turn", 0}, KV{"room_id", e.InitialRoom.ID}, KV{"room_name", e.InitialRoom.Name})
	if e.has(commitObjectiveStartup) {
		w.Event("INFO", "turn_1_objective_generation_skipped", "Pre-turn 1: No persistent memories found, skipping initial objective generation",
			w.id(), KV{"reason", "no_memories"})
	}
}

func (e *Episode) agentModel() string {
	if e.AgentModel != "" {
		return e.AgentModel
	}
	return "qwen/qwen3-235b-a22b"
}

func (w *writer) extraction(room Room, combat bool) {
	objects, exits := 2, 3
	if room.Exits > 0 {
		objects, exits = room.Objects, room.Exits
	}
	characters := 0
	if combat {
		characters = 1
	}
	w.Event("INFO", "jericho_extraction_success", "Jericho extraction successful: "+room.Name, w.id(),
		KV{"extracted_location", room.Name}, KV{"visible_objects_count", objects}, KV{"visible_characters_count", characters},
		KV{"exits_count", exits}, KV{"in_combat", combat})
}

// turn writes turn t and returns the end reason when the episode ends with it.
func (w *writer) turn(t int, tu *Turn, step time.Duration) string {
	e := w.e
	conf := tu.Confidence
	w.Tick(step * 6) // the agent's and the critic's LLM calls
	if w.tracker != nil {
		conf = w.penalty(t, conf)
	}
	msg, fas := w.selection(t, tu, conf)
	w.Event("INFO", "final_action_selection", msg, fas...)
	w.Tick(step)
	if tu.Exception != "" {
		kv := []KV{w.id(), {"turn", t}, {"error", tu.Exception}}
		if e.has(commitExceptionType) {
			typ := tu.ExceptionType
			if typ == "" {
				typ = "RuntimeError"
			}
			kv = append(kv, KV{"error_type", typ}, KV{"fallback_action", "look"})
		}
		w.Event("ERROR", "turn_exception", "Turn failed with exception, using fallback 'look' action: "+tu.Exception, kv...)
	} else {
		if tu.GameOver != "" {
			phrase := map[string]string{"Player death": "you have died", "Victory": "****  you have won  ****"}[tu.GameOver]
			if phrase == "" {
				phrase = "game over"
			}
			w.Plain("INFO", fmt.Sprintf("Game over detected: %s (phrase: '%s')", tu.GameOver, phrase))
			w.Event("INFO", "game_over_detected", "Game over detected: "+tu.GameOver, w.id(), KV{"turn_number", t}, KV{"reason", tu.GameOver})
		}
		w.Event("INFO", "zork_response", fmt.Sprintf("ZORK RESPONSE for '%s':\n%s\n", tu.Action, tu.Response), w.id(),
			KV{"turn", t}, KV{"action", tu.Action}, KV{"zork_response", tu.Response}, KV{"raw_zork_response", tu.Response + "\n\n>"})
		w.Tick(step)
		w.extraction(tu.To, tu.Combat)
		w.Event("INFO", "map_movement_update", "Map updated from movement", w.id(), KV{"turn", t}, KV{"action", tu.Action},
			KV{"from_room_id", w.room.ID}, KV{"from_room", w.room.Name}, KV{"to_room_id", tu.To.ID}, KV{"to_room", tu.To.Name})
		if tu.To.ID != w.room.ID && e.has(commitRoomDescription) {
			w.Event("INFO", "room_description_captured", "Room description captured", KV{"turn", t},
				KV{"location_id", tu.To.ID}, KV{"text_length", len(tu.Response)})
		}
		w.room = tu.To
		w.score = tu.Score
		w.Tick(step * 2) // the completion check is an LLM call
		for _, o := range tu.Completed {
			w.Progress("objective_manager", "objective_completion", t, "Objective completed: "+o, "Completed objective: "+o)
			w.Event("INFO", "objective_completed", "Objective completed: "+o, w.id(), KV{"turn", t}, KV{"objective", o},
				KV{"completion_action", tu.Action}, KV{"completion_location", tu.To.Name}, KV{"completion_score", tu.Score})
			w.completed++
			w.open = remove(w.open, o)
		}
		w.Event("INFO", "turn_completed", fmt.Sprintf("Turn %d completed", t), w.id(), KV{"turn", t},
			KV{"action", tu.Action}, KV{"score", tu.Score}, KV{"location", tu.To.Name}, KV{"confidence", conf})
		if tu.StateLoop {
			w.Event("WARNING", "state_loop_detected", "Exact game state loop detected", w.id(), KV{"turn", t},
				KV{"state_hash", tu.StateHash}, KV{"loop_start_turn", max(1, t-6)}, KV{"turns_in_loop", min(t-1, 6)})
			w.Event("INFO", "stuck_behavior_detected", "State loop detected - agent may be stuck", w.id(), KV{"turn", t})
		}
	}
	if w.tracker != nil {
		if w.loopBreak(t, len(tu.Completed) > 0 && tu.Exception == "") {
			w.finalize(t)
			return "stuck_termination"
		}
	}
	if tu.Discovered != nil {
		w.objectiveUpdate(t, tu.Discovered)
	}
	switch {
	case tu.GameOver != "" && tu.Exception == "":
		w.completedEvent(t, "game_over")
		return "game_over"
	case t >= e.MaxTurns:
		w.completedEvent(t, "max_turns")
		return "max_turns"
	}
	return ""
}

// selection is the message and extras of final_action_selection.
func (w *writer) selection(t int, tu *Turn, conf float64) (string, []KV) {
	fas := []KV{w.id(), {"turn", t}, {"agent_action", tu.Action}, {"agent_reasoning", tu.Reasoning},
		{"critic_score", tu.CriticScore}, {"critic_confidence", conf}, {"was_overridden", false}}
	msg := fmt.Sprintf("SELECTED ACTION: %s (Score: %s, Confidence: %s, Override: False)", tu.Action, pyFmt2(tu.CriticScore), pyFmt2(conf))
	if w.code() == "v2" {
		fas = append(fas, KV{"critic_enabled", true})
		msg = strings.TrimSuffix(msg, ")") + ", Critic: enabled)"
	}
	return msg, fas
}

// killed writes the first part of turn t's final_action_selection and no
// newline: the process died while the line was being written.
func (w *writer) killed(t int, tu *Turn, step time.Duration) {
	w.Tick(step * 6)
	msg, fas := w.selection(t, tu, tu.Confidence)
	b := w.line("INFO", msg, append([]KV{{"event_type", "final_action_selection"}}, fas...))
	w.Raw(b[:len(b)*2/3])
}

// penalty writes location_penalty_applied as 09a7cc2's critic loop does: the
// room at the start of the turn against the previous min(5, len-1) entries.
func (w *writer) penalty(t int, conf float64) float64 {
	w.history = append(w.history, w.room.ID)
	if len(w.history) > 20 {
		w.history = w.history[1:]
	}
	window := min(5, len(w.history)-1)
	if window < 1 {
		return conf
	}
	visits := 0
	for _, id := range w.history[len(w.history)-1-window : len(w.history)-1] {
		if id == w.room.ID {
			visits++
		}
	}
	if visits == 0 {
		return conf
	}
	pen := -0.2 * float64(visits)
	adj := math.Max(0, math.Min(1, conf+pen))
	w.Event("INFO", "location_penalty_applied", fmt.Sprintf("Applied location penalty: %s \u2192 %s", pyFmt2(conf), pyFmt2(adj)),
		KV{"turn", t}, KV{"base_confidence", conf}, KV{"adjusted_confidence", adj},
		KV{"reason", fmt.Sprintf("Location revisit penalty %s (%dx return to %s)", pyFmt2(pen), visits, w.room.Name)},
		KV{"location_id", w.room.ID}, KV{"recent_visits", visits})
	return adj
}

// loopBreak runs the recording's tracker for turn t and writes its events;
// it reports a stop.
func (w *writer) loopBreak(t int, objective bool) bool {
	s := w.tracker.Step(t, policy.Observation{Score: episode.Score(w.score), Objectives: objectives(objective)})
	switch s.Reset {
	case policy.ScoreChange:
		kv := []KV{{"turn", t}, {"old_score", w.tracked}, {"new_score", w.score}}
		msg := fmt.Sprintf("Score changed: %d \u2192 %d", w.tracked, w.score)
		if w.code() == "v2" {
			kv = append(kv, KV{"was_stuck_for", t - w.anchor})
			msg += " - resetting stuck timer"
		}
		w.Event("INFO", "score_change", msg, kv...)
	case policy.ObjectiveProgress:
		w.Event("INFO", "objective_progress_reset", "Objective progress detected - resetting stuck timer",
			KV{"turn", t}, KV{"was_stuck_for", t - w.anchor}, KV{"old_last_change_turn", w.anchor}, KV{"new_last_change_turn", t})
	}
	if t == 1 || s.Reset == policy.ScoreChange {
		w.tracked = w.score
	}
	w.anchor = s.Anchor
	if s.Terminate {
		w.Event("WARNING", "stuck_termination", fmt.Sprintf("Terminating episode: no progress for %d turns (score stuck at %d)", s.TurnsStuck, w.score),
			w.id(), KV{"turn", t}, KV{"score", w.score}, KV{"turns_stuck", s.TurnsStuck})
	}
	return s.Terminate
}

func (w *writer) objectiveUpdate(t int, objs []string) {
	id := w.id()
	w.Event("INFO", "objective_update_check", fmt.Sprintf("Objective update check: turn=%d, last_update=%d", t, w.lastObjUp),
		id, KV{"turn", t}, KV{"objective_update_turn", w.lastObjUp}, KV{"current_objectives_count", len(w.open)})
	w.Progress("objective_manager", "objective_update", t, fmt.Sprintf("Triggering objective update at turn %d", t), fmt.Sprintf("Starting objective update at turn %d", t))
	w.Event("INFO", "objective_update_triggered", fmt.Sprintf("Triggering objective update at turn %d", t), id, KV{"turn", t})
	w.Progress("objective_manager", "objective_update", t, fmt.Sprintf("Updating discovered objectives (turn %d)", t), fmt.Sprintf("Starting objective discovery update at turn %d", t))
	w.Event("INFO", "objective_discovery_start", fmt.Sprintf("Starting objective discovery/update at turn %d", t), id,
		KV{"turn", t}, KV{"current_objectives", append([]string{}, w.open...)}, KV{"current_score", w.score})
	tokens := 5200 + 37*t%900
	w.Event("INFO", "objective_context_prepared", fmt.Sprintf("Objective discovery context prepared: %d tokens", tokens), id, KV{"turn", t},
		KV{"knowledge_tokens", 2100}, KV{"memories_tokens", 900 + t%400}, KV{"map_tokens", 700 + 3*t%300}, KV{"gameplay_tokens", tokens - 3700 - t%400 - 3*t%300}, KV{"total_context_tokens", tokens})
	w.Event("INFO", "objective_llm_call_start", "Making LLM call for objective discovery with model "+w.e.agentModel(), id, KV{"turn", t},
		KV{"model", w.e.agentModel()}, KV{"prompt_length", tokens * 4})
	w.Tick(9 * time.Second)
	w.Progress("objective_manager", "objective_update", t, fmt.Sprintf("Objectives updated: %d objectives discovered", len(objs)),
		fmt.Sprintf("Updated %d objectives: %s", len(objs), pyListRepr(objs[:min(3, len(objs))])))
	kv := []KV{id, {"turn", t}, {"objective_count", len(objs)}, {"objectives", objs}}
	if w.e.has(commitObjectiveReason) {
		kv = append(kv, KV{"reasoning", objectiveReasoning(objs)})
	}
	w.Event("INFO", "objectives_updated", "Discovered objectives updated", kv...)
	w.open = append([]string{}, objs...)
	w.lastObjUp = t
}

func (w *writer) completedEvent(t int, reason string) {
	w.Event("INFO", "episode_completed", "Episode completed", w.id(), KV{"turn", t}, KV{"final_score", w.score},
		KV{"game_over", reason == "game_over"}, KV{"reason", reason})
	w.finalize(t)
}

func (w *writer) finalize(t int) {
	id := w.e.ID
	w.Tick(2 * time.Second)
	w.Progress("episode_synthesizer", "episode_finalization", t, "Finalizing episode "+id, fmt.Sprintf("Final score: %d, turns: %d", w.score, t))
	death := 0
	if t > 0 && t <= len(w.e.Turns) && w.e.Turns[t-1].GameOver == "Player death" {
		death = 1
	}
	w.Tick(14 * time.Second)
	w.Event("INFO", "episode_finalized", "Episode finalized: "+id, w.id(), KV{"turn", t}, KV{"final_score", w.score},
		KV{"is_death_episode", death == 1}, KV{"death_count", death}, KV{"objectives_discovered", len(w.open)},
		KV{"objectives_completed", w.completed})
	w.Progress("episode_synthesizer", "episode_completion", t, fmt.Sprintf("Episode %s completed successfully", id),
		fmt.Sprintf("The agent reached a score of %d in %d turns, completing %d objectives.", w.score, t, w.completed))
}

func remove(list []string, s string) []string {
	for i, x := range list {
		if x == s {
			return append(list[:i:i], list[i+1:]...)
		}
	}
	return list
}

// pyFmt2 is Python's "{:.2f}" (nan for NaN).
func pyFmt2(f float64) string {
	if math.IsNaN(f) {
		return "nan"
	}
	return pct2(f)
}

// pyListRepr is Python's repr of a list of str.
func pyListRepr(list []string) string {
	parts := make([]string, len(list))
	for i, s := range list {
		if strings.Contains(s, "'") && !strings.Contains(s, `"`) {
			parts[i] = `"` + s + `"`
		} else {
			parts[i] = "'" + strings.ReplaceAll(strings.ReplaceAll(s, `\`, `\\`), "'", `\'`) + "'"
		}
	}
	return "[" + strings.Join(parts, ", ") + "]"
}

func objectiveReasoning(objs []string) string {
	if len(objs) == 0 {
		return "No clear objectives could be derived from recent gameplay."
	}
	return fmt.Sprintf("Based on the recent turns and the current map, the most promising next step is to %s. The other objectives follow from unexplored exits and items seen but not yet taken.",
		strings.ToLower(strings.TrimSuffix(objs[0], ".")))
}

// objectives is a tracker's count of completions for a turn that has one or none.
func objectives(completed bool) int {
	if completed {
		return 1
	}
	return 0
}
