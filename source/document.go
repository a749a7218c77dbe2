package source

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/goccy/go-json/jsontext"
	jsonv2 "github.com/goccy/go-json/v2"

	"github.com/lbanalyze/lbanalyze/episode"
)

// Document streams one JSON document of many records (a tau2 results file of
// hundreds of simulations, a Terminal-Bench run's results, an ATIF
// trajectory) token by token with goccy/go-json's decoder, so that a source
// holds one record at a time, never the file: a value longer than its bound
// is an error, never read whole (docs/sources.md, "How a file is read").
type Document struct {
	dec   *jsontext.Decoder
	in    *guarded
	shift int64 // where in the file the stream's byte 0 is (ResumeDocument)
	fault int   // the line of the fault wrap said, 0 before one
}

// NewDocument streams r, no value of it longer than maxValue bytes (a record
// decoded whole, or a string passed over).
func NewDocument(r io.Reader, maxValue int) *Document {
	in := &guarded{r: r, max: int64(maxValue)}
	return &Document{dec: jsontext.NewDecoder(in, jsontext.AllowDuplicateNames(true), jsontext.AllowInvalidUTF8(true)), in: in}
}

// ResumeDocument streams the rest r of a document another reader began:
// prefix stands for what that reader read (the openings of the values it was
// in, "" for a member or element it read: a value that cannot run into the
// bytes after it), and r begins at byte at of the file, after lines
// newlines, so that lines and bytes are said as in the whole file.
func ResumeDocument(r io.Reader, maxValue int, prefix string, at int64, lines int) *Document {
	d := NewDocument(io.MultiReader(strings.NewReader(prefix), r), maxValue)
	d.in.lines, d.shift = lines, at-int64(len(prefix))
	return d
}

// guarded counts what is read through it, its lines, and what one value
// reads: past max the read fails, so a value of a gigabyte is refused at
// max, not held.
type guarded struct {
	r          io.Reader
	read, from int64 // bytes read, and where the value began
	lines      int   // newlines read
	max        int64
	last, prev []byte // the last two reads, up to maxKept of each, for the line of a syntax error
}

// maxKept bounds what guarded keeps of a read.
const maxKept = 1 << 20

// errTooLong is the read error of a value longer than a Document's bound.
var errTooLong = errors.New("a value longer than the bound on one record")

func (g *guarded) Read(p []byte) (int, error) {
	if g.max > 0 && g.read-g.from > g.max {
		return 0, errTooLong
	}
	n, err := g.r.Read(p)
	g.read += int64(n)
	g.lines += bytes.Count(p[:n], []byte{'\n'})
	if n > 0 {
		g.prev, g.last = g.last, append(g.prev[:0], p[max(0, n-maxKept):n]...)
	}
	return n, err
}

// Kind is the kind of the next value: '{', '[', '"', '0' (a number), 't',
// 'f', 'n'; 0 at the end or an error.
func (d *Document) Kind() byte { return byte(d.dec.PeekKind()) }

// Line is the line of the document the next token is on, counted from 1.
func (d *Document) Line() int {
	return d.in.lines - bytes.Count(d.dec.UnreadBuffer(), []byte{'\n'}) + 1 + leadingLines(d.dec.UnreadBuffer())
}

// lineOf is the line of the byte at offset in the stream, counted back
// from the end of what was read where the last two reads hold it (the
// decoder's buffer no longer does after an error); else the line of the
// next token.
func (d *Document) lineOf(offset int64) int {
	g := d.in
	end, lines := g.read, g.lines
	for _, b := range [][]byte{g.last, g.prev} {
		start := end - int64(len(b))
		if offset >= start && offset <= end {
			return lines - bytes.Count(b[offset-start:], []byte{'\n'}) + 1
		}
		end, lines = start, lines-bytes.Count(b, []byte{'\n'})
	}
	return d.Line()
}

// leadingLines counts the newlines in the space before the next token.
func leadingLines(b []byte) int {
	n := 0
	for _, c := range b {
		switch c {
		case '\n':
			n++
		case ' ', '\t', '\r', ',', ':':
		default:
			return n
		}
	}
	return n
}

// Object reads an object, calling member with each key (escapes undone),
// which must read or skip its value.
func (d *Document) Object(member func(key string) error) error {
	if err := d.open(jsontext.KindBeginObject, "an object"); err != nil {
		return err
	}
	for d.dec.PeekKind() != jsontext.KindEndObject {
		tok, err := d.token()
		if err != nil {
			return err
		}
		if err := member(tok.String()); err != nil {
			return err
		}
	}
	_, err := d.token()
	return err
}

// Array reads an array, calling elem for each element, which must read or
// skip it.
func (d *Document) Array(elem func() error) error {
	if err := d.open(jsontext.KindBeginArray, "an array"); err != nil {
		return err
	}
	for d.dec.PeekKind() != jsontext.KindEndArray {
		if err := elem(); err != nil {
			return err
		}
	}
	_, err := d.token()
	return err
}

// Values reads an array, giving each element raw (valid until elem
// returns) with the line it begins on to elem.
func (d *Document) Values(elem func(raw []byte, line int)) error {
	return d.Array(func() error {
		line := d.Line()
		raw, err := d.Value()
		if err == nil {
			elem(raw, line)
		}
		return err
	})
}

func (d *Document) open(kind jsontext.Kind, what string) error {
	if k := d.dec.PeekKind(); k != kind {
		if k == 0 {
			_, err := d.token()
			return err
		}
		return fmt.Errorf("line %d: %s where %s was expected", d.Line(), kindName(k), what)
	}
	_, err := d.token()
	return err
}

