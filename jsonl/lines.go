package jsonl

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"sync"
)

// DefaultMaxLine bounds the length of a line read whole: a line that matters
// is a few hundred bytes, a long game text a few KiB; 16 MiB leaves a thousand
// times that, and keeps a giant line's peak memory within 64 MiB.
const DefaultMaxLine = 16 << 20

// ErrLineTooLong is returned (wrapped, with the line's number) for a line
// longer than MaxLine that was passed over; reading goes on after it.
var ErrLineTooLong = errors.New("line too long")

// LineOptions tune a Reader.
type LineOptions struct {
	// MaxLine bounds the length of a line that is returned: a longer one is
	// passed over, and Next returns an error wrapping ErrLineTooLong for it.
	// DefaultMaxLine when 0.
	MaxLine int
	// Skip, when set, is asked about each line longer than the read buffer,
	// with its first bytes: when it says so, the line is passed over unheld
	// and not returned. Shorter lines cost nothing and are returned whole.
	Skip func(head []byte) bool
}

// Reader yields the lines of a stream, of any length, with their 1-based
// numbers: one line is held at a time, and no more than MaxLine of it.
type Reader struct {
	br    *bufio.Reader
	lent  bool   // br is the caller's (Buffered), not the pool's
	long  []byte // holds a line longer than br's buffer
	giant bool   // long is the shared giant buffer (budget.go)
	own   []byte // long's own buffer, while it is the giant one
	line  int
	err   error
	begun bool
	opt   LineOptions
	// Unterminated reports whether the last line returned had no final newline.
	Unterminated bool
}

// bufSize covers nearly every real log line without copying; longer lines are
// assembled in a separate buffer that is released when it grows very large.
const bufSize = 256 << 10

// linePool holds the read buffers of Readers, so that reading a batch of
// files reuses a few buffers instead of allocating 256 KiB a file.
var linePool = sync.Pool{New: func() any { return bufio.NewReaderSize(nil, bufSize) }}

// NewReader returns a Reader of r. Close returns its buffer for reuse. A
// reader from Buffered is read through, not copied into another buffer.
func NewReader(r io.Reader, opt LineOptions) *Reader {
	if opt.MaxLine <= 0 {
		opt.MaxLine = DefaultMaxLine
	}
	if br, ok := r.(*bufio.Reader); ok && br.Size() >= bufSize {
		return &Reader{br: br, opt: opt, lent: true}
	}
	br, _ := Buffered(r)
	return &Reader{br: br, opt: opt}
}

// Buffered returns a buffered reader of r whose first bytes can be looked at
// (Peek) before a Reader reads its lines through it, and the function that
// gives its buffer back once done.
func Buffered(r io.Reader) (*bufio.Reader, func()) {
	br := linePool.Get().(*bufio.Reader)
	br.Reset(r)
	return br, func() { br.Reset(nil); linePool.Put(br) }
}

// Close releases the Reader's buffer; the Reader must not be used after it.
func (r *Reader) Close() {
	r.dropLong()
	if r.br != nil {
		if !r.lent {
			r.br.Reset(nil)
			linePool.Put(r.br)
		}
		r.br = nil
		r.err = errors.New("jsonl: Reader used after Close")
	}
}

// Next returns the next line without its line ending ("\n" or "\r\n") and its
// number. The slice is valid until the next call. At the end it returns io.EOF;
// a read error (a corrupt gzip stream, say) is returned once and ends the
// stream. A line longer than MaxLine gives an error wrapping ErrLineTooLong,
// after which reading goes on. A UTF-8 byte order mark at the start of the
// stream is dropped.
func (r *Reader) Next() ([]byte, int, error) {
	if r.err != nil {
		return nil, r.line, r.err
	}
	if !r.begun {
		r.begun = true
		if head, _ := r.br.Peek(len(utf8BOM)); bytes.Equal(head, utf8BOM) {
			r.br.Discard(len(utf8BOM))
		}
	}
	if r.giant {
		r.dropLong() // do not keep the giant buffer after a giant line
	}
	for {
		chunk, err := r.br.ReadSlice('\n')
		if err == bufio.ErrBufferFull {
			line, done, err := r.longLine(chunk)
			if !done {
				continue // a line passed over
			}
			return line, r.line, err
		}
		return r.end(chunk, err)
	}
}

func (r *Reader) end(line []byte, err error) ([]byte, int, error) {
	if err != nil {
		r.err = err
		if len(line) == 0 {
			return nil, r.line, err
		}
		// The last line has no newline: return it now, the error next time.
		r.line++
		r.Unterminated = true
		r.stop(err)
		return line, r.line, nil
	}
	r.line++
	r.Unterminated = false
	line = line[:len(line)-1]
	if n := len(line); n > 0 && line[n-1] == '\r' {
		line = line[:n-1]
	}
	return line, r.line, nil
}

