package jsonl

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
)

// Picker keeps, from one JSON object fed to it in pieces, the members a
// Members names — as Members.Append keeps them from the whole object, the
// object of a nested struct filtered alike, and the objects of an array whose
// field is a slice of structs too — and passes over everything else without
// holding it. So its memory is that of the members kept, whatever the
// object's length: a Burr state of a thousand turns costs its few fields.
//
// It follows the structure (keys, colons, commas, brackets, strings) and
// reports what breaks it; the values it keeps are checked by the codec that
// decodes them, and those it passes over only as far as their structure.
type Picker struct {
	m            *Members
	max          int
	gate, before string
	skip         func(value []byte) bool

	out                  []byte
	stack                []frame
	begun, done, skipped bool
	passing              bool // the gate said so: pass over the rest from before on
	fed                  int  // bytes fed before the current piece, for columns

	tok     token
	keep    bool   // the token's bytes go to out
	esc     bool   // inside a string: the next byte is escaped
	isKey   bool   // the string is a key (of a frame that looks at keys)
	gating  bool   // the string is the gate's value
	capture []byte // the key or gate value being read, up to maxCapture+1 bytes
}

type token uint8

const (
	noToken token = iota
	inString
	inScalar
)

type expect uint8

const (
	wantKey   expect = iota // after '{' or ',' in an object
	wantColon               // after a key
	wantValue               // after ':', or after '[' or ',' in an array
	wantNext                // after a value: ',' or the closing bracket
)

// frame is one open object or array.
type frame struct {
	array  bool
	keep   bool     // copied whole to out
	pick   *Members // an object: the members kept; an array: its objects' members
	expect expect
	empty  bool  // nothing in it yet: it may close at once
	wrote  bool  // a member or element written to out (a comma before the next)
	next   field // the field the last key names (name "" for none)
	gate   bool  // the last key is the gate
}

// NewPicker returns a Picker of the members m names, keeping at most max
// bytes of them (DefaultMaxLine when 0).
func NewPicker(m *Members, max int) *Picker {
	if max <= 0 {
		max = DefaultMaxLine
	}
	return &Picker{m: m, max: max}
}

// SetGate makes the top-level string member key a gate: as soon as its value
// is read, skip is asked about it (unescaped), and when it says so the rest
// of the object is passed over (Skipped) — at once, or from the top-level
// member before on when before is not "" (the members before it are still
// kept: a Burr entry's exception, before its state).
func (p *Picker) SetGate(key, before string, skip func(value []byte) bool) {
	p.gate, p.before, p.skip = key, before, skip
}

// Reset makes p ready for another object.
func (p *Picker) Reset() {
	*p = Picker{m: p.m, max: p.max, gate: p.gate, before: p.before, skip: p.skip, out: p.out[:0], stack: p.stack[:0], capture: p.capture[:0]}
}

// Done reports whether the object has ended (or its gate passed it over).
func (p *Picker) Done() bool { return p.done }

// Skipped reports whether the gate said to pass over the rest of the object.
func (p *Picker) Skipped() bool { return p.skipped || p.passing }

// Object is the members kept, as a compact object ("{}" for none): after a
// skip, those read before the gate decided. Valid until the next Reset.
func (p *Picker) Object() []byte {
	if len(p.stack) == 1 { // passed over, or not yet ended: close what was kept
		return append(p.out, '}')
	}
	return p.out
}

// ErrKeptTooLong is returned (wrapped) when the members kept outgrow the
// Picker's bound.
var ErrKeptTooLong = errors.New("the members kept are too long")

// Feed reads the next piece of the object. It returns how many bytes of b it
// used: all of them, or fewer when the object ended (or was skipped) within
// b. An error says where the structure broke; feeding on after one is
// undefined.
func (p *Picker) Feed(b []byte) (int, error) {
	i := 0
	for i < len(b) && !p.done {
		var err error
		switch p.tok {
		case inString:
			i, err = p.str(b, i)
		case inScalar:
			i = p.scalar(b, i)
		default:
			i, err = p.structure(b, i)
		}
		if err != nil {
			return i, err
		}
	}
	if len(p.out) > p.max {
		return i, fmt.Errorf("%w: more than %s", ErrKeptTooLong, Size(int64(p.max)))
	}
	p.fed += i
	return i, nil
}

// Finish says whether the object was complete when its line ended.
func (p *Picker) Finish() error {
	if p.done || !p.begun {
		return nil
	}
	return &SyntaxError{Column: p.fed + 1, Msg: "line ends inside a value (truncated?)"}
}

func (p *Picker) fail(b []byte, i int, msg string) error {
	return &SyntaxError{Column: p.fed + i + 1, Msg: fmt.Sprintf(msg, quoteByte(b[i]))}
}

