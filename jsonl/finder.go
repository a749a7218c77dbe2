package jsonl

import (
	"bytes"
)

// fieldFinder finds, in a line fed to it piece by piece, the string value of
// a top-level key (or, failing that, of the same key in the object under the
// top-level key nested), without holding the line: it follows only strings
// and nesting, which is enough to tell keys from values. It does not check
// the structure; ScanObject does that for the lines that are kept.
type fieldFinder struct {
	key, nested string

	begun     bool
	notObject bool // the first byte that is not a space is not '{'
	depth     int  // nesting outside strings: 1 inside the line's object
	inExtras  bool // inside the object under nested (depth 2)
	inString  bool
	escaped   bool // the string's last byte so far was an unescaped backslash
	expect    expectation
	capture   bool   // the current string is a key, or the value sought
	isKey     bool   // the current string is a key
	buf       []byte // the string being captured, up to maxCapture
	member    member // whose value comes next
	found     []byte // the value, raw; nil until found
	done      bool   // the top-level object has ended
}

type expectation uint8

const (
	expectNothing expectation = iota
	expectKey                 // at a level that matters, after '{' or ','
	expectColon
	expectValue
)

type member uint8

const (
	otherMember member = iota
	keyMember
	nestedMember
)

// maxCapture bounds a key or value worth reading: event types are short.
const maxCapture = 256

func (f *fieldFinder) reset() {
	*f = fieldFinder{key: f.key, nested: f.nested, buf: f.buf[:0]}
}

// decided reports whether the value has been found, or the object has ended
// without it (then value is nil).
func (f *fieldFinder) decided() bool { return f.found != nil || f.done }

// value is the string found, unescaped; nil when there is none, or when it
// is too long or not a valid string.
func (f *fieldFinder) value() []byte {
	if f.found == nil || len(f.found) > maxCapture {
		return nil
	}
	return Unescape(f.found)
}

// matters reports whether keys at the current depth are looked at.
func (f *fieldFinder) matters() bool { return f.depth == 1 || f.depth == 2 && f.inExtras }

func (f *fieldFinder) feed(b []byte) {
	for i := 0; i < len(b) && !f.notObject && f.found == nil && !f.done; i++ {
		if f.inString {
			i = f.str(b, i) - 1
			continue
		}
		c := b[i]
		switch c {
		case ' ', '\t', '\r', '\n':
			continue
		}
		if !f.begun {
			f.begun = true
			if c != '{' {
				f.notObject = true
				return
			}
			f.depth, f.expect = 1, expectKey
			continue
		}
		switch c {
		case '"':
			f.inString, f.escaped = true, false
			f.isKey = f.expect == expectKey && f.matters()
			f.capture = f.isKey || f.expect == expectValue && f.member == keyMember && f.matters()
			f.buf = f.buf[:0]
			f.expect = expectNothing
		case '{':
			if f.depth == 1 && f.expect == expectValue && f.member == nestedMember {
				f.inExtras = true
				f.depth, f.expect = 2, expectKey
				continue
			}
			f.depth++
			f.expect = expectNothing
		case '[':
			f.depth++
			f.expect = expectNothing
		case '}', ']':
			f.depth--
			if f.depth == 1 {
				f.inExtras = false
			}
			if f.depth <= 0 {
				f.done = true
			}
			f.expect = expectNothing
		case ',':
			if f.matters() {
				f.expect = expectKey
			}
		case ':':
			if f.expect == expectColon {
				f.expect = expectValue
			}
		default:
			f.expect = expectNothing // a number or a literal
		}
	}
}

// str reads string content from b[i:] and returns where it stopped: past the
// closing quote, or at the end of b.
func (f *fieldFinder) str(b []byte, i int) int {
	if f.escaped { // the previous piece ended with a backslash
		f.escaped = false
		f.keep(b[i : i+1])
		i++
	}
	for i < len(b) {
		j := bytes.IndexByte(b[i:], '"')
		if j < 0 {
			f.keep(b[i:])
			f.escaped = trailingBackslashes(b[i:])%2 == 1
			return len(b)
		}
		q := i + j
		f.keep(b[i:q])
		if trailingBackslashes(b[i:q])%2 == 1 {
			f.keep(b[q : q+1])
			i = q + 1
			continue
		}
		f.inString = false
		f.endString()
		return q + 1
	}
	return i
}

func trailingBackslashes(b []byte) int {
	n := 0
	for n < len(b) && b[len(b)-1-n] == '\\' {
		n++
	}
	return n
}

// keep adds to the string being captured, up to one byte past maxCapture
// (which marks it too long).
func (f *fieldFinder) keep(b []byte) {
	if f.capture && len(f.buf) <= maxCapture {
		f.buf = append(f.buf, b[:min(len(b), maxCapture+1-len(f.buf))]...)
	}
}

func (f *fieldFinder) endString() {
	if !f.capture {
		return
	}
	if f.isKey {
		f.expect = expectColon
		switch {
		case string(f.buf) == f.key:
			f.member = keyMember
		case string(f.buf) == f.nested && f.depth == 1:
			f.member = nestedMember
		default:
			f.member = otherMember
		}
		return
	}
	// The value sought. A top-level one decides at once; a nested one too,
	// as the writer never puts the key at both levels. An empty one is as
	// good as none (the nested one may follow).
	if len(f.buf) > 0 {
		f.found = append([]byte(nil), f.buf...)
	}
}