// mark begins a value: the bound counts from here.
func (d *Document) mark() { d.in.from = d.in.read - int64(len(d.dec.UnreadBuffer())) }

// token is the next token, within the bound.
func (d *Document) token() (jsontext.Token, error) {
	d.mark()
	tok, err := d.dec.ReadToken()
	return tok, d.wrap(err)
}

// Value is the next value, raw: valid until the next call.
func (d *Document) Value() ([]byte, error) {
	d.mark()
	v, err := d.dec.ReadValue()
	return v, d.wrap(err)
}

// Decode decodes the next value into v, as jsonl.Decode reads a line (keys
// matched exactly, the last of a repeated key winning), straight from the
// stream: one pass over it. A value of the wrong type is an error that
// leaves the document where the value ends; a broken one ends the document.
func (d *Document) Decode(v any) error {
	d.mark()
	depth, at := d.dec.StackDepth(), d.dec.InputOffset()
	err := jsonv2.UnmarshalDecode(d.dec, v)
	switch {
	case err == nil:
		return nil
	case d.dec.StackDepth() != depth || errors.Is(err, io.ErrUnexpectedEOF):
		return d.wrap(err) // the decoder stopped inside the value, or the document ends in it
	case d.dec.InputOffset() == at: // the value was not read: pass over it
		if err := d.Skip(); err != nil {
			return err
		}
	}
	return &BadValue{Err: err}
}

// BadValue is a value Decode read whole but could not decode: the
// document goes on after it.
type BadValue struct{ Err error }

func (u *BadValue) Error() string { return u.Err.Error() }

// Skip passes over the next value token by token, each within the bound.
func (d *Document) Skip() error {
	depth := 0
	for {
		tok, err := d.token()
		if err != nil {
			return err
		}
		switch tok.Kind() {
		case jsontext.KindBeginObject, jsontext.KindBeginArray:
			depth++
		case jsontext.KindEndObject, jsontext.KindEndArray:
			depth--
		}
		if depth == 0 {
			return nil
		}
	}
}

// end reports what follows the document, nil when nothing but space does.
func (d *Document) end() error {
	if _, err := d.dec.ReadToken(); err != io.EOF {
		if err == nil {
			return fmt.Errorf("line %d: data after the end of the document", d.Line())
		}
		return d.wrap(err)
	}
	return nil
}

// Close ends the reading of the document: what follows it, if err (the
// reading's) is nil, must be nothing; the lines read and any fault go to res,
// the fault named in file ("" the log's own).
func (d *Document) Close(err error, res *Result, file string) {
	if err == nil {
		err = d.end()
	}
	switch {
	case err == nil:
		res.Lines += d.Line()
	case d.fault > 0:
		res.Lines += d.fault // the line the fault names, however much the decoder read
	default:
		res.Lines += d.lineOf(d.dec.InputOffset())
	}
	if err != nil {
		res.Cut = &episode.Problem{Msg: err.Error(), File: file}
	}
}

// wrap says where err happened: the line, and the byte of a syntax error.
func (d *Document) wrap(err error) error {
	var se *jsontext.SyntacticError
	switch {
	case err == nil:
		return nil
	case errors.Is(err, errTooLong):
		d.fault = d.Line()
		return fmt.Errorf("line %d: a value longer than %s: not read", d.fault, size(d.in.max))
	case errors.Is(err, io.ErrUnexpectedEOF) || err == io.EOF:
		d.fault = d.Line()
		return fmt.Errorf("line %d: the document is cut (it ends inside a value)", d.fault)
	case errors.As(err, &se):
		d.fault = d.lineOf(se.ByteOffset)
		return fmt.Errorf("line %d, byte %d: %v", d.fault, se.ByteOffset+d.shift, se.Err)
	}
	d.fault = d.Line()
	return fmt.Errorf("line %d: read error: %v", d.fault, err)
}

func size(n int64) string {
	if n >= 1<<20 {
		return fmt.Sprintf("%d MiB", n>>20)
	}
	return fmt.Sprintf("%d bytes", n)
}

func kindName(k jsontext.Kind) string {
	switch k {
	case jsontext.KindBeginObject:
		return "an object"
	case jsontext.KindBeginArray:
		return "an array"
	case jsontext.KindString:
		return "a string"
	case jsontext.KindNumber:
		return "a number"
	case jsontext.KindNull:
		return "null"
	case jsontext.KindTrue, jsontext.KindFalse:
		return "a boolean"
	}
	return "something else"
}

// HeadObject reports the keys of the object at path in the first bytes of a
// document, as far as head holds them: path names members, and "[]" the
// first element of an array. Nothing when head does not begin so.
func HeadObject(head []byte, path ...string) map[string]bool {
	d := NewDocument(bytes.NewReader(head), 0)
	keys := map[string]bool{}
	var walk func(path []string) error
	walk = func(path []string) error {
		if len(path) > 0 && path[0] == "[]" {
			if d.Kind() != '[' {
				return errors.New("no array")
			}
			if _, err := d.token(); err != nil || d.Kind() == ']' {
				return errors.New("empty")
			}
			return walk(path[1:])
		}
		stop := errors.New("found")
		err := d.Object(func(key string) error {
			if len(path) == 0 {
				keys[key] = true
				return d.Skip()
			}
			if key == path[0] {
				if err := walk(path[1:]); err != nil {
					return err
				}
				return stop
			}
			return d.Skip()
		})
		if errors.Is(err, stop) {
			return nil
		}
		return err
	}
	walk(path)
	return keys
}
