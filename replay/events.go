package replay

import (
	"bytes"
	"encoding/json"
	"reflect"

	"github.com/cespare/xxhash/v2"
	"github.com/lbanalyze/lbanalyze/jsonl"
)

// record holds the fields lbanalyze reads from the lines that matter. Every
// field is optional and may be null (docs/log-format.md §7 item 6); a pointer tells
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
	// Objectives is the discovered list of objectives_updated, counted.
	Objectives    *listLen `json:"objectives"`
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
	// Extras holds the event of a line written by an old-style caller under the
	// flat formatter (docs/log-format.md §1.1): {"timestamp", …, "extras": {…}}.
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
	r.EpisodeID, r.Turn, r.TurnNumber = or(r.EpisodeID, x.EpisodeID), or(r.Turn, x.Turn), or(r.TurnNumber, x.TurnNumber)
	r.Score, r.Action, r.Location = or(r.Score, x.Score), or(r.Action, x.Action), or(r.Location, x.Location)
	r.Stage, r.ToRoomID, r.ToRoom = or(r.Stage, x.Stage), or(r.ToRoomID, x.ToRoomID), or(r.ToRoom, x.ToRoom)
	r.RoomID, r.RoomName, r.Objective = or(r.RoomID, x.RoomID), or(r.RoomName, x.RoomName), or(r.Objective, x.Objective)
	r.Objectives = or(r.Objectives, x.Objectives)
	r.Reason, r.FinalScore, r.TurnsStuck = or(r.Reason, x.Reason), or(r.FinalScore, x.FinalScore), or(r.TurnsStuck, x.TurnsStuck)
	r.OldScore, r.NewScore, r.WasStuckFor = or(r.OldScore, x.OldScore), or(r.NewScore, x.NewScore), or(r.WasStuckFor, x.WasStuckFor)
	r.MaxTurns, r.Error, r.CriticEnabled = or(r.MaxTurns, x.MaxTurns), or(r.Error, x.Error), or(r.CriticEnabled, x.CriticEnabled)
	r.GameFilePath = or(r.GameFilePath, x.GameFilePath)
	r.LocationID, r.RecentVisits = or(r.LocationID, x.LocationID), or(r.RecentVisits, x.RecentVisits)
	r.BaseConfidence, r.AdjustedConfidence = or(r.BaseConfidence, x.BaseConfidence), or(r.AdjustedConfidence, x.AdjustedConfidence)
	r.LoopStartTurn, r.TurnsInLoop = or(r.LoopStartTurn, x.LoopStartTurn), or(r.TurnsInLoop, x.TurnsInLoop)
	r.ZorkResponse, r.RawZorkResponse = or(r.ZorkResponse, x.ZorkResponse), or(r.RawZorkResponse, x.RawZorkResponse)
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
	h := xxhash.Sum64(b) // eight bytes at a time, where FNV-1a took one
	if h == 0 {
		h = 1 // 0 means "no response"
	}
	t.hash, t.died = h, bytes.Contains(b, []byte("have died"))
	return nil
}

// listLen is the length of a JSON array, decoded without keeping its items.
type listLen int

func (n *listLen) UnmarshalJSON(b []byte) error {
	b = bytes.TrimSpace(b)
	if len(b) == 0 || b[0] != '[' {
		return &json.UnmarshalTypeError{Value: "non-array", Type: reflect.TypeFor[[]string]()}
	}
	*n = listLen(countItems(b))
	return nil
}

// countItems counts the items of a valid JSON array: the commas at its own
// level, outside strings, plus one unless it is empty.
func countItems(b []byte) int {
	depth, count, inString, any := 0, 0, false, false
	for i := 0; i < len(b); i++ {
		c := b[i]
		if inString {
			switch c {
			case '\\':
				i++
			case '"':
				inString = false
			}
			continue
		}
		switch c {
		case '"':
			inString = true
		case '[', '{':
			depth++
		case ']', '}':
			depth--
		case ',':
			if depth == 1 {
				count++
			}
		}
		if depth >= 1 && c != ' ' && c != '\t' && c != '\n' && c != '\r' && !(depth == 1 && (c == '[' || c == ',')) {
			any = true
		}
	}
	if any {
		count++
	}
	return count
}

