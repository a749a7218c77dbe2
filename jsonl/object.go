package jsonl

import (
	"bytes"
	"fmt"
)

// SyntaxError says where and why a line is not one JSON object.
type SyntaxError struct {
	Column int // 1-based byte column
	Msg    string
}

func (e *SyntaxError) Error() string { return fmt.Sprintf("column %d: %s", e.Column, e.Msg) }

// maxDepth bounds nesting so that a hostile line cannot exhaust the stack.
const maxDepth = 1000

// ScanObject checks that line holds exactly one JSON object, as Python's
// json.dumps writes it (NaN, Infinity and -Infinity allowed), and calls visit
// with each top-level key (raw, between its quotes) and raw value, in order;
// when visit returns false the scan stops there, the rest of the line
// unchecked. It checks the structure only: string contents and escapes are
// left to the decoder of the lines that matter, so that most bytes (LLM text)
// are passed over at memchr speed. It is the one scanner of the lines: for a
// line's kind, a field map's members, and a file's claim (ScanHead).
func ScanObject(line []byte, visit func(key, value []byte) bool) error {
	s := scanner{b: line}
	s.space()
	if s.i >= len(s.b) {
		return s.fail("empty line")
	}
	if s.b[s.i] != '{' {
		return s.fail(fmt.Sprintf("line does not start with '{' but with %s", quoteByte(s.b[s.i])))
	}
	if stop, err := s.object(0, visit); stop || err != nil {
		return err
	}
	s.space()
	if s.i < len(s.b) {
		return s.fail("data after the end of the object (two records run together?)")
	}
	return nil
}

// ScanHead is ScanObject for the first bytes of a file, which may end inside
// the object: visit also sees the top-level member whose value head cuts (or
// that breaks), with what head holds from its start, before the error.
func ScanHead(head []byte, visit func(key, value []byte) bool) error {
	s := scanner{b: head, head: true}
	s.space()
	if s.i >= len(s.b) || s.b[s.i] != '{' {
		return s.fail("not an object")
	}
	_, err := s.object(0, visit)
	return err
}

type scanner struct {
	b    []byte
	i    int
	head bool // ScanHead: a cut value is visited too
}

func (s *scanner) fail(msg string) error { return &SyntaxError{Column: s.i + 1, Msg: msg} }

func (s *scanner) eof() error {
	return &SyntaxError{Column: len(s.b) + 1, Msg: "line ends inside a value (truncated?)"}
}

func (s *scanner) space() {
	for s.i < len(s.b) {
		switch s.b[s.i] {
		case ' ', '\t', '\n', '\r':
			s.i++
		default:
			return
		}
	}
}

// object scans from '{' to its '}'; visit (if not nil) sees its members,
// and stop says it ended the scan.
func (s *scanner) object(depth int, visit func(key, value []byte) bool) (stop bool, err error) {
	if depth >= maxDepth {
		return false, s.fail("nested too deeply")
	}
	s.i++ // '{'
	s.space()
	if s.i < len(s.b) && s.b[s.i] == '}' {
		s.i++
		return false, nil
	}
	for {
		if s.i >= len(s.b) {
			return false, s.eof()
		}
		if s.b[s.i] != '"' {
			return false, s.fail(fmt.Sprintf("expected a key in quotes, found %s", quoteByte(s.b[s.i])))
		}
		keyStart := s.i + 1
		if err := s.str(); err != nil {
			return false, err
		}
		key := s.b[keyStart : s.i-1]
		s.space()
		if s.i >= len(s.b) {
			return false, s.eof()
		}
		if s.b[s.i] != ':' {
			return false, s.fail(fmt.Sprintf("expected ':' after a key, found %s", quoteByte(s.b[s.i])))
		}
		s.i++
		s.space()
		valStart := s.i
		if err := s.value(depth + 1); err != nil {
			if s.head && visit != nil {
				visit(key, s.b[valStart:])
			}
			return false, err
		}
		if visit != nil && !visit(key, s.b[valStart:s.i]) {
			return true, nil
		}
		s.space()
		if s.i >= len(s.b) {
			return false, s.eof()
		}
		switch s.b[s.i] {
		case ',':
			s.i++
			s.space()
		case '}':
			s.i++
			return false, nil
		default:
			return false, s.fail(fmt.Sprintf("expected ',' or '}', found %s", quoteByte(s.b[s.i])))
		}
	}
}

