package replay

import (
	"bytes"

	"github.com/lbanalyze/lbanalyze/jsonl"
)

// record holds the fields lbanalyze reads from the lines that matter. Every
// field is optional and may be null (log-format.md §7 item 6); a pointer tells
// "absent" from zero. Unknown keys are ignored.
type record struct {
	EventType  string  `json:"event_type"`
	EpisodeID  *string `json:"episode_id"`
	Turn       *int64  `json:"turn"`
	TurnNumber *int64  `json:"turn_number"` // game_over_detected only
	Score      *int64  `json:"score"`
	Action     *string `json:"action"`
	Location   *string `json:"location"`
	Stage      *string `json:"stage"`
	ToRoomID   *int64  `json:"to_room_id"`
	ToRoom     *string `json:"to_room"`
	RoomID     *int64  `json:"room_id"`
	RoomName   *string `json:"room_name"`
	Objective  *string `json:"objective"`
	// Objectives is the discovered list of objectives_updated.
	Objectives    []string `json:"objectives"`
	Reason        *string  `json:"reason"`
	FinalScore    *int64   `json:"final_score"`
	TurnsStuck    *int64   `json:"turns_stuck"`
	OldScore      *int64   `json:"old_score"`
	NewScore      *int64   `json:"new_score"`
	WasStuckFor   *int64   `json:"was_stuck_for"`
	MaxTurns      *int64   `json:"max_turns"`
	Error         *string  `json:"error"`
	CriticEnabled *bool    `json:"critic_enabled"`
	GameFilePath  *string  `json:"game_file_path"`
	// Extras holds the event of a line written by an old-style caller under the
	// flat formatter (log-format.md §1.1): {"timestamp", …, "extras": {…}}.
	Extras *record `json:"extras"`
}

// flatten applies the rule field := top.field ?? top.extras.field.
func (r *record) flatten() {
	x := r.Extras
	if x == nil {
		return
	}
	if r.EventType == "" {
		r.EventType = x.EventType
	}
	fillS := func(a **string, b *string) {
		if *a == nil {
			*a = b
		}
	}
	fillI := func(a **int64, b *int64) {
		if *a == nil {
			*a = b
		}
	}
	fillS(&r.EpisodeID, x.EpisodeID)
	fillI(&r.Turn, x.Turn)
	fillI(&r.TurnNumber, x.TurnNumber)
	fillI(&r.Score, x.Score)
	fillS(&r.Action, x.Action)
	fillS(&r.Location, x.Location)
	fillS(&r.Stage, x.Stage)
	fillI(&r.ToRoomID, x.ToRoomID)
	fillS(&r.ToRoom, x.ToRoom)
	fillI(&r.RoomID, x.RoomID)
	fillS(&r.RoomName, x.RoomName)
	fillS(&r.Objective, x.Objective)
	if r.Objectives == nil {
		r.Objectives = x.Objectives
	}
	fillS(&r.Reason, x.Reason)
	fillI(&r.FinalScore, x.FinalScore)
	fillI(&r.TurnsStuck, x.TurnsStuck)
	fillI(&r.OldScore, x.OldScore)
	fillI(&r.NewScore, x.NewScore)
	fillI(&r.WasStuckFor, x.WasStuckFor)
	fillI(&r.MaxTurns, x.MaxTurns)
	fillS(&r.Error, x.Error)
	if r.CriticEnabled == nil {
		r.CriticEnabled = x.CriticEnabled
	}
	fillS(&r.GameFilePath, x.GameFilePath)
	r.Extras = nil
}

// decoded lists the event types whose lines are decoded; every other line is
// only checked for structure (most bytes of a log are LLM text in lines that do
// not matter). zork_response is decoded only when it mentions a death.
var decoded = map[string]bool{
	"orchestrator_init":        true,
	"episode_initialized":      true,
	"progress":                 true,
	"turn_completed":           true,
	"turn_exception":           true,
	"map_movement_update":      true,
	"map_initial_room_added":   true,
	"objective_completed":      true,
	"objectives_updated":       true,
	"game_over_detected":       true,
	"episode_completed":        true,
	"episode_finalized":        true,
	"episode_exception":        true,
	"stuck_termination":        true,
	"score_change":             true,
	"objective_progress_reset": true,
}

// Event types that date a log without being decoded (log-format.md §2.2).
var (
	olderEras = map[string]bool{ // E1/E2, before 2025-06-08
		"turn_start": true, "episode_start": true, "episode_end": true, "episode_end_debug": true,
		"score_increase": true, "score_decrease": true, "extracted_info": true, "game_over": true,
		"game_over_final": true, "death_during_inventory": true,
	}
	jerichoEra = map[string]bool{ // E3c, 9f9f325+
		"jericho_extraction_success": true, "jericho_started": true, "game_over_detected": true,
	}
)

var (
	keyEventType = []byte("event_type")
	keyExtras    = []byte("extras")
)

// peek scans a line's structure and returns its event type (top-level, or
// nested under "extras"), without decoding anything else.
func peek(line []byte) (eventType []byte, err error) {
	var nested []byte
	err = jsonl.ScanObject(line, func(key, value []byte) {
		switch {
		case bytes.Equal(key, keyEventType):
			eventType = stringValue(value)
		case bytes.Equal(key, keyExtras) && len(value) > 0 && value[0] == '{':
			nested = value
		}
	})
	if err == nil && eventType == nil && nested != nil {
		jsonl.ScanObject(nested, func(key, value []byte) {
			if bytes.Equal(key, keyEventType) {
				eventType = stringValue(value)
			}
		})
	}
	return eventType, err
}

// stringValue returns the content of a raw JSON string without escapes, or nil.
func stringValue(v []byte) []byte {
	if len(v) < 2 || v[0] != '"' || bytes.IndexByte(v[1:len(v)-1], '\\') >= 0 {
		return nil
	}
	return v[1 : len(v)-1]
}