// longLine reads a line longer than the buffer, whose first piece is first.
// It holds the line only while it may be wanted: once Skip says it is not,
// or it grows past MaxLine, the rest is passed over. done is false for a line
// passed over without a word.
func (r *Reader) longLine(first []byte) (line []byte, done bool, err error) {
	if !mayBeObject(first) {
		r.long = append(r.long[:0], first...)
		return r.notObject()
	}
	if r.opt.Skip != nil && r.opt.Skip(first) {
		r.long = r.long[:0]
		if r.passOver() {
			return nil, true, r.err
		}
		return nil, false, nil
	}
	r.long = append(r.long[:0], first...)
	for {
		if len(r.long) > r.opt.MaxLine {
			r.passOver()
			r.dropLong()
			return nil, true, fmt.Errorf("line %d: %w: longer than %s", r.line, ErrLineTooLong, Size(int64(r.opt.MaxLine)))
		}
		chunk, err := r.br.ReadSlice('\n')
		if !r.giant && len(r.long)+len(chunk) > giantFrom {
			r.long = r.takeGiant(r.long, r.opt.MaxLine)
		}
		r.long = grow(r.long, chunk, r.opt.MaxLine)
		if err != bufio.ErrBufferFull {
			line, _, err := r.end(r.long, err)
			return line, true, err
		}
	}
}

// FirstLine is the first non-blank line of head (the beginning of a stream,
// a byte-order mark skipped), trimmed, and whether it ends within head.
func FirstLine(head []byte) ([]byte, bool) {
	head = bytes.TrimPrefix(head, utf8BOM)
	for len(head) > 0 {
		var first []byte
		var whole bool
		first, head, whole = bytes.Cut(head, []byte("\n"))
		if first = bytes.TrimSpace(first); len(first) > 0 {
			return first, whole
		}
	}
	return nil, false
}

// mayBeObject says whether a line that begins with head may be a record: its
// first byte that is not a space, if any, is '{' (not binary data or text).
func mayBeObject(head []byte) bool {
	head = bytes.TrimLeft(head, " \t\r\n")
	return len(head) == 0 || head[0] == '{'
}

// notObject returns the beginning of a long line that cannot be a record,
// for the error message, and passes over the rest; beyond MaxLine without a
// newline the stream is given up.
func (r *Reader) notObject() ([]byte, bool, error) {
	head := r.long[:min(len(r.long), bufSize)]
	n, rerr := r.discard(int64(r.opt.MaxLine))
	r.line++
	r.Unterminated = rerr != nil
	switch {
	case n > int64(r.opt.MaxLine):
		r.err = &stopError{Line: r.line, MaxLine: r.opt.MaxLine}
	case rerr != nil:
		r.stop(rerr)
	}
	return head, true, nil
}

// stop ends the stream after the current line on read error err.
func (r *Reader) stop(err error) {
	r.err = err
	if err != io.EOF {
		r.err = &stopError{Line: r.line, Err: err}
	}
}

// stopError ends a stream at line Line: a read error after it (Err), or a
// line that cannot be a log's, of more than MaxLine bytes without a newline.
type stopError struct {
	Line    int
	Err     error
	MaxLine int
}

func (e *stopError) Error() string {
	if e.Err != nil {
		return fmt.Sprintf("after line %d: %v", e.Line, e.Err)
	}
	return fmt.Sprintf("line %d: more than %s without a newline, and not JSON: not a log? stopped reading", e.Line, Size(int64(e.MaxLine)))
}

func (e *stopError) Unwrap() error { return e.Err }

// grow appends chunk to buf. Past a few MiB it makes room for the whole
// limit at once: append's doubling would hold twice the limit, with the
// garbage of every step, while the pages of a large allocation that are never
// written cost no memory.
func grow(buf, chunk []byte, limit int) []byte {
	if need := len(buf) + len(chunk); need > cap(buf) {
		c := max(2*cap(buf), need)
		if c > 16*bufSize {
			c = max(limit+bufSize, need)
		}
		nb := make([]byte, len(buf), c)
		copy(nb, buf)
		buf = nb
	}
	return append(buf, chunk...)
}

// passOver passes over the rest of the current line, of any length, and
// says whether a read error ended the stream there.
func (r *Reader) passOver() bool {
	_, err := r.discard(-1)
	r.line++
	if err != nil {
		r.stop(err)
	}
	return err != nil
}

// discard passes over the rest of the current line, and says how many bytes
// the line had (stopping past limit unless it is negative); err is the read
// error that ended it (io.EOF for a last line without a newline), nil when it
// ended with a newline.
func (r *Reader) discard(limit int64) (n int64, err error) {
	n = int64(len(r.long))
	for limit < 0 || n <= limit {
		chunk, err := r.br.ReadSlice('\n')
		n += int64(len(chunk))
		if err != bufio.ErrBufferFull {
			return n, err
		}
	}
	return n, nil
}

// Line is the number of lines read so far, those passed over included.
func (r *Reader) Line() int { return r.line }
