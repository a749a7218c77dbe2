package zorkgpt

import (
	"math"

	"github.com/lbanalyze/lbanalyze/episode"
	"github.com/lbanalyze/lbanalyze/source"
)

// event is what an event type means to the builder (docs/log-format.md,
// "3. Events").
type event struct {
	name string // the event type, shared so that reading a line allocates nothing for it
	// handle takes a decoded line of this event; nil: the line is only
	// checked for structure and passed over (most bytes of a log are LLM
	// text in lines that do not matter).
	handle func(b *builder, r *record, n int)
	starts bool   // it begins an episode
	turns  bool   // it completes a turn (turn_completed, turn_exception)
	need   []byte // when set, only lines containing it are decoded
	era    era    // what the event type says of the log's era (docs/log-format.md, "2.2 Fingerprints for dating a file")
	v1     bool   // the loop break of 09a7cc2 or later ran (location_penalty_applied)
}

type era uint8

const (
	eraAny     era = iota
	eraOlder       // E1/E2, before 2025-06-08: not replayable yet
	eraAgent       // final_action_selection / zork_response: E3b (61680e8) or later
	eraJericho     // E3c, 9f9f325+
)

// events lists the event types that matter; any other is passed over.
var events = func() map[string]*event {
	m := map[string]*event{}
	add := func(e event, names ...string) {
		for _, n := range names {
			e := e
			e.name = n
			m[n] = &e
		}
	}
	add(event{handle: (*builder).orchestratorInit, starts: true}, "orchestrator_init")
	add(event{handle: (*builder).episodeInitialized, starts: true}, "episode_initialized")
	add(event{handle: (*builder).progress, starts: true, need: []byte(`"episode_initialization"`)}, "progress") // only this stage starts a segment
	add(event{handle: (*builder).turnCompleted, turns: true}, "turn_completed")
	add(event{handle: (*builder).turnException, turns: true}, "turn_exception")
	add(event{handle: (*builder).mapMovement}, "map_movement_update")
	add(event{handle: (*builder).initialRoom}, "map_initial_room_added")
	add(event{handle: (*builder).objectiveCompleted}, "objective_completed")
	add(event{handle: (*builder).objectivesUpdated}, "objectives_updated")
	add(event{handle: (*builder).gameOver, era: eraJericho}, "game_over_detected")
	add(event{handle: (*builder).zorkResponse, era: eraAgent}, "zork_response") // deaths before Jericho, and every turn's response
	add(event{handle: (*builder).episodeCompleted}, "episode_completed")
	add(event{handle: (*builder).episodeFinalized}, "episode_finalized")
	add(event{handle: (*builder).episodeException}, "episode_exception")
	add(event{handle: (*builder).stuckTermination}, "stuck_termination")
	add(event{handle: (*builder).scoreChange}, "score_change")
	add(event{handle: (*builder).objectiveReset}, "objective_progress_reset")
	add(event{handle: (*builder).locationPenalty, v1: true}, "location_penalty_applied")
	add(event{handle: (*builder).criticOverride}, "critic_override")
	add(event{handle: (*builder).stateLoop}, "state_loop_detected")
	add(event{era: eraJericho}, "jericho_extraction_success", "jericho_started")
	add(event{era: eraAgent}, "final_action_selection")
	add(event{era: eraOlder}, "turn_start", "episode_start", "episode_end", "episode_end_debug",
		"score_increase", "score_decrease", "extracted_info", "game_over", "game_over_final", "death_during_inventory")
	return m
}()

// The init events start a segment (docs/log-format.md, "4.2 Episode start
// and end").

func (b *builder) orchestratorInit(r *record, n int) {
	b.start("orchestrator_init")
	s := b.cur
	if r.GameFilePath != nil {
		s.e3c = true
	}
	if r.EpisodeID != nil {
		s.e3b = true // per-episode files, f6a0487+
	}
	if r.CriticEnabled != nil {
		s.v2 = true // d5a6688+, which contains the v2 loop break
	}
	b.episodeFacts(r)
}

func (b *builder) episodeInitialized(r *record, n int) {
	b.start("episode_initialized")
	b.episodeFacts(r)
}

func (b *builder) progress(r *record, n int) {
	if r.Stage != nil && *r.Stage == "episode_initialization" {
		b.start("progress")
	}
}

// episodeFacts takes what an init event says of the episode.
func (b *builder) episodeFacts(r *record) {
	s := b.cur
	b.takeID(r)
	if r.MaxTurns != nil {
		s.ep.MaxTurns = int(*r.MaxTurns)
	}
}

// takeID takes the first episode id a segment's events give.
func (b *builder) takeID(r *record) {
	if s := b.cur; r.EpisodeID != nil && *r.EpisodeID != "" && s.ep.ID == "" {
		s.ep.ID = source.Text(*r.EpisodeID)
	}
}

