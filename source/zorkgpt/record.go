package zorkgpt

import (
	"bytes"
	"reflect"

	"github.com/cespare/xxhash/v2"
)

// record holds the fields lbanalyze reads from the lines that matter: their
// one definition, by key. Every field is optional and may be null
// (docs/log-format.md, "7. Checklist for a robust parser"); a pointer tells
// "absent" from zero. Other keys are passed over.
type record struct {
	EventType     string  `json:"event_type"`
	EpisodeID     *string `json:"episode_id"`
	Turn          *int64  `json:"turn"`
	TurnNumber    *int64  `json:"turn_number"` // game_over_detected only
	Score         *int64  `json:"score"`
	Action        *string `json:"action"`
	Location      *string `json:"location"`
	Stage         *string `json:"stage"`
	ToRoomID      *int64  `json:"to_room_id"`
	ToRoom        *string `json:"to_room"`
	RoomID        *int64  `json:"room_id"`
	RoomName      *string `json:"room_name"`
	Objective     *string `json:"objective"`
	Reason        *string `json:"reason"`
	TurnsStuck    *int64  `json:"turns_stuck"`
	OldScore      *int64  `json:"old_score"`
	NewScore      *int64  `json:"new_score"`
	WasStuckFor   *int64  `json:"was_stuck_for"`
	MaxTurns      *int64  `json:"max_turns"`
	Error         *string `json:"error"`
	CriticEnabled *bool   `json:"critic_enabled"`
	GameFilePath  *string `json:"game_file_path"`
	// location_penalty_applied
	LocationID         *int64   `json:"location_id"`
	RecentVisits       *int64   `json:"recent_visits"`
	BaseConfidence     *float64 `json:"base_confidence"`
	AdjustedConfidence *float64 `json:"adjusted_confidence"`
	// state_loop_detected
	LoopStartTurn *int64 `json:"loop_start_turn"`
	TurnsInLoop   *int64 `json:"turns_in_loop"`
	// zork_response: hashed, never kept as text
	ZorkResponse    *responseText `json:"zork_response"`
	RawZorkResponse *responseText `json:"raw_zork_response"`
	// Extras holds the event of a line written by an old-style caller under
	// the flat formatter (docs/log-format.md, "1.1 Lines"):
	// {"timestamp", …, "extras": {…}}.
	Extras *record `json:"extras"`
}

// flatten applies the rule field := top.field ?? top.extras.field to every
// field.
func (r *record) flatten() {
	x := r.Extras
	if x == nil {
		return
	}
	top, extra := reflect.ValueOf(r).Elem(), reflect.ValueOf(x).Elem()
	for i := range top.NumField() {
		if f := top.Field(i); f.IsZero() {
			f.Set(extra.Field(i))
		}
	}
	r.Extras = nil
}

// responseText is a game response read without keeping it: the xxHash64
// of the JSON string as written (json.dumps is deterministic, so equal texts
// hash equally in every run) and whether it tells of a death.
type responseText struct {
	hash uint64
	died bool
}

func (t *responseText) UnmarshalJSON(b []byte) error {
	if len(b) == 0 || b[0] != '"' {
		return nil // null or not a string: no response
	}
	h := xxhash.Sum64(b)
	if h == 0 {
		h = 1 // 0 means "no response"
	}
	t.hash, t.died = h, bytes.Contains(b, []byte("have died"))
	return nil
}