// or is a ?? b for optional fields.
func or[T any](a, b *T) *T {
	if a != nil {
		return a
	}
	return b
}

// eventInfo is what an event type means to the builder.
type eventInfo struct {
	name string // the event type, shared so that reading a line allocates nothing for it
	// decode: the line is decoded and handled; every other line is only
	// checked for structure (most bytes of a log are LLM text in lines that do
	// not matter). With need, only lines containing it are decoded.
	decode bool
	need   []byte
	era    era  // what the event type says of the log's era (docs/log-format.md §2.2)
	v1     bool // the loop break of 09a7cc2 or later ran (location_penalty_applied)
}

type era uint8

const (
	eraAny     era = iota
	eraOlder       // E1/E2, before 2025-06-08: not replayable yet
	eraAgent       // final_action_selection / zork_response: E3b (61680e8) or later
	eraJericho     // E3c, 9f9f325+
)

// events lists the event types that matter; any other is passed over.
var events = func() map[string]*eventInfo {
	m := map[string]*eventInfo{}
	add := func(e eventInfo, names ...string) {
		for _, n := range names {
			e := e
			e.name = n
			m[n] = &e
		}
	}
	add(eventInfo{decode: true}, "orchestrator_init", "episode_initialized", "turn_completed",
		"turn_exception", "map_movement_update", "map_initial_room_added", "objective_completed",
		"objectives_updated", "episode_completed", "episode_finalized", "episode_exception", "stuck_termination",
		"score_change", "objective_progress_reset")
	add(eventInfo{decode: true, era: eraJericho}, "game_over_detected")
	add(eventInfo{era: eraJericho}, "jericho_extraction_success", "jericho_started")
	add(eventInfo{decode: true, need: []byte(`"episode_initialization"`)}, "progress") // only this stage starts a segment
	add(eventInfo{era: eraAgent}, "final_action_selection")
	// zork_response: deaths before Jericho, and the response hash of every turn.
	add(eventInfo{era: eraAgent, decode: true}, "zork_response")
	add(eventInfo{v1: true, decode: true}, "location_penalty_applied")
	add(eventInfo{decode: true}, "critic_override", "state_loop_detected")
	add(eventInfo{era: eraOlder}, "turn_start", "episode_start", "episode_end", "episode_end_debug",
		"score_increase", "score_decrease", "extracted_info", "game_over", "game_over_final", "death_during_inventory")
	return m
}()

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
	// An empty top-level event type is as good as none (log-format.md §1.1:
	// field := top.field ?? top.extras.field).
	if err == nil && len(eventType) == 0 && nested != nil {
		jsonl.ScanObject(nested, func(key, value []byte) {
			if bytes.Equal(key, keyEventType) {
				eventType = stringValue(value)
			}
		})
	}
	return eventType, err
}

// stringValue returns the content of a raw JSON string, or nil: the bytes
// between its quotes, or where it holds an escape (a game's newline, an
// action's quote, a hand-written "turn\u005fcompleted"), the value
// encoding/json decodes, whose rules are then the rules.
func stringValue(v []byte) []byte {
	if len(v) < 2 || v[0] != '"' {
		return nil
	}
	if bytes.IndexByte(v[1:len(v)-1], '\\') < 0 {
		return v[1 : len(v)-1]
	}
	var s string
	if json.Unmarshal(v, &s) != nil {
		return nil
	}
	return []byte(s)
}

// isRecord reports whether line is a log record: a JSON object with a key
// that the writer puts in every record, or a broken one running into one.
func isRecord(line []byte) bool {
	found := false
	err := jsonl.ScanObject(line, func(key, _ []byte) {
		switch string(key) {
		case "timestamp", "level", "event_type", "extras":
			found = true
		}
	})
	return err == nil && found || bytes.Contains(line, []byte(`{"timestamp": `))
}