// structure reads one byte outside strings and scalars.
func (p *Picker) structure(b []byte, i int) (int, error) {
	c := b[i]
	switch c {
	case ' ', '\t', '\r', '\n':
		return i + 1, nil
	}
	if !p.begun {
		if c != '{' {
			return i, p.fail(b, i, "line does not start with '{' but with %s")
		}
		p.begun = true
		p.out = append(p.out, '{')
		p.stack = append(p.stack, frame{pick: p.m, empty: true})
		return i + 1, nil
	}
	f := &p.stack[len(p.stack)-1]
	switch f.expect {
	case wantKey:
		if c == '}' && f.empty {
			return p.close(b, i)
		}
		if c != '"' {
			return i, p.fail(b, i, "expected a key in quotes, found %s")
		}
		p.startString(f.keep, f.pick != nil && !f.array || len(p.stack) == 1 && (p.gate != "" || p.passing), false)
		return i + 1, nil
	case wantColon:
		if c != ':' {
			return i, p.fail(b, i, "expected ':' after a key, found %s")
		}
		if f.keep {
			p.out = append(p.out, ':')
		}
		f.expect = wantValue
		return i + 1, nil
	case wantNext:
		switch {
		case c == ',':
			f.expect, f.empty = wantKey, false
			if f.array {
				f.expect = wantValue
			}
			if f.keep {
				p.out = append(p.out, ',')
			}
			return i + 1, nil
		case c == '}' && !f.array || c == ']' && f.array:
			return p.close(b, i)
		}
		return i, p.fail(b, i, "expected ',' or a closing bracket, found %s")
	}
	if c == ']' && f.array && f.empty {
		return p.close(b, i)
	}
	return p.value(f, b, i)
}

// value begins the value at b[i] in frame f: kept, picked or passed over.
func (p *Picker) value(f *frame, b []byte, i int) (int, error) {
	c := b[i]
	keep, pick, gate := f.keep, (*Members)(nil), false
	switch {
	case f.pick != nil && f.array: // an element of a slice of structs
		if f.wrote {
			p.out = append(p.out, ',')
		}
		f.wrote, keep = true, true
		if c == '{' {
			keep, pick = false, f.pick
		}
	case f.pick != nil: // a member of a filtered object
		gate = f.gate
		if name := f.next.name; name != "" {
			if f.wrote {
				p.out = append(p.out, ',')
			}
			f.wrote, keep = true, true
			p.out = append(append(append(p.out, '"'), name...), '"', ':')
			switch {
			case c == '{' && f.next.nested != nil:
				keep, pick = false, f.next.nested
			case c == '[' && f.next.elem != nil:
				keep, pick = false, f.next.elem
			}
		}
	}
	f.expect = wantNext
	switch c {
	case '{', '[':
		if len(p.stack) >= maxDepth {
			return i, p.fail(b, i, "nested too deeply at %s")
		}
		if keep || pick != nil {
			p.out = append(p.out, c)
		}
		p.stack = append(p.stack, frame{array: c == '[', keep: keep, pick: pick, empty: true})
		if c == '[' {
			p.stack[len(p.stack)-1].expect = wantValue
		}
		return i + 1, nil
	case '"':
		p.startString(keep, false, gate)
		return i + 1, nil
	case ',', '}', ']', ':':
		return i, p.fail(b, i, "expected a value, found %s")
	}
	p.tok, p.keep = inScalar, keep
	return i, nil
}

// close ends the innermost frame at its bracket b[i].
func (p *Picker) close(b []byte, i int) (int, error) {
	f := p.stack[len(p.stack)-1]
	if f.keep || f.pick != nil {
		p.out = append(p.out, b[i])
	}
	p.stack = p.stack[:len(p.stack)-1]
	p.done = len(p.stack) == 0
	return i + 1, nil
}

func (p *Picker) startString(keep, isKey, gating bool) {
	p.tok, p.keep, p.isKey, p.gating, p.esc = inString, keep, isKey, gating, false
	p.capture = p.capture[:0]
	if keep {
		p.out = append(p.out, '"')
	}
}

// str reads string content from b[i:]; it returns where it stopped: past the
// closing quote, or at the end of b.
func (p *Picker) str(b []byte, i int) (int, error) {
	start := i
	if p.esc { // the previous piece ended with an unpaired backslash
		p.esc = false
		i++
	}
	for i < len(b) {
		j := bytes.IndexByte(b[i:], '"')
		if j < 0 {
			p.esc = trailingBackslashes(b[i:])%2 == 1
			break
		}
		q := i + j
		if trailingBackslashes(b[i:q])%2 == 1 {
			i = q + 1
			continue
		}
		p.strBytes(b[start:q])
		p.tok = noToken
		return q + 1, p.endString()
	}
	p.strBytes(b[start:])
	return len(b), nil
}

func (p *Picker) strBytes(s []byte) {
	if p.keep {
		p.out = append(p.out, s...)
	}
	if (p.isKey || p.gating) && len(p.capture) <= maxCapture {
		p.capture = append(p.capture, s[:min(len(s), maxCapture+1-len(p.capture))]...)
	}
}

