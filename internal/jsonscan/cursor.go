// Package jsonscan walks a JSON document in place, checking it as the
// decoder would, so that a source decodes only the members it reads.
package jsonscan

import (
	"encoding/binary"
	"errors"
	"math/bits"
	"strconv"
	"unsafe"

	jsonv2 "github.com/goccy/go-json/v2"

	"github.com/lbanalyze/lbanalyze/jsonl"
)

// Cursor walks JSON values in a buffer, checking them as strictly as
// goccy/go-json's decoder with the readers' options (RFC 8259; invalid UTF-8
// and repeated keys allowed), so that a source reads the few members it
// needs of a large value and passes over the rest — most of it strings — 8
// bytes at a time (docs/PERFORMANCE.md, "Runs judged by their result").
// It never judges what it is not sure of: anything unusual (a syntax error,
// an escaped key, a number that does not fit, a member of an unexpected
// type) is ErrUnsure, and the source hands that value to goccy/go-json,
// whose verdict and messages hold. Running off the buffer's end is ErrMore.
type Cursor struct {
	B     []byte
	I     int // the next byte
	depth int
}

var (
	// ErrUnsure: the value is one the cursor leaves to the decoder.
	ErrUnsure = errors.New("jsonscan: a value for the decoder to judge")
	// ErrMore: the buffer ends inside the value.
	ErrMore = errors.New("jsonscan: the buffer ends inside a value")
)

// maxCursorDepth bounds nesting well within the decoder's own bound.
const maxCursorDepth = 1000

// At puts the cursor at i, outside any value.
func (c *Cursor) At(i int) { c.I, c.depth = i, 0 }

// Space passes over white space.
func (c *Cursor) Space() {
	for c.I < len(c.B) {
		switch c.B[c.I] {
		case ' ', '\t', '\n', '\r':
			c.I++
		default:
			return
		}
	}
}

// End reports whether the buffer ends before the next value: a 0 byte
// Peek gives may be one in the buffer.
func (c *Cursor) End() bool {
	c.Space()
	return c.I >= len(c.B)
}

// Peek is the first byte of the next value (after white space), 0 at the
// buffer's end.
func (c *Cursor) Peek() byte {
	c.Space()
	if c.I >= len(c.B) {
		return 0
	}
	return c.B[c.I]
}

// Object reads an object, calling member with each key (between its quotes)
// and the cursor at its value, which member must read or Skip. An escaped
// key is ErrUnsure.
func (c *Cursor) Object(member func(key []byte) error) error {
	if err := c.open('{'); err != nil {
		return err
	}
	if c.Peek() == '}' {
		return c.close()
	}
	for {
		key, err := c.Key()
		if err != nil {
			return err
		}
		if err := member(key); err != nil {
			return err
		}
		if done, err := c.next('}'); done || err != nil {
			return err
		}
	}
}

// Key reads a member's key (between its quotes) and the colon after it. An
// escaped key is ErrUnsure.
func (c *Cursor) Key() ([]byte, error) {
	if c.Peek() != '"' {
		return nil, c.unsureOrMore()
	}
	start := c.I
	if err := c.str(); err != nil {
		return nil, err
	}
	key := c.B[start+1 : c.I-1]
	for _, b := range key {
		if b == '\\' {
			return nil, ErrUnsure
		}
	}
	return key, c.expect(':')
}

// Array reads an array, calling elem with the cursor at each element, which
// elem must read or Skip.
func (c *Cursor) Array(elem func() error) error {
	if err := c.open('['); err != nil {
		return err
	}
	if c.Peek() == ']' {
		return c.close()
	}
	for {
		if err := elem(); err != nil {
			return err
		}
		if done, err := c.next(']'); done || err != nil {
			return err
		}
	}
}

func (c *Cursor) open(b byte) error {
	if c.Peek() != b {
		return c.unsureOrMore()
	}
	if c.depth++; c.depth > maxCursorDepth {
		return ErrUnsure
	}
	c.I++
	return nil
}

func (c *Cursor) close() error {
	c.depth--
	c.I++
	return nil
}