func (b *builder) turnCompleted(r *record, n int) {
	turn, ok := b.turnOf(r, n, "turn_completed")
	if !ok || r.Score != nil && !b.scoreOK(*r.Score, "score", "turn_completed", n) {
		return
	}
	s, ok := b.inOrder(turn, n, "turn_completed")
	if !ok {
		return
	}
	b.takeID(r)
	t := s.turn(turn)
	if s.have[turn-1] {
		s.problem(n, false, "turn_completed for turn %d again: the later one is used", turn)
	}
	s.have[turn-1] = true
	if r.Score != nil {
		t.Score = episode.Score(*r.Score)
	} else {
		s.have[turn-1] = false
		s.problem(n, false, "turn_completed for turn %d has no score: the previous score is carried forward", turn)
	}
	if r.Action != nil {
		t.Action = s.texts.Text(*r.Action)
	}
	if r.Location != nil && *r.Location != "" {
		t.Location = s.texts.Text(*r.Location)
	}
	b.reach(turn)
	s.last = max(s.last, turn)
	b.turnLines++
}

// A turn_exception turn still consumed its turn number and ran the tracker
// (docs/semantics.md, "5.5.10 Turns without turn_completed still count").
func (b *builder) turnException(r *record, n int) {
	turn, ok := b.turnOf(r, n, "turn_exception")
	if !ok {
		return
	}
	s, ok := b.inOrder(turn, n, "turn_exception")
	if !ok {
		return
	}
	b.takeID(r)
	s.turn(turn).Exception = true
	b.reach(turn)
	s.last = max(s.last, turn)
	b.turnLines++
}

// inOrder checks that a turn comes after the last one: turn numbers that
// restart at 1 are a restored session without an init line, a new segment;
// any other step back is out of order. It returns the segment the turn
// belongs to.
func (b *builder) inOrder(turn, n int, name string) (*segment, bool) {
	s := b.cur
	if turn >= s.last {
		return s, true
	}
	if turn == 1 {
		b.start("restart")
		b.cur.problem(n, false, "turn numbers restart at 1 without an init event: a new session")
		return b.cur, true
	}
	s.problem(n, true, "%s for turn %d after turn %d: out of order", name, turn, s.last)
	return s, false
}

func (b *builder) mapMovement(r *record, n int) {
	b.takeID(r)
	turn, ok := b.turnOf(r, n, "map_movement_update")
	s := b.cur
	if !ok || turn < s.last {
		return
	}
	t := s.turn(turn)
	if r.ToRoomID != nil {
		t.RoomID = int(*r.ToRoomID)
		s.e3c = true
	}
	if t.Location == "" && r.ToRoom != nil {
		t.Location = s.texts.Text(*r.ToRoom)
	}
}

func (b *builder) initialRoom(r *record, n int) {
	b.takeID(r)
	s := b.cur
	if r.RoomID != nil {
		s.ep.InitialRoomID = int(*r.RoomID)
	}
	if r.RoomName != nil {
		s.ep.InitialRoom = s.texts.Text(*r.RoomName)
	}
}

func (b *builder) objectiveCompleted(r *record, n int) {
	b.takeID(r)
	turn, ok := b.turnOf(r, n, "objective_completed")
	if !ok {
		return
	}
	s := b.cur
	s.ep.Objectives = append(s.ep.Objectives, episode.Completion{Turn: turn, Objective: textOr(r.Objective, "")})
	s.content = true
}

func (b *builder) objectivesUpdated(r *record, n int) {
	b.takeID(r)
	if turnField(r) < 0 {
		b.cur.problem(n, true, "objectives_updated without a turn")
		return
	}
	b.cur.ep.ObjectiveUpdates++
}

func (b *builder) gameOver(r *record, n int) {
	b.takeID(r)
	turn, ok := b.turnOf(r, n, "game_over_detected")
	if !ok {
		return
	}
	b.cur.death(turn, textOr(r.Reason, "game over"))
}

// textOr is the event's text p, or otherwise where it has none.
func textOr(p *string, otherwise string) string {
	if p == nil {
		return otherwise
	}
	return source.Text(*p)
}

func (b *builder) zorkResponse(r *record, n int) {
	b.takeID(r)
	s := b.cur
	turn := turnField(r)
	z, raw := r.ZorkResponse, r.RawZorkResponse
	if turn > 0 {
		if _, ok := b.turnOf(r, n, "zork_response"); ok && (z != nil && z.died || raw != nil && raw.died) {
			s.death(turn, "death text in zork_response")
		}
	}
	if z != nil && z.hash != 0 && s.quiet(turn) && turn >= s.last {
		s.turn(turn).ResponseHash = z.hash
	}
}

