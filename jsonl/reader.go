// Package jsonl reads JSON Lines files as Python's logging module writes them:
// lines of any length, plain, gzip or zstd (detected by magic bytes), with line
// numbers, and with the leniency Python's json.dumps needs (NaN, Infinity).
// It knows nothing of ZorkGPT.
package jsonl

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/klauspost/compress/gzip"
	"github.com/klauspost/compress/zstd"
)

// StdinName is the path that means standard input.
const StdinName = "-"

// DisplayName is how a path is named in messages ("<stdin>" for "-").
func DisplayName(path string) string {
	if path == StdinName {
		return "<stdin>"
	}
	return path
}

var (
	gzipMagic = []byte{0x1f, 0x8b}
	zstdMagic = []byte{0x28, 0xb5, 0x2f, 0xfd}
)

// Open opens path for reading, "-" meaning stdin, and undoes gzip or zstd
// compression found by its magic bytes (whatever the file is called).
func Open(path string, stdin io.Reader) (io.ReadCloser, error) {
	var f io.ReadCloser
	if path == StdinName {
		f = io.NopCloser(stdin)
	} else {
		file, err := os.Open(path)
		if err != nil {
			return nil, err
		}
		f = file
	}
	r, err := Decompress(f)
	if err != nil {
		f.Close()
		return nil, fmt.Errorf("%s: %w", DisplayName(path), err)
	}
	return r, nil
}

// Decompress returns a reader of rc's content, decompressed if it starts with
// the gzip or zstd magic bytes. Closing it closes rc.
func Decompress(rc io.ReadCloser) (io.ReadCloser, error) {
	br := bufio.NewReaderSize(rc, 64<<10)
	head, err := br.Peek(4)
	if err != nil && !errors.Is(err, io.EOF) {
		return nil, err
	}
	switch {
	case bytes.HasPrefix(head, gzipMagic):
		zr, err := gzip.NewReader(br)
		if err != nil {
			return nil, fmt.Errorf("gzip: %w", err)
		}
		return closers{zr, zr, rc}, nil
	case bytes.HasPrefix(head, zstdMagic):
		zr, err := zstd.NewReader(br, zstd.WithDecoderConcurrency(1), zstd.WithDecoderLowmem(true))
		if err != nil {
			return nil, fmt.Errorf("zstd: %w", err)
		}
		return closers{zr, zstdCloser{zr}, rc}, nil
	}
	return closers{br, nil, rc}, nil
}

type zstdCloser struct{ d *zstd.Decoder }

func (z zstdCloser) Close() error { z.d.Close(); return nil }

// closers reads from r and closes the decompressor, then the file.
type closers struct {
	r     io.Reader
	inner io.Closer
	outer io.Closer
}

func (c closers) Read(p []byte) (int, error) { return c.r.Read(p) }

func (c closers) Close() error {
	if c.inner != nil {
		c.inner.Close()
	}
	return c.outer.Close()
}

// Reader yields the lines of a stream with their 1-based line numbers.
// A line may be of any length; only one line is held at a time.
type Reader struct {
	br   *bufio.Reader
	long []byte // holds a line longer than br's buffer
	line int
	err  error
	// Unterminated reports whether the last line returned had no final newline.
	Unterminated bool
}

// bufSize covers nearly every real log line without copying; longer lines are
// assembled in a separate buffer that is released when it grows very large.
const bufSize = 256 << 10

// NewReader returns a Reader of r.
func NewReader(r io.Reader) *Reader {
	return &Reader{br: bufio.NewReaderSize(r, bufSize)}
}

// Next returns the next line without its line ending ("\n" or "\r\n") and its
// number. The slice is valid until the next call. At the end it returns io.EOF;
// a read error (a corrupt gzip stream, say) is returned once and ends the stream.
func (r *Reader) Next() ([]byte, int, error) {
	if r.err != nil {
		return nil, r.line, r.err
	}
	if cap(r.long) > 64<<20 {
		r.long = nil // do not keep a giant buffer after a giant line
	}
	r.long = r.long[:0]
	for {
		chunk, err := r.br.ReadSlice('\n')
		if err == bufio.ErrBufferFull {
			r.long = append(r.long, chunk...)
			continue
		}
		line := chunk
		if len(r.long) > 0 {
			r.long = append(r.long, chunk...)
			line = r.long
		}
		if err != nil {
			r.err = err
			if len(line) == 0 {
				return nil, r.line, err
			}
			// The last line has no newline: return it now, the error next time.
			r.line++
			r.Unterminated = true
			if err != io.EOF {
				r.err = fmt.Errorf("after line %d: %w", r.line, err)
			}
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
}