// next passes the comma after a member or element, or the closing byte.
func (c *Cursor) next(closing byte) (done bool, err error) {
	switch c.Peek() {
	case ',':
		c.I++
		return false, nil
	case closing:
		return true, c.close()
	}
	return false, c.unsureOrMore()
}

func (c *Cursor) expect(b byte) error {
	if c.Peek() != b {
		return c.unsureOrMore()
	}
	c.I++
	return nil
}

// unsureOrMore is ErrMore at the buffer's end, else ErrUnsure.
func (c *Cursor) unsureOrMore() error {
	if c.I >= len(c.B) {
		return ErrMore
	}
	return ErrUnsure
}

// Skip passes over the next value, checked.
func (c *Cursor) Skip() error {
	c.Space()
	if c.I >= len(c.B) {
		return ErrMore
	}
	switch c.B[c.I] {
	case '"':
		return c.str()
	case '{':
		return c.Object(func([]byte) error { return c.Skip() })
	case '[':
		return c.Array(c.Skip)
	}
	_, err := c.scalar()
	return err
}

// Value passes over the next value, checked, and returns it as written.
func (c *Cursor) Value() ([]byte, error) {
	c.Space()
	start := c.I
	err := c.Skip()
	return c.B[start:c.I], err
}

// A byte in every byte of a word, and the high bit of every byte.
const (
	ones  = 0x0101010101010101
	highs = 0x8080808080808080
)

func zeroByte(x uint64) uint64 { return (x - ones) & ^x & highs }

// special marks, in the high bit of each byte of x, the bytes a string's scan
// stops at: a quote, a backslash, a control character (which JSON forbids in
// a string). The lowest mark is exact; a borrow may mark bytes above it.
// x^0x02 maps the quote to 0x20 and the control characters among themselves,
// so one test below 0x21 finds both.
func special(x uint64) uint64 {
	y := x ^ 0x02*ones
	return (y-0x21*ones)&^y&highs | zeroByte(x^'\\'*ones)
}

// str passes over a string from its opening quote, a word of 8 bytes at a
// time: the marks of a word are taken in turn, an escape of two bytes within
// it without leaving it.
func (c *Cursor) str() error {
	b, i := c.B, c.I+1
	for {
	words:
		for i+8 <= len(b) {
			m := special(binary.LittleEndian.Uint64(b[i:]))
			for m != 0 {
				k := i + bits.TrailingZeros64(m)>>3
				switch x := b[k]; {
				case x == '"':
					c.I = k + 1
					return nil
				case x == '\\':
					if k+1 < len(b) && plainEscape[b[k+1]] {
						if k+1 >= i+7 {
							i = k + 2
							continue words
						}
						m &^= 1<<((k-i+2)*8) - 1
						continue
					}
					i = k
					break words
				case x < 0x20:
					return ErrUnsure // a control character
				}
				m &= m - 1 // a borrow's mark
			}
			i += 8
		}
		for ; i < len(b); i++ {
			if x := b[i]; x == '"' || x == '\\' || x < 0x20 {
				break
			}
		}
		if i >= len(b) {
			return ErrMore
		}
		switch b[i] {
		case '"':
			c.I = i + 1
			return nil
		case '\\':
			n, err := escape(b[i:])
			if err != nil {
				return err
			}
			i += n
		default:
			return ErrUnsure // a control character
		}
	}
}

// plainEscape are the bytes that follow a backslash in an escape of two.
var plainEscape = [256]bool{'"': true, '\\': true, '/': true, 'b': true, 'f': true, 'n': true, 'r': true, 't': true}

// escape is the length of the escape b begins with. A surrogate's escape
// stands alone or in a pair; the decoder takes a lone one too, and the
// cursor leaves it to the decoder.
func escape(b []byte) (int, error) {
	if len(b) < 2 {
		return 0, ErrMore
	}
	if plainEscape[b[1]] {
		return 2, nil
	} else if b[1] != 'u' {
		return 0, ErrUnsure
	}
	r, err := hex4(b[2:])
	if err != nil || r < 0xd800 || r > 0xdfff {
		return 6, err
	}
	if r >= 0xdc00 || len(b) > 6 && b[6] != '\\' || len(b) > 7 && b[7] != 'u' {
		return 0, ErrUnsure // no pair
	}
	if len(b) < 12 {
		return 0, ErrMore
	}
	if low, err := hex4(b[8:]); err != nil || low < 0xdc00 || low > 0xdfff {
		return 0, ErrUnsure
	}
	return 12, nil
}