// endString acts on a string just read: a key names the next member, the
// gate's value may end the object.
func (p *Picker) endString() error {
	if p.keep {
		p.out = append(p.out, '"')
	}
	f := &p.stack[len(p.stack)-1]
	if f.expect == wantKey {
		f.expect = wantColon
		f.next, f.gate = field{}, false
		if len(p.capture) <= maxCapture {
			if f.pick != nil {
				f.next, _ = f.pick.field(p.capture)
			}
			top := len(p.stack) == 1
			f.gate = top && p.gate != "" && string(Unescape(p.capture)) == p.gate
			if top && p.passing && string(Unescape(p.capture)) == p.before {
				p.skipped, p.done = true, true
			}
		}
		return nil
	}
	if p.gating && len(p.capture) <= maxCapture && p.skip(Unescape(p.capture)) {
		if p.before == "" {
			p.skipped, p.done = true, true
		} else {
			p.passing = true
		}
	}
	return nil
}

// scalar reads a number or literal from b[i:] up to the byte that ends it.
func (p *Picker) scalar(b []byte, i int) int {
	j := i
	for j < len(b) {
		switch b[j] {
		case ',', '}', ']', ' ', '\t', '\n', '\r', ':', '"', '{', '[':
			if p.keep {
				p.out = append(p.out, b[i:j]...)
			}
			p.tok = noToken
			return j
		}
		j++
	}
	if p.keep {
		p.out = append(p.out, b[i:]...)
	}
	return j
}

// Pick reads the next line that is not blank through p, as Next reads lines
// but never holding one: p keeps what its Members name (Object), or passes
// over the rest of the line once its gate says so (Skipped). It returns the
// line's number. A line that is not one JSON object, or whose kept members
// outgrow p's bound, gives an error naming the line, and reading goes on
// after it; io.EOF at the end; a read error ends the stream.
func (r *Reader) Pick(p *Picker) (int, error) {
	if r.err != nil {
		return r.line, r.err
	}
	if !r.begun {
		r.begun = true
		if head, _ := r.br.Peek(len(utf8BOM)); bytes.Equal(head, utf8BOM) {
			r.br.Discard(len(utf8BOM))
		}
	}
	for {
		p.Reset()
		var perr error
		read := false
		for {
			chunk, err := r.br.ReadSlice('\n')
			read = read || len(chunk) > 0
			body := chunk
			if err == nil {
				body = chunk[:len(chunk)-1]
			}
			switch {
			case perr != nil || p.skipped && p.done:
			case p.done:
				if len(bytes.TrimSpace(body)) > 0 {
					perr = &SyntaxError{Column: p.fed + 1, Msg: "data after the end of the object (two records run together?)"}
				}
			default:
				n, ferr := p.Feed(body)
				perr = ferr
				if perr == nil && p.done && !p.skipped && len(bytes.TrimSpace(body[n:])) > 0 {
					perr = &SyntaxError{Column: p.fed + 1, Msg: "data after the end of the object (two records run together?)"}
				}
			}
			if err == bufio.ErrBufferFull {
				continue
			}
			if err != nil {
				if !read {
					r.err = err
					if err != io.EOF {
						r.err = &StopError{Line: r.line, Err: err}
					}
					return r.line, r.err
				}
				r.Unterminated = true
				r.stop(err)
			} else {
				r.Unterminated = false
			}
			break
		}
		r.line++
		if perr == nil {
			perr = p.Finish()
		}
		if perr != nil {
			return r.line, fmt.Errorf("line %d: %w", r.line, perr)
		}
		if p.begun {
			return r.line, nil
		}
		if r.err != nil {
			return r.line, r.err
		}
	}
}

// PickDocument reads r, one JSON object over any number of lines (a state
// snapshot written with indent), through p, holding no more of it than a
// buffer and what p keeps. An error names the line where the object broke,
// or says what follows it.
func PickDocument(r io.Reader, p *Picker) error {
	br, release := Buffered(r)
	defer release()
	if head, _ := br.Peek(len(utf8BOM)); bytes.Equal(head, utf8BOM) {
		br.Discard(len(utf8BOM))
	}
	p.Reset()
	line := 1
	for {
		chunk, err := br.ReadSlice('\n')
		if p.done {
			if len(bytes.TrimSpace(chunk)) > 0 {
				return fmt.Errorf("line %d: data after the end of the object", line)
			}
		} else if n, ferr := p.Feed(chunk); ferr != nil {
			var se *SyntaxError
			if errors.As(ferr, &se) {
				return fmt.Errorf("line %d: %s", line+bytes.Count(chunk[:min(n, len(chunk))], []byte("\n")), se.Msg)
			}
			return fmt.Errorf("line %d: %w", line, ferr)
		} else if p.done && len(bytes.TrimSpace(chunk[n:])) > 0 {
			return fmt.Errorf("line %d: data after the end of the object", line)
		}
		if len(chunk) > 0 && chunk[len(chunk)-1] == '\n' {
			line++
		}
		switch {
		case err == bufio.ErrBufferFull || err == nil:
		case err == io.EOF && !p.begun:
			return errors.New("empty")
		case err == io.EOF:
			if ferr := p.Finish(); ferr != nil {
				return fmt.Errorf("line %d: the object is cut (truncated?)", line)
			}
			return nil
		default:
			return fmt.Errorf("after line %d: %w", line, err)
		}
	}
}
