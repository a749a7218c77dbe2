package zorkgpt

import (
	"bytes"
	"reflect"
	"strings"
	"unicode/utf8"
	"unsafe"

	"github.com/lbanalyze/lbanalyze/internal/jsonscan"
)

// quick reads a plain line in one pass, as read's general path does, and
// says whether it could: a line whose event is decoded is decoded into rec
// by a jsonscan.Cursor, members of record's kinds read in place, the rest
// checked as goccy/go-json checks it (docs/PERFORMANCE.md, "Many
// episodes"). It is not sure of a long line, a key written twice or escaped,
// a member of another kind than record's, extras, invalid UTF-8 or anything
// the cursor is not sure of: the general path reads those, and a test holds
// both paths to the same result (TestQuickAsGeneral, FuzzQuick). A line
// whose event is not decoded is read to its event type and checked as the
// general path checks it.
func (d *decoded) quick(line []byte) bool {
	if len(line) > maxValue {
		return false
	}
	d.rec = record{}
	q := quickLine{c: jsonscan.Cursor{B: line}, d: d}
	if q.c.Peek() != '{' {
		return false
	}
	q.c.I++
	if q.c.Peek() == '}' {
		return false
	}
	for more := true; more; {
		key, ok := q.key()
		if !ok {
			return false
		}
		m, ok := members[string(key)]
		switch {
		case !ok:
			ok = q.c.Skip() == nil
		case m.kind == mEventType && q.seen&m.bit == 0:
			var e *event
			if e, ok = q.eventType(m); ok && !e.decoded(line) {
				return d.passOver(line, e)
			}
			ok = ok && utf8.Valid(line)
		default:
			ok = q.member(m)
		}
		if !ok {
			return false
		}
		if more, ok = q.next(); !ok {
			return false
		}
	}
	if q.c.Space(); q.c.I != len(line) {
		return false
	}
	if q.seen&eventTypeBit == 0 {
		return d.passOver(line, nil) // no event type
	}
	d.event, d.use = events[d.rec.EventType], true
	return true
}

// passOver takes a line of event e, which is not decoded, unless the
// general path would judge it further: it holds the key event_type again,
// or a record start after its first byte.
func (d *decoded) passOver(line []byte, e *event) bool {
	if eventTypeTwice(line) || bytes.Contains(line[1:], recordStart) {
		return false
	}
	d.event, d.use = e, false
	return true
}

// quickLine is a line being read by quick.
type quickLine struct {
	c    jsonscan.Cursor
	d    *decoded
	seen uint32 // the members of record read
}

// eventType reads the line's event type and the event it names.
func (q *quickLine) eventType(m member) (*event, bool) {
	t, null, err := q.c.Text()
	if err != nil || null || len(t) == 0 {
		return nil, false
	}
	q.seen |= m.bit
	q.d.rec.EventType = jsonscan.View(t)
	return events[q.d.rec.EventType], true
}

// member reads the value of member m into rec: what a pointer of rec points
// to is held in vals, a text in the line itself (jsonscan.View), which a
// handler copies where it keeps it (source.Text, source.Texts).
func (q *quickLine) member(m member) bool {
	if q.seen&m.bit != 0 {
		return false // a key twice: the decoder's
	}
	q.seen |= m.bit
	c, v := &q.c, &q.d.vals
	field := unsafe.Add(unsafe.Pointer(&q.d.rec), m.offset)
	var null bool
	var err error
	switch m.kind {
	case mText:
		var t []byte
		if t, null, err = c.Text(); err == nil && !null {
			v.texts[m.slot] = jsonscan.View(t)
			*(**string)(field) = &v.texts[m.slot]
		}
	case mNumber:
		n, null, ok := q.number()
		if !ok {
			return false
		}
		if !null {
			v.numbers[m.slot] = n
			*(**int64)(field) = &v.numbers[m.slot]
		}
	case mFraction:
		var f float64
		if f, null, err = c.Float(); err == nil && !null {
			v.fractions[m.slot] = f
			*(**float64)(field) = &v.fractions[m.slot]
		}
	case mFlag:
		var b bool
		if b, null, err = c.Bool(); err == nil && !null {
			v.flags[m.slot] = b
			*(**bool)(field) = &v.flags[m.slot]
		}
	case mResponse:
		if c.Peek() != '"' {
			return false
		}
		var raw []byte
		if raw, err = c.Value(); err == nil {
			t := &v.responses[m.slot]
			*t = responseText{}
			t.UnmarshalJSON(raw)
			*(**responseText)(field) = t
		}
	default:
		return false
	}
	return err == nil
}