func hex4(b []byte) (rune, error) {
	if len(b) < 4 {
		return 0, ErrMore
	}
	var r rune
	for _, h := range b[:4] {
		switch {
		case '0' <= h && h <= '9':
			h -= '0'
		case 'a' <= h && h <= 'f':
			h -= 'a' - 10
		case 'A' <= h && h <= 'F':
			h -= 'A' - 10
		default:
			return 0, ErrUnsure
		}
		r = r<<4 | rune(h)
	}
	return r, nil
}

// scalar passes over a number or a literal and returns it.
func (c *Cursor) scalar() ([]byte, error) {
	c.Space()
	start := c.I
	for c.I < len(c.B) {
		switch c.B[c.I] {
		case ',', '}', ']', ' ', '\t', '\n', '\r':
			goto done
		}
		c.I++
	}
	return nil, ErrMore // the number may go on
done:
	tok := c.B[start:c.I]
	switch string(tok) {
	case "true", "false", "null":
		return tok, nil
	}
	if !jsonl.ValidNumber(tok) {
		return nil, ErrUnsure
	}
	return tok, nil
}

// Text reads a string, its escapes undone as the decoder undoes them (in
// the buffer when it has none), or null.
func (c *Cursor) Text() (t []byte, null bool, err error) {
	if c.Peek() != '"' {
		return nil, true, c.Null()
	}
	start := c.I
	if err := c.str(); err != nil {
		return nil, false, err
	}
	raw := c.B[start:c.I]
	if plain(raw[1 : len(raw)-1]) {
		return raw[1 : len(raw)-1], false, nil
	}
	var s string
	if jsonv2.Unmarshal(raw, &s, jsonl.Exact) != nil {
		return nil, false, ErrUnsure
	}
	return []byte(s), false, nil
}

// View is t, a text Text read, as a string without a copy: valid while the
// bytes it lies in are unchanged, so that one who keeps it keeps a copy.
func View(t []byte) string {
	if len(t) == 0 {
		return ""
	}
	return unsafe.String(&t[0], len(t))
}

// plain reports whether a string's content is ASCII without escapes: itself.
func plain(b []byte) bool {
	for _, x := range b {
		if x == '\\' || x >= 0x80 {
			return false
		}
	}
	return true
}

// Null reads null; anything else is ErrUnsure.
func (c *Cursor) Null() error {
	tok, err := c.scalar()
	if err == nil && string(tok) != "null" {
		err = ErrUnsure
	}
	return err
}

// Int reads a whole number that fits 64 bits, or null.
func (c *Cursor) Int() (n int64, null bool, err error) {
	tok, err := c.scalar()
	if err != nil || string(tok) == "null" {
		return 0, err == nil, err
	}
	if n, err = strconv.ParseInt(string(tok), 10, 64); err != nil {
		return 0, false, ErrUnsure
	}
	return n, false, nil
}

// Float reads a number that fits a float64, or null.
func (c *Cursor) Float() (f float64, null bool, err error) {
	tok, err := c.scalar()
	if err != nil || string(tok) == "null" {
		return 0, err == nil, err
	}
	if f, err = strconv.ParseFloat(string(tok), 64); err != nil {
		return 0, false, ErrUnsure
	}
	return f, false, nil
}

// Bool reads true, false or null.
func (c *Cursor) Bool() (b, null bool, err error) {
	tok, err := c.scalar()
	switch {
	case err != nil:
		return false, false, err
	case string(tok) == "null":
		return false, true, nil
	case string(tok) == "true":
		return true, false, nil
	case string(tok) == "false":
		return false, false, nil
	}
	return false, false, ErrUnsure
}
