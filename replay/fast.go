package replay

import (
	"bytes"
	"encoding/binary"
	"reflect"
	"strconv"
	"strings"
	"unicode/utf8"
	"unsafe"

	"github.com/lbanalyze/lbanalyze/jsonl"
)

// scan reads a line's structure once: it returns its event type (top-level,
// or nested under "extras", as peek does) and decodes its fields into r as it
// goes, as fastDecode would. When fast is true and cleanText(line) holds
// (checked only for the lines that matter), r holds the line exactly as
// encoding/json would decode it; otherwise (control characters, an invalid
// escape, invalid UTF-8, a key or value fastDecode declines) r is to be
// decoded again by the codec. err is the line's syntax error, as peek gives it.
func scan(line []byte, r *record, a *arenas) (eventType []byte, fast bool, err error) {
	var nested []byte
	ok := true
	err = jsonl.ScanObject(line, func(key, value []byte) {
		switch {
		case bytes.Equal(key, keyEventType):
			eventType = stringValue(value)
			if info := events[string(eventType)]; info == nil || !info.decode {
				ok = false // a line that is not decoded: no need to read its fields
			}
		case bytes.Equal(key, keyExtras) && len(value) > 0 && value[0] == '{':
			nested = value
		}
		if ok {
			ok = field(r, a, key, value, true)
		}
	})
	if err != nil {
		return eventType, false, err
	}
	if len(eventType) == 0 && nested != nil {
		jsonl.ScanObject(nested, func(key, value []byte) {
			if bytes.Equal(key, keyEventType) {
				eventType = stringValue(value)
			}
		})
	}
	return eventType, ok, nil
}

// cleanText reports whether a line has no raw control character, no escape
// JSON does not allow, and valid UTF-8: what fastDecode needs to decode it as
// encoding/json does (which rejects the first two and repairs the third).
// Eight bytes at a time where none of them needs a look.
func cleanText(line []byte) bool {
	const (
		ones  = 0x0101010101010101
		highs = 0x8080808080808080
	)
	ascii := true
	for i := 0; i < len(line); {
		if i+8 <= len(line) {
			// No high bit, no byte below 0x20, no backslash (a zero byte
			// once xored).
			w := binary.LittleEndian.Uint64(line[i:])
			x := w ^ (ones * '\\')
			if (w|(w-ones*0x20)&^w|(x-ones)&^x)&highs == 0 {
				i += 8
				continue
			}
		}
		switch c := line[i]; {
		case c < 0x20:
			return false
		case c >= 0x80:
			ascii = false
		case c == '\\':
			n := escapeLen(line[i:])
			if n == 0 {
				return false
			}
			i += n
			continue
		}
		i++
	}
	return ascii || utf8.Valid(line)
}

// escapeLen is the length of the JSON escape at the start of b, 0 if it is
// not one.
func escapeLen(b []byte) int {
	if len(b) < 2 {
		return 0
	}
	switch b[1] {
	case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
		return 2
	case 'u':
		if len(b) < 6 {
			return 0
		}
		for _, c := range b[2:6] {
			if !('0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F') {
				return 0
			}
		}
		return 6
	}
	return 0
}

// fastDecode decodes a line that matters straight from the scan of its
// structure, without a JSON decoder and, unless a string holds an escape,
// without allocating: strings point into the line (valid until the next
// line: whatever is kept is cloned). It declines (false) whatever it cannot
// decode exactly as encoding/json would: a raw control character, invalid
// UTF-8, a key in another case or with an escape, a value of the wrong type.
// Those lines go to the codec, whose verdict and message stand.
func fastDecode(line []byte, r *record, a *arenas) bool {
	if !cleanText(line) {
		return false
	}
	ok := true
	err := jsonl.ScanObject(line, func(key, value []byte) {
		if ok {
			ok = field(r, a, key, value, true)
		}
	})
	return ok && err == nil
}

// arena holds the values a fast-decoded record points to.
type arena struct {
	ints  [16]int64
	strs  [12]string
	flts  [2]float64
	resp  [2]responseText
	bools [1]bool
	count listLen
	extra record
}

// arenas are the values of a record (0) and of its extras (1).
type arenas [2]arena

