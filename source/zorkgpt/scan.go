package zorkgpt

import (
	"unicode/utf8"

	"github.com/lbanalyze/lbanalyze/jsonl"
)

// scan decodes line into r as jsonl.Decode would, with a jsonl.Cursor that
// checks every byte and reads only record's members: goccy/go-json's decoding
// was half of reading a log (docs/PERFORMANCE.md, "Many episodes"). False
// when the cursor is not sure (invalid UTF-8, NaN, an escaped key, a repeated
// member, extras, a value of another type): jsonl.Decode reads the line then,
// and says what it says.
func scan(line []byte, r *record, h *held) bool {
	if !utf8.Valid(line) {
		return false // jsonl.Decode mends it
	}
	c := jsonl.Cursor{B: line}
	var seen uint64
	err := c.Object(func(key []byte) error {
		i, p := r.field(string(key))
		if p == nil {
			return c.Skip()
		}
		if seen&(1<<i) != 0 {
			return jsonl.ErrUnsure // the last of a repeat holds, merged as goccy/go-json merges
		}
		seen |= 1 << i
		return h.set(&c, p, i)
	})
	if c.Space(); err != nil || c.I != len(line) {
		*r = record{}
		return false
	}
	return true
}

// held holds what a record's members point to, member i in slot i, until
// the next line: an allocation a member was a tenth of reading. The last
// text of each member is kept, for a line to repeat it without a copy (an
// episode's id is on every line).
type held struct {
	ints   [fields]int64
	floats [fields]float64
	bools  [fields]bool
	texts  [fields]string
	resps  [fields]responseText
}

// fields is the number of members record names.
const fields = 31

// set reads the value at c into member i, which p points to.
func (h *held) set(c *jsonl.Cursor, p any, i int) error {
	var err error
	var null bool
	switch p := p.(type) {
	case *string:
		*p, _, err = h.text(c, i)
	case **string:
		if h.texts[i], null, err = h.text(c, i); !null && err == nil {
			*p = &h.texts[i]
		}
	case **int64:
		if h.ints[i], null, err = c.Int(); !null && err == nil {
			*p = &h.ints[i]
		}
	case **float64:
		if h.floats[i], null, err = c.Float(); !null && err == nil {
			*p = &h.floats[i]
		}
	case **bool:
		if h.bools[i], null, err = c.Bool(); !null && err == nil {
			*p = &h.bools[i]
		}
	case **responseText:
		var v []byte
		if v, err = c.Value(); err == nil && string(v) != "null" {
			h.resps[i] = responseText{}
			h.resps[i].UnmarshalJSON(v)
			*p = &h.resps[i]
		}
	default: // extras: an old-style caller's, read by goccy/go-json
		err = jsonl.ErrUnsure
	}
	return err
}

// text reads a string or null, the text member i had last when it is that.
func (h *held) text(c *jsonl.Cursor, i int) (string, bool, error) {
	t, null, err := c.Text()
	if string(t) != h.texts[i] {
		h.texts[i] = string(t)
	}
	return h.texts[i], null, err
}

// field is the member of r named key, and its number; nil when record names
// none.
func (r *record) field(key string) (int, any) {
	switch key {
	case "event_type":
		return 0, &r.EventType
	case "episode_id":
		return 1, &r.EpisodeID
	case "turn":
		return 2, &r.Turn
	case "turn_number":
		return 3, &r.TurnNumber
	case "score":
		return 4, &r.Score
	case "action":
		return 5, &r.Action
	case "location":
		return 6, &r.Location
	case "stage":
		return 7, &r.Stage
	case "to_room_id":
		return 8, &r.ToRoomID
	case "to_room":
		return 9, &r.ToRoom
	case "room_id":
		return 10, &r.RoomID
	case "room_name":
		return 11, &r.RoomName
	case "objective":
		return 12, &r.Objective
	case "reason":
		return 13, &r.Reason
	case "turns_stuck":
		return 14, &r.TurnsStuck
	case "old_score":
		return 15, &r.OldScore
	case "new_score":
		return 16, &r.NewScore
	case "was_stuck_for":
		return 17, &r.WasStuckFor
	case "max_turns":
		return 18, &r.MaxTurns
	case "error":
		return 19, &r.Error
	case "critic_enabled":
		return 20, &r.CriticEnabled
	case "game_file_path":
		return 21, &r.GameFilePath
	case "location_id":
		return 22, &r.LocationID
	case "recent_visits":
		return 23, &r.RecentVisits
	case "base_confidence":
		return 24, &r.BaseConfidence
	case "adjusted_confidence":
		return 25, &r.AdjustedConfidence
	case "loop_start_turn":
		return 26, &r.LoopStartTurn
	case "turns_in_loop":
		return 27, &r.TurnsInLoop
	case "zork_response":
		return 28, &r.ZorkResponse
	case "raw_zork_response":
		return 29, &r.RawZorkResponse
	case "extras":
		return 30, &r.Extras
	}
	return 0, nil
}