// key reads a key without escapes and the colon after it.
func (q *quickLine) key() ([]byte, bool) {
	b, i := q.c.B, q.c.I
	if i >= len(b) || b[i] != '"' {
		return nil, false
	}
	start := i + 1
	for i = start; i < len(b) && b[i] != '"'; i++ {
		if b[i] == '\\' || b[i] < 0x20 {
			return nil, false
		}
	}
	key := b[start:i]
	if i+2 < len(b) && b[i+1] == ':' && b[i+2] == ' ' { // as json.dumps writes it
		q.c.I = i + 3
		return key, true
	}
	q.c.I = i + 1
	if q.c.Peek() != ':' {
		return nil, false
	}
	q.c.I++
	return key, true
}

// next passes the comma after a member, or the closing brace (more false).
func (q *quickLine) next() (more, ok bool) {
	b, i := q.c.B, q.c.I
	if i+2 < len(b) && b[i] == ',' && b[i+1] == ' ' && b[i+2] == '"' { // as json.dumps writes it
		q.c.I = i + 2
		return true, true
	}
	switch q.c.Peek() {
	case ',':
		q.c.I++
		q.c.Space()
		return true, true
	case '}':
		q.c.I++
		return false, true
	}
	return false, false
}

// number reads a whole number that fits 18 digits, or null; ok false for
// any other value.
func (q *quickLine) number() (n int64, null, ok bool) {
	q.c.Space()
	b, i := q.c.B, q.c.I
	if i+4 <= len(b) && string(b[i:i+4]) == "null" {
		return 0, true, q.c.Null() == nil
	}
	neg := i < len(b) && b[i] == '-'
	if neg {
		i++
	}
	start := i
	for ; i < len(b) && b[i]-'0' <= 9; i++ {
		n = n*10 + int64(b[i]-'0')
	}
	digits := i - start
	if digits == 0 || digits > 18 || digits > 1 && b[start] == '0' || i >= len(b) || !ends[b[i]] {
		return 0, false, false
	}
	if neg {
		n = -n
	}
	q.c.I = i
	return n, false, true
}

// ends are the bytes that may end a number in quick: others (a fraction, an
// exponent) are left to the general path.
var ends = [256]bool{',': true, '}': true, ']': true, ' ': true, '\t': true, '\n': true, '\r': true}

// memberKind is how quick reads a member of record: by the type of its
// field.
type memberKind uint8

const (
	mOther memberKind = iota // extras, and any other: the decoder's
	mEventType
	mText
	mNumber
	mFraction
	mFlag
	mResponse
)

var kinds = map[reflect.Type]memberKind{
	reflect.TypeFor[string]():        mEventType,
	reflect.TypeFor[*string]():       mText,
	reflect.TypeFor[*int64]():        mNumber,
	reflect.TypeFor[*float64]():      mFraction,
	reflect.TypeFor[*bool]():         mFlag,
	reflect.TypeFor[*responseText](): mResponse,
}

// member is a field of record, as quick reads it.
type member struct {
	kind   memberKind
	offset uintptr // of the field in record
	bit    uint32  // of the field among record's, for a key twice
	slot   int     // of its value in values
}

// values hold what the pointers of a record read by quick point to, a slot
// a member.
type values struct {
	texts     [32]string
	numbers   [32]int64
	fractions [32]float64
	flags     [32]bool
	responses [32]responseText
}

// members are record's fields by their keys.
var members = func() map[string]member {
	m := map[string]member{}
	t := reflect.TypeFor[record]()
	if t.NumField() > 32 {
		panic("zorkgpt: record has more fields than quick has bits")
	}
	for i := range t.NumField() {
		f := t.Field(i)
		key, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		m[key] = member{kind: kinds[f.Type], offset: f.Offset, bit: 1 << i, slot: i}
	}
	return m
}()

var eventTypeBit = members["event_type"].bit
