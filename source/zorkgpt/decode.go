package zorkgpt

import (
	"bytes"
	"errors"
	"fmt"

	"github.com/lbanalyze/lbanalyze/jsonl"
	"github.com/lbanalyze/lbanalyze/source"
)

// decoded is what reading one line gives the builder.
type decoded struct {
	event *event // the line's event; nil when lbanalyze knows none
	use   bool   // rec holds the event, to be handled
	rec   record
	long  [2]*responseText // zork_response and raw_zork_response of a long line, hashed where they lie
	// problems found in the line, in order: a salvaged record, why it could
	// not be decoded, a repair, a member left out.
	problems []lineProblem
	vals     values
}

type lineProblem struct {
	skipped bool
	msg     string
}

func (d *decoded) problem(skipped bool, format string, args ...any) {
	d.problems = append(d.problems, lineProblem{skipped, fmt.Sprintf(format, args...)})
}

var (
	keyEventType = []byte("event_type")
	keyExtras    = []byte("extras")
	// eventTypeKey is the key as it is written, to count it in a line.
	eventTypeKey = []byte(`"event_type"`)
	// recordStart begins every record ZorkGPT writes, and so a complete record
	// that a killed run's cut one runs into (salvage).
	recordStart = []byte(`{"timestamp": `)
)

// decode reads one non-blank line: its event type first, from its first
// members (ZorkGPT writes it fourth or fifth, docs/log-format.md, "1.1
// Lines"); only a line whose event matters is decoded, whole, into record.
// Most bytes of a log are LLM text in lines that do not matter
// (docs/log-format.md, "0. In short"): past their event type they are not
// read.
func (d *decoded) decode(line []byte, unterminated bool) {
	d.event, d.use, d.problems = nil, false, d.problems[:0]
	err := d.read(line, unterminated)
	if err == nil {
		return
	}
	if line, err = salvage(line, unterminated, err, d); err == nil {
		if err = d.read(line, false); err != nil {
			d.problem(true, "invalid JSON: %v", err)
		}
	}
}

// read reads a line, or says why it is not one JSON object: a plain line
// in one pass (quick), any other by readAny.
func (d *decoded) read(line []byte, unterminated bool) error {
	if !unterminated && d.quick(line) {
		return nil
	}
	return d.readAny(line, unterminated)
}

// readAny reads any line, or says why it is not one JSON object.
func (d *decoded) readAny(line []byte, unterminated bool) error {
	if unterminated { // a killed run's cut record: checked whole
		if err := jsonl.ScanObject(line, nil); err != nil {
			return err
		}
	}
	et, err := firstEventType(line)
	if err != nil {
		return err
	}
	d.event = events[string(et)]
	if !d.event.decoded(line) && eventTypeTwice(line) {
		// The key twice (under extras too, or repeated): the one that
		// holds, as Python reads it.
		et, err := kindOf(line)
		if err != nil {
			return err
		}
		d.event = events[et]
	}
	if !d.event.decoded(line) {
		if bytes.Contains(line[1:], recordStart) {
			return jsonl.ScanObject(line, nil) // a cut record run into a complete one?
		}
		return nil
	}
	d.rec, d.long = record{}, [2]*responseText{}
	if len(line) > maxValue {
		if line, err = source.Slim(line, d.keep); err != nil {
			return err
		}
	}
	rep, err := jsonl.Decode(line, &d.rec)
	var se *jsonl.SyntaxError
	switch {
	case errors.As(err, &se):
		return err
	case err != nil:
		d.problem(true, "cannot decode %s: %v", d.event.name, err)
		return nil
	}
	d.rec.flatten()
	if d.event = events[d.rec.EventType]; !d.event.decoded(line) {
		return nil // a repeated event_type: the last one holds
	}
	if rep&jsonl.RepairedUTF8 != 0 {
		d.problem(false, "invalid UTF-8 in %s, replaced with U+FFFD", d.event.name)
	}
	if d.long[0] != nil {
		d.rec.ZorkResponse = d.long[0]
	}
	if d.long[1] != nil {
		d.rec.RawZorkResponse = d.long[1]
	}
	d.use = true
	return nil
}