// ScanArray is ScanObject for a JSON array (a member's value, as ScanObject
// gives it): visit sees each element, raw.
func ScanArray(b []byte, visit func(elem []byte)) error {
	s := scanner{b: b}
	s.space()
	if s.i >= len(s.b) || s.b[s.i] != '[' {
		return s.fail("not an array")
	}
	return s.array(0, visit)
}

// array scans from '[' to its ']'; visit (if not nil) sees its elements.
func (s *scanner) array(depth int, visit func(elem []byte)) error {
	if depth >= maxDepth {
		return s.fail("nested too deeply")
	}
	s.i++ // '['
	s.space()
	if s.i < len(s.b) && s.b[s.i] == ']' {
		s.i++
		return nil
	}
	for {
		start := s.i
		if err := s.value(depth + 1); err != nil {
			return err
		}
		if visit != nil {
			visit(s.b[start:s.i])
		}
		s.space()
		if s.i >= len(s.b) {
			return s.eof()
		}
		switch s.b[s.i] {
		case ',':
			s.i++
			s.space()
		case ']':
			s.i++
			return nil
		default:
			return s.fail(fmt.Sprintf("expected ',' or ']', found %s", quoteByte(s.b[s.i])))
		}
	}
}

func (s *scanner) value(depth int) error {
	if s.i >= len(s.b) {
		return s.eof()
	}
	switch c := s.b[s.i]; {
	case c == '"':
		return s.str()
	case c == '{':
		_, err := s.object(depth, nil)
		return err
	case c == '[':
		return s.array(depth, nil)
	default:
		return s.scalar()
	}
}

// str scans a string from its opening quote to just past its closing quote,
// at memchr speed.
func (s *scanner) str() error {
	b := s.b
	for i := s.i + 1; ; {
		j := bytes.IndexByte(b[i:], '"')
		if j < 0 {
			return s.eof()
		}
		q := i + j
		// The quote is escaped when an odd number of backslashes precede it.
		n := 0
		for k := q - 1; k > s.i && b[k] == '\\'; k-- {
			n++
		}
		if n%2 == 0 {
			s.i = q + 1
			return nil
		}
		i = q + 1
	}
}

// scalar scans a number or a literal, Python's NaN and ±Infinity included.
func (s *scanner) scalar() error {
	start := s.i
	for s.i < len(s.b) {
		switch s.b[s.i] {
		case ',', '}', ']', ' ', '\t', '\n', '\r', ':', '"', '{', '[':
			goto done
		}
		s.i++
	}
done:
	tok := s.b[start:s.i]
	switch string(tok) {
	case "true", "false", "null", "NaN", "Infinity", "-Infinity":
		return nil
	}
	if ValidNumber(tok) {
		return nil
	}
	if s.i >= len(s.b) {
		return s.eof() // cut, whatever it was to be
	}
	s.i = start
	if len(tok) == 0 {
		return s.fail(fmt.Sprintf("expected a value, found %s", quoteByte(s.b[s.i])))
	}
	return s.fail(fmt.Sprintf("invalid value %q", clip(tok, 20)))
}

// ValidNumber reports whether tok is a JSON number.
func ValidNumber(tok []byte) bool {
	i := 0
	if i < len(tok) && tok[i] == '-' {
		i++
	}
	switch {
	case i < len(tok) && tok[i] == '0':
		i++
	case i < len(tok) && tok[i] >= '1' && tok[i] <= '9':
		i = digits(tok, i)
	default:
		return false
	}
	if i < len(tok) && tok[i] == '.' {
		if i = digits(tok, i+1); tok[i-1] == '.' {
			return false // no digit after the point
		}
	}
	if i < len(tok) && (tok[i] == 'e' || tok[i] == 'E') {
		i++
		if i < len(tok) && (tok[i] == '+' || tok[i] == '-') {
			i++
		}
		d := i
		if i = digits(tok, i); i == d {
			return false
		}
	}
	return i == len(tok)
}

// digits is the index in tok past the decimal digits from i.
func digits(tok []byte, i int) int {
	for i < len(tok) && tok[i] >= '0' && tok[i] <= '9' {
		i++
	}
	return i
}

func quoteByte(c byte) string {
	if c >= 0x20 && c < 0x7f {
		return fmt.Sprintf("'%c'", c)
	}
	return fmt.Sprintf("byte 0x%02x", c)
}

func clip(b []byte, n int) string {
	if len(b) > n {
		return string(b[:n]) + "…"
	}
	return string(b)
}