func (b *builder) episodeCompleted(r *record, n int) {
	b.takeID(r)
	s := b.cur
	turn := turnField(r)
	reason := textOr(r.Reason, "")
	s.end = episode.End{Reason: episode.EndReason(reason), Turn: max(turn, 0)}
	if reason != string(episode.EndGameOver) && reason != string(episode.EndMaxTurns) {
		s.problem(n, false, "episode_completed with an unknown reason %q", reason)
	}
	if b.plausible(turn) {
		b.reach(turn)
	}
}

func (b *builder) episodeFinalized(r *record, n int) {
	b.takeID(r)
	b.cur.finished = true
}

func (b *builder) episodeException(r *record, n int) {
	b.takeID(r)
	b.cur.end = episode.End{Reason: episode.EndException, Turn: max(turnField(r), 0), Detail: textOr(r.Error, "")}
}

func (b *builder) stuckTermination(r *record, n int) {
	b.takeID(r)
	turn, ok := b.turnOf(r, n, "stuck_termination")
	if !ok {
		return
	}
	st := &episode.Stop{Turn: turn}
	if r.Score != nil {
		if !b.scoreOK(*r.Score, "score", "stuck_termination", n) {
			return
		}
		st.Score = int(*r.Score)
	}
	if r.TurnsStuck != nil {
		st.TurnsStuck = int(*r.TurnsStuck)
	}
	s := b.cur
	s.ep.Recorded.Stop = st
	s.end = episode.End{Reason: episode.EndStuckTermination, Turn: turn, TurnsStuck: st.TurnsStuck}
	b.reach(turn)
	s.v1 = true
}

func (b *builder) scoreChange(r *record, n int) {
	b.takeID(r)
	turn, ok := b.turnOf(r, n, "score_change")
	if !ok {
		return
	}
	c := episode.Reset{Turn: turn, Kind: episode.ScoreChangeReset}
	if r.OldScore != nil {
		if !b.scoreOK(*r.OldScore, "old_score", "score_change", n) {
			return
		}
		c.Old = int(*r.OldScore)
	}
	s := b.cur
	if r.NewScore == nil {
		s.problem(n, true, "score_change without new_score")
		return
	}
	if !b.scoreOK(*r.NewScore, "new_score", "score_change", n) {
		return
	}
	c.New = int(*r.NewScore)
	s.ep.Recorded.Resets = append(s.ep.Recorded.Resets, c)
	b.reach(turn)
	s.v1 = true
	if r.WasStuckFor != nil {
		s.v2 = true
	}
}

func (b *builder) objectiveReset(r *record, n int) {
	b.takeID(r)
	turn, ok := b.turnOf(r, n, "objective_progress_reset")
	if !ok {
		return
	}
	s := b.cur
	s.ep.Recorded.Resets = append(s.ep.Recorded.Resets, episode.Reset{Turn: turn, Kind: episode.ObjectiveReset})
	b.reach(turn)
	s.v2 = true
}

// The informational events are dropped without a word when their turn is
// unusable: their absence changes nothing of the replay.

func (b *builder) locationPenalty(r *record, n int) {
	b.takeID(r)
	s := b.cur
	turn := turnField(r)
	if !s.quiet(turn) {
		return
	}
	p := episode.Penalty{Turn: turn, LocationID: int(deref(r.LocationID)), RecentVisits: int(deref(r.RecentVisits)),
		BaseConfidence: floatOrNaN(r.BaseConfidence), AdjustedConfidence: floatOrNaN(r.AdjustedConfidence)}
	s.ep.Recorded.Penalties = append(s.ep.Recorded.Penalties, p)
}

func (b *builder) criticOverride(r *record, n int) {
	b.takeID(r)
	s := b.cur
	turn := turnField(r)
	if !s.quiet(turn) {
		return
	}
	reason := ""
	if r.Reason != nil {
		reason = *r.Reason
	}
	s.ep.Recorded.CriticOverrides = append(s.ep.Recorded.CriticOverrides, episode.CriticOverride{Turn: turn, Reason: s.texts.Text(reason)})
}

func (b *builder) stateLoop(r *record, n int) {
	b.takeID(r)
	s := b.cur
	turn := turnField(r)
	if !s.quiet(turn) {
		return
	}
	s.ep.Recorded.StateLoops = append(s.ep.Recorded.StateLoops,
		episode.StateLoop{Turn: turn, LoopStartTurn: int(deref(r.LoopStartTurn)), TurnsInLoop: int(deref(r.TurnsInLoop))})
}

// turnField is the turn a record names (turn, or game_over_detected's
// turn_number), -1 for none.
func turnField(r *record) int {
	switch {
	case r.Turn != nil:
		return int(*r.Turn)
	case r.TurnNumber != nil:
		return int(*r.TurnNumber)
	}
	return -1
}

func deref(p *int64) int64 {
	if p == nil {
		return 0
	}
	return *p
}

func floatOrNaN(p *float64) float64 {
	if p == nil {
		return math.NaN()
	}
	return *p
}