// decoded says whether a line of this event is decoded: lbanalyze handles
// it, and the line holds what it needs.
func (e *event) decoded(line []byte) bool {
	return e != nil && e.handle != nil && (e.need == nil || bytes.Contains(line, e.need))
}

// maxValue bounds a member that is kept: an action, a room or an objective is
// a few words, and a longer value is no name of them.
const maxValue = 64 << 10

// recordKeys are the members record names.
var recordKeys = source.Keys(record{})

// keep keeps, of a long line, the members record names, each up to maxValue:
// a longer one is left out with a word, a game response hashed where it lies
// (it is the bulk of the lines that matter, and only its hash is kept).
func (d *decoded) keep(key string, value []byte) ([]byte, bool) {
	switch {
	case !recordKeys[key]:
	case len(value) <= maxValue:
		return value, true
	case key == "zork_response":
		d.long[0] = hashed(value)
	case key == "raw_zork_response":
		d.long[1] = hashed(value)
	default:
		d.problem(false, "%s of %s is %s, longer than %s: not kept", key, d.event.name, jsonl.Size(int64(len(value))), jsonl.Size(maxValue))
	}
	return nil, false
}

func hashed(value []byte) *responseText {
	t := new(responseText)
	t.UnmarshalJSON(value)
	return t
}

// firstEventType is a line's event type: its top-level event_type or, when
// that is absent or empty, the one under extras (docs/log-format.md, "1.1
// Lines"). The scan stops at the first top-level one that is not empty, the
// rest of the line unchecked: a line that holds the key twice is decoded to
// learn which one holds (kind).
func firstEventType(line []byte) (et []byte, err error) {
	var extras []byte
	err = jsonl.ScanObject(line, func(key, value []byte) bool {
		switch {
		case bytes.Equal(key, keyEventType):
			et = stringValue(value)
			return len(et) == 0
		case bytes.Equal(key, keyExtras) && len(value) > 0 && value[0] == '{':
			extras = value
		}
		return true
	})
	if err == nil && len(et) == 0 && extras != nil {
		jsonl.ScanObject(extras, func(key, value []byte) bool {
			if bytes.Equal(key, keyEventType) {
				et = stringValue(value)
			}
			return true
		})
	}
	return et, err
}

// kind is a line's event type, decoded.
type kind struct {
	EventType string `json:"event_type"`
	Extras    *struct {
		EventType string `json:"event_type"`
	} `json:"extras"`
}

// kindOf decodes a line's event type (a long line slimmed first).
func kindOf(line []byte) (string, error) {
	var k kind
	var err error
	if len(line) > maxValue {
		if line, err = source.Slim(line, source.Only(source.Keys(k))); err != nil {
			return "", err
		}
	}
	if _, err = jsonl.Decode(line, &k); k.EventType == "" && k.Extras != nil {
		return k.Extras.EventType, err
	}
	return k.EventType, err
}

// salvage handles a line that is not one JSON object. A killed run can leave a
// partial record that the next run's first record continues on the same line:
// the complete one is kept. Otherwise the line is reported and skipped.
func salvage(line []byte, unterminated bool, err error, d *decoded) ([]byte, error) {
	if i := bytes.LastIndex(line, recordStart); i > 0 {
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
// action's quote, a hand-written "turn\u005fcompleted"), the value a JSON
// decoder gives.
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
	err := jsonl.ScanObject(line, func(key, _ []byte) bool {
		switch string(key) {
		case "timestamp", "level", "event_type", "extras":
			found = true
		}
		return true
	})
	return err == nil && found || bytes.Contains(line, recordStart)
}

// notRecord says why a line that is not a record is not one.
func notRecord(line []byte) string {
	if err := jsonl.ScanObject(line, nil); err != nil {
		return err.Error()
	}
	return "a JSON object without timestamp, level or event_type"
}

// eventTypeTwice says whether line holds eventTypeKey twice.
func eventTypeTwice(line []byte) bool { return bytes.Count(line, eventTypeKey) > 1 }