// field sets the field of r named key from its raw value (top: r is the line's
// record, not its extras).
func field(r *record, as *arenas, key, value []byte, top bool) bool {
	a := &as[0]
	if !top {
		a = &as[1]
	}
	null := isNull(value)
	str := func(slot int, p **string) bool {
		switch {
		case null:
			*p = nil
		case value[0] == '"':
			s, ok := unquote(value)
			if !ok {
				return false
			}
			a.strs[slot] = s
			*p = &a.strs[slot]
		default:
			return false
		}
		return true
	}
	num := func(slot int, p **int64) bool {
		if null {
			*p = nil
			return true
		}
		v, err := strconv.ParseInt(unsafe.String(unsafe.SliceData(value), len(value)), 10, 64)
		if err != nil {
			return false
		}
		a.ints[slot] = v
		*p = &a.ints[slot]
		return true
	}
	flt := func(slot int, p **float64) bool {
		if null {
			*p = nil
			return true
		}
		v, err := strconv.ParseFloat(unsafe.String(unsafe.SliceData(value), len(value)), 64)
		if err != nil || value[0] == '"' {
			return false
		}
		a.flts[slot] = v
		*p = &a.flts[slot]
		return true
	}
	resp := func(slot int, p **responseText) bool {
		if null {
			*p = nil
			return true
		}
		a.resp[slot] = responseText{}
		a.resp[slot].UnmarshalJSON(value) // hashes the value as written, as the codec does
		*p = &a.resp[slot]
		return true
	}
	if bytes.IndexByte(key, '\\') >= 0 {
		return false // a key written with an escape: left to the codec
	}
	switch string(key) {
	case "location_id":
		return num(11, &r.LocationID)
	case "recent_visits":
		return num(12, &r.RecentVisits)
	case "loop_start_turn":
		return num(13, &r.LoopStartTurn)
	case "turns_in_loop":
		return num(14, &r.TurnsInLoop)
	case "base_confidence":
		return flt(0, &r.BaseConfidence)
	case "adjusted_confidence":
		return flt(1, &r.AdjustedConfidence)
	case "zork_response":
		return resp(0, &r.ZorkResponse)
	case "raw_zork_response":
		return resp(1, &r.RawZorkResponse)
	case "event_type":
		switch {
		case null:
			r.EventType = ""
		case value[0] == '"' && bytes.IndexByte(value, '\\') < 0:
			r.EventType = unsafe.String(unsafe.SliceData(value[1:]), len(value)-2)
		default:
			return false
		}
		return true
	case "episode_id":
		return str(0, &r.EpisodeID)
	case "turn":
		return num(0, &r.Turn)
	case "turn_number":
		return num(1, &r.TurnNumber)
	case "score":
		return num(2, &r.Score)
	case "action":
		return str(1, &r.Action)
	case "location":
		return str(2, &r.Location)
	case "stage":
		return str(3, &r.Stage)
	case "to_room_id":
		return num(3, &r.ToRoomID)
	case "to_room":
		return str(4, &r.ToRoom)
	case "room_id":
		return num(4, &r.RoomID)
	case "room_name":
		return str(5, &r.RoomName)
	case "objective":
		return str(6, &r.Objective)
	case "objectives":
		switch {
		case null:
			r.Objectives = nil
		case value[0] == '[':
			a.count = listLen(countItems(value))
			r.Objectives = &a.count
		default:
			return false
		}
		return true
	case "reason":
		return str(7, &r.Reason)
	case "final_score":
		return num(5, &r.FinalScore)
	case "turns_stuck":
		return num(6, &r.TurnsStuck)
	case "old_score":
		return num(7, &r.OldScore)
	case "new_score":
		return num(8, &r.NewScore)
	case "was_stuck_for":
		return num(9, &r.WasStuckFor)
	case "max_turns":
		return num(10, &r.MaxTurns)
	case "error":
		return str(8, &r.Error)
	case "game_file_path":
		return str(9, &r.GameFilePath)
	case "critic_enabled":
		switch string(value) {
		case "null", "NaN", "Infinity", "-Infinity":
			r.CriticEnabled = nil
		case "true", "false":
			a.bools[0] = value[0] == 't'
			r.CriticEnabled = &a.bools[0]
		default:
			return false
		}
		return true
	case "extras":
		switch {
		case null:
			r.Extras = nil
		case value[0] == '{' && top:
			x := &a.extra
			*x = record{}
			ok := true
			jsonl.ScanObject(value, func(k, v []byte) {
				if ok {
					ok = field(x, as, k, v, false)
				}
			})
			r.Extras = x
			return ok
		default:
			return false // extras within extras: left to the codec
		}
		return true
	}
	return !foldsToField(key)
}

// foldsToField reports whether encoding/json might match key, which no field
// of record is named exactly, to one of them without regard to case (as it
// does): a key such as "taskName" that folds to none is ignored by both.
// Keys beyond ASCII are left to the codec, for Unicode's folding.
func foldsToField(key []byte) bool {
	if len(key) > len(lowerBuf{}) {
		return false
	}
	var lower lowerBuf
	upper := false
	for i, c := range key {
		switch {
		case c >= 0x80:
			return true
		case 'A' <= c && c <= 'Z':
			c += 'a' - 'A'
			upper = true
		}
		lower[i] = c
	}
	return upper && recordKeys[string(lower[:len(key)])]
}

// lowerBuf holds a key lower-cased: no key of record is longer.
type lowerBuf [32]byte

// recordKeys are the keys of record, from its tags.
var recordKeys = func() map[string]bool {
	keys := map[string]bool{}
	t := reflect.TypeFor[record]()
	for i := range t.NumField() {
		name, _, _ := strings.Cut(t.Field(i).Tag.Get("json"), ",")
		keys[name] = true
	}
	return keys
}()

// unquote is stringValue as a string pointing into the line (or, for a value
// with an escape, into its decoded copy); false where v is not a JSON string.
func unquote(v []byte) (string, bool) {
	b := stringValue(v)
	return unsafe.String(unsafe.SliceData(b), len(b)), b != nil
}

// isNull reports whether a raw value reads as null: null itself, or Python's
// NaN and ±Infinity (Decode reads them as null too).
func isNull(v []byte) bool {
	switch string(v) {
	case "null", "NaN", "Infinity", "-Infinity":
		return true
	}
	return false
}
