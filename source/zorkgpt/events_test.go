package zorkgpt

import (
	"math"
	"reflect"
	"strings"
	"testing"

	"github.com/lbanalyze/lbanalyze/episode"
)

// TestPatternEvents: the events patterns reads, hand-written (E3c shapes of
// docs/log-format.md, "3.7 Loop-break events" and the critic_override of the v2 orchestrator).
func TestPatternEvents(t *testing.T) {
	lines := []string{
		`{"timestamp": "2025-11-06T10:00:00", "level": "INFO", "message": "x", "event_type": "episode_initialized", "episode_id": "e", "turn": 0, "max_turns": 500}`,
		`{"timestamp": "2025-11-06T10:00:01", "level": "INFO", "message": "x", "event_type": "location_penalty_applied", "turn": 1, "base_confidence": NaN, "adjusted_confidence": 0.5, "reason": "r", "location_id": 180, "recent_visits": 2}`,
		`{"timestamp": "2025-11-06T10:00:01", "level": "INFO", "message": "x", "event_type": "critic_override", "episode_id": "e", "reason": "breaking_oscillation", "turn": 1, "original_action": "north", "original_score": -0.7}`,
		`{"timestamp": "2025-11-06T10:00:02", "level": "INFO", "message": "x", "event_type": "zork_response", "episode_id": "e", "turn": 1, "action": "north", "zork_response": "You can't go that way.", "raw_zork_response": "You can't go that way.\n\n>"}`,
		`{"timestamp": "2025-11-06T10:00:03", "level": "INFO", "message": "x", "event_type": "turn_completed", "episode_id": "e", "turn": 1, "action": "north", "score": 0, "location": "West of House", "confidence": 0.5}`,
		`{"timestamp": "2025-11-06T10:00:03", "level": "WARNING", "message": "x", "event_type": "state_loop_detected", "episode_id": "e", "turn": 1, "state_hash": -9151314442816847873, "loop_start_turn": 1, "turns_in_loop": 3}`,
		`{"timestamp": "2025-11-06T10:00:04", "level": "INFO", "message": "x", "event_type": "zork_response", "episode_id": "e", "turn": 2, "action": "north", "zork_response": "You can't go that way.", "raw_zork_response": "You can't go that way.\n\n>"}`,
		`{"timestamp": "2025-11-06T10:00:05", "level": "INFO", "message": "x", "event_type": "turn_completed", "episode_id": "e", "turn": 2, "action": "north", "score": 0, "location": "West of House", "confidence": 0.9}`,
		`{"timestamp": "2025-11-06T10:00:06", "level": "INFO", "message": "x", "event_type": "zork_response", "episode_id": "e", "turn": 3, "action": "south", "zork_response": "You have died.", "raw_zork_response": "You have died."}`,
		`{"timestamp": "2025-11-06T10:00:07", "level": "INFO", "message": "x", "event_type": "turn_completed", "episode_id": "e", "turn": 3, "action": "south", "score": -10, "location": "West of House", "confidence": 0.9}`,
	}
	ep := one(t, []byte(strings.Join(lines, "\n")+"\n"))
	p := ep.Recorded.Penalties
	if len(p) != 1 || p[0].Turn != 1 || p[0].LocationID != 180 || p[0].RecentVisits != 2 || !math.IsNaN(p[0].BaseConfidence) || p[0].AdjustedConfidence != 0.5 {
		t.Errorf("penalties %+v", p)
	}
	if want := []episode.CriticOverride{{Turn: 1, Reason: "breaking_oscillation"}}; !reflect.DeepEqual(ep.Recorded.CriticOverrides, want) {
		t.Errorf("overrides %+v", ep.Recorded.CriticOverrides)
	}
	if want := []episode.StateLoop{{Turn: 1, LoopStartTurn: 1, TurnsInLoop: 3}}; !reflect.DeepEqual(ep.Recorded.StateLoops, want) {
		t.Errorf("state loops %+v", ep.Recorded.StateLoops)
	}
	h := []uint64{ep.Turns[0].ResponseHash, ep.Turns[1].ResponseHash, ep.Turns[2].ResponseHash}
	if h[0] == 0 || h[0] != h[1] || h[2] == h[0] || h[2] == 0 {
		t.Errorf("response hashes %x", h)
	}
	if len(ep.Deaths) != 1 || ep.Deaths[0].Turn != 3 {
		t.Errorf("deaths %+v", ep.Deaths)
	}
	if loopBreakOf(ep) != "v1" { // location_penalty_applied marks 09a7cc2+
		t.Errorf("loop break %q", loopBreakOf(ep))
	}
}
