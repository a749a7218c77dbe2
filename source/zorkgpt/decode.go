package zorkgpt

import (
	"bytes"
	"fmt"

	"github.com/lbanalyze/lbanalyze/jsonl"
)

// decoded is what reading one line gives the builder.
type decoded struct {
	event *event // the line's event; nil when lbanalyze knows none
	use   bool   // rec holds the event, to be handled
	rec   record
	// problems found in the line, in order: a salvaged record, a repair, or
	// why it could not be decoded.
	problems []lineProblem
}

type lineProblem struct {
	skipped bool
	msg     string
}

func (d *decoded) problem(skipped bool, format string, args ...any) {
	d.problems = append(d.problems, lineProblem{skipped, fmt.Sprintf(format, args...)})
}

// decoder reads lines; it keeps its buffers from one line to the next.
type decoder struct {
	codec   jsonl.Codec
	members [][2][]byte // the line's members, key and value, as ScanObject gives them
	known   []byte      // the members record names, as an object
	extras  []byte      // the line's "extras" object, if any
	decoded decoded
}

var (
	keyEventType = []byte("event_type")
	keyExtras    = []byte("extras")
)

// decode reads one non-blank line: one scan of its structure finds the event
// type and the members record names; only the lines whose event matters are
// decoded, from those members alone. Most bytes of a log are LLM text in lines
// that do not matter (docs/log-format.md, "0. In short").
func (dc *decoder) decode(line []byte, unterminated bool) *decoded {
	d := &dc.decoded
	d.event, d.use, d.problems = nil, false, d.problems[:0]
	et, err := dc.scan(line)
	if err != nil {
		if line, err = salvage(line, unterminated, err, d); err != nil {
			return d
		}
		if et, err = dc.scan(line); err != nil {
			return d
		}
	}
	d.event = events[string(et)]
	if d.event == nil || d.event.handle == nil || d.event.need != nil && !bytes.Contains(line, d.event.need) {
		return d
	}
	d.rec = record{}
	dc.known = dc.known[:0]
	var hashed [2]*responseText // the responses, hashed where they lie
	for _, m := range dc.members {
		if i := dc.response(d, m[0]); i >= 0 {
			hashed[i] = new(responseText)
			hashed[i].UnmarshalJSON(m[1])
			continue
		}
		if len(m[1]) > maxValue {
			dc.tooLong(d, m[0], m[1])
			continue
		}
		dc.known, _ = members.Append(dc.known, m[0], m[1])
	}
	rep, err := dc.codec.Decode(jsonl.Object(dc.known), &d.rec)
	if err != nil {
		d.problem(true, "cannot decode %s: %v", d.event.name, err)
		return d
	}
	if hashed[0] != nil {
		d.rec.ZorkResponse = hashed[0]
	}
	if hashed[1] != nil {
		d.rec.RawZorkResponse = hashed[1]
	}
	if rep&jsonl.RepairedUTF8 != 0 {
		d.problem(false, "invalid UTF-8 in %s, replaced with U+FFFD", d.event.name)
	}
	d.rec.flatten()
	d.use = true
	return d
}

// maxValue bounds the value of a member that is decoded: an action, a room
// or an objective is a few words, and a longer value (a line of up to 16
// MiB is read whole) would be copied four times over to be kept whole.
const maxValue = 64 << 10

// response is the index of a member's key among the game responses of a
// zork_response line (0 zork_response, 1 raw_zork_response), -1 for any
// other: a response is only hashed, from its bytes where they lie, never
// copied to be decoded (it is most of the bytes of the lines that matter).
func (dc *decoder) response(d *decoded, key []byte) int {
	if d.event.name != "zork_response" {
		return -1
	}
	switch name, _ := members.Name(key); name {
	case "zork_response":
		return 0
	case "raw_zork_response":
		return 1
	}
	return -1
}

// tooLong leaves out a member longer than maxValue that the record names,
// with a word.
func (dc *decoder) tooLong(d *decoded, key, value []byte) {
	if name, ok := members.Name(key); ok {
		d.problem(false, "%s of %s is %s, longer than %s: not kept", name, d.event.name, jsonl.Size(int64(len(value))), jsonl.Size(maxValue))
	}
}

// scan checks that line is one JSON object, gathers its members, and
// returns its event type: top-level, or nested under "extras" when
// the top level has none (docs/log-format.md, "1.1 Lines").
func (dc *decoder) scan(line []byte) (eventType []byte, err error) {
	dc.members, dc.extras = dc.members[:0], nil
	err = jsonl.ScanObject(line, func(key, value []byte) {
		switch {
		case bytes.Equal(key, keyEventType):
			eventType = stringValue(value)
		case bytes.Equal(key, keyExtras) && len(value) > 0 && value[0] == '{':
			dc.extras = value
		}
		dc.members = append(dc.members, [2][]byte{key, value})
	})
	if err == nil && len(eventType) == 0 && dc.extras != nil {
		eventType = nestedEventType(dc.extras)
	}
	return eventType, err
}

func nestedEventType(extras []byte) (eventType []byte) {
	jsonl.ScanObject(extras, func(key, value []byte) {
		if bytes.Equal(key, keyEventType) {
			eventType = stringValue(value)
		}
	})
	return eventType
}

// salvage handles a line that is not one JSON object. A killed run can leave a
// partial record that the next run's first record continues on the same line:
// the complete one is kept. Otherwise the line is reported and skipped.
func salvage(line []byte, unterminated bool, err error, d *decoded) ([]byte, error) {
	if i := bytes.LastIndex(line, []byte(`{"timestamp": `)); i > 0 {
		if jsonl.ScanObject(line[i:], nil) == nil {
			d.problem(true, "a broken record (%v) runs into a complete one at column %d: only the complete one is used", err, i+1)
			return line[i:], nil
		}
	}
	if unterminated {
		d.problem(true, "truncated last line (no newline at the end of the file): %v", err)
	} else {
		d.problem(true, "invalid JSON: %v", err)
	}
	return nil, err
}

// stringValue returns the content of a raw JSON string, or nil: the bytes
// between its quotes, or where it holds an escape (a game's newline, an
// action's quote, a hand-written "turn\u005fcompleted"), the value
// encoding/json decodes, whose rules are then the rules.
func stringValue(v []byte) []byte {
	if len(v) < 2 || v[0] != '"' {
		return nil
	}
	return jsonl.Unescape(v[1 : len(v)-1])
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

// notRecord says why a line that is not a record is not one.
func notRecord(line []byte) string {
	if err := jsonl.ScanObject(line, nil); err != nil {
		return err.Error()
	}
	return "a JSON object without timestamp, level or event_type"
}
