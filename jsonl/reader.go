// Package jsonl reads JSON Lines files as Python's logging module writes them:
// lines of any length, plain, gzip or zstd (detected by magic bytes), with line
// numbers, and with the leniency Python's json.dumps needs (NaN, Infinity).
// It knows nothing of ZorkGPT.
package jsonl

import (
	"bufio"
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"os"
	"sync"

	"github.com/klauspost/compress/gzip"
	"github.com/klauspost/compress/zstd"
)

// StdinName is the path that means standard input.
const StdinName = "-"

// DisplayName is how a path is named in messages and tables: as given, so
// that standard input is "-" everywhere, as in the JSON and CSV "source".
func DisplayName(path string) string { return path }

var (
	gzipMagic = []byte{0x1f, 0x8b}
	zstdMagic = []byte{0x28, 0xb5, 0x2f, 0xfd}
	utf8BOM   = []byte{0xef, 0xbb, 0xbf}
)

// Limits bound what a compressed stream may cost in memory and time.
type Limits struct {
	// MaxRatio stops a compressed stream once it has given more than MaxRatio
	// bytes for each compressed byte read (past the first RatioFloor bytes):
	// real logs compress 10-20 times, a decompression bomb a thousand times.
	// DefaultMaxRatio when 0; no limit when negative.
	MaxRatio int
	// InTurn, when set, is handed the taking of a zstd stream's window from
	// the budget the streams decoded at once share, to call when the stream's
	// turn comes: a caller that hands files over in order takes their
	// windows in that order, so that a later file never holds the budget
	// the file being handed over waits for.
	InTurn func(take func())
}

const (
	// DefaultMaxRatio leaves ten times the margin over the most compressible
	// real logs.
	DefaultMaxRatio = 200
	// RatioFloor is how much any stream may give before its ratio is judged.
	RatioFloor = 64 << 20
	// MaxZstdWindow bounds the memory a zstd stream may ask for: zstd's
	// levels up to -19 write windows of 8 MiB at most; --ultra -20 to -22
	// and --long ask for 32 MiB to 2 GiB, and are refused, in words.
	MaxZstdWindow = 8 << 20
)

// Open opens path for reading, "-" meaning stdin, and undoes gzip or zstd
// compression found by its magic bytes (whatever the file is called), within
// lim.
func Open(path string, stdin io.Reader, lim Limits) (io.ReadCloser, error) {
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
	r, err := Decompress(f, lim)
	if err != nil {
		f.Close()
		return nil, fmt.Errorf("%s: %w", DisplayName(path), err)
	}
	return r, nil
}

// headPool holds the small buffers that read the first bytes of a file (and
// compressed streams), so that a batch of files does not allocate one each.
var headPool = sync.Pool{New: func() any { return bufio.NewReaderSize(nil, 64<<10) }}

// Decompress returns a reader of rc's content, decompressed within lim if it
// starts with the gzip or zstd magic bytes. Closing it closes rc.
func Decompress(rc io.ReadCloser, lim Limits) (io.ReadCloser, error) {
	// The magic bytes are read by themselves: a plain stream is then read
	// straight into the line reader's buffer, not copied through another.
	var magic [4]byte
	n, err := io.ReadFull(rc, magic[:])
	if err != nil && !errors.Is(err, io.EOF) && !errors.Is(err, io.ErrUnexpectedEOF) {
		return nil, err
	}
	head := magic[:n]
	if !Compressed(head) {
		return struct {
			io.Reader
			io.Closer
		}{io.MultiReader(bytes.NewReader(head), rc), rc}, nil
	}
	br := headPool.Get().(*bufio.Reader)
	br.Reset(io.MultiReader(bytes.NewReader(head), rc))
	release := func() { br.Reset(nil); headPool.Put(br) }
	ratio := lim.MaxRatio
	if ratio == 0 {
		ratio = DefaultMaxRatio
	}
	switch {
	case bytes.HasPrefix(head, gzipMagic):
		in := &counter{r: br}
		zr, err := gzip.NewReader(in)
		if err != nil {
			release()
			return nil, fmt.Errorf("gzip: %w", err)
		}
		return &closers{r: bounded(zr, in, ratio, "gzip"), inner: zr, outer: rc, release: release}, nil
	default: // zstd
		fh, _ := br.Peek(64) // the frame header: its window, for the process's budget
		var held int64
		take := func() { held = zstdWindows.acquire(zstdWindow(pastSkippable(fh))) }
		if lim.InTurn != nil {
			lim.InTurn(take)
		} else {
			take()
		}
		in := &counter{r: br}
		zr, err := newZstd(in)
		if err != nil {
			zstdWindows.release(held)
			release()
			return nil, fmt.Errorf("zstd: %w", err)
		}
		done := func() { zstdWindows.release(held); release() }
		return &closers{r: bounded(zstdErrors{zr}, in, ratio, "zstd"), inner: zstdCloser{zr}, outer: rc, release: done}, nil
	}
}

// Compressed reports whether a stream that starts with head (its first four
// bytes) is gzip or zstd, as Open would find it.
func Compressed(head []byte) bool {
	return bytes.HasPrefix(head, gzipMagic) || bytes.HasPrefix(head, zstdMagic) || skippable(head)
}

// skippable says whether head starts a zstd skippable frame (magic
// 0x184D2A50 to 0x184D2A5F, little-endian), which a zstd stream may begin
// with: pzstd writes one before each frame, holding the frame's size.
func skippable(head []byte) bool {
	return len(head) >= 4 && head[0]&0xf0 == 0x50 && head[1] == 0x2a && head[2] == 0x4d && head[3] == 0x18
}

// pastSkippable is head past the skippable frames it starts with, up to the
// first frame that holds data (empty when head ends first).
func pastSkippable(head []byte) []byte {
	for skippable(head) && len(head) >= 8 {
		n := uint64(binary.LittleEndian.Uint32(head[4:])) + 8
		if n > uint64(len(head)) {
			return nil
		}
		head = head[n:]
	}
	if skippable(head) {
		return nil // cut inside a skippable frame's header
	}
	return head
}

// counter counts the bytes read through it.
type counter struct {
	r io.Reader
	n int64
}

func (c *counter) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n += int64(n)
	return n, err
}

// bounded stops the decompressed stream r when it gives more than ratio
// bytes per compressed byte read from in (past RatioFloor).
func bounded(r io.Reader, in *counter, ratio int, format string) io.Reader {
	if ratio < 0 {
		return r
	}
	return &ratioReader{r: r, in: in, ratio: int64(ratio), format: format}
}

type ratioReader struct {
	r      io.Reader
	in     *counter
	out    int64
	ratio  int64
	format string
	err    error
}

func (b *ratioReader) Read(p []byte) (int, error) {
	if b.err != nil {
		return 0, b.err
	}
	n, err := b.r.Read(p)
	b.out += int64(n)
	if b.out > RatioFloor && b.out > b.ratio*b.in.n {
		b.err = fmt.Errorf("%s: more than %d bytes decompressed per compressed byte (%s from %s): a decompression bomb? stopped",
			b.format, b.ratio, Size(b.out), Size(b.in.n))
		return n, b.err
	}
	return n, err
}

// zstdErrors says in words what the zstd decoder's terse errors mean.
type zstdErrors struct{ d *zstd.Decoder }

func (z zstdErrors) Read(p []byte) (int, error) {
	n, err := z.d.Read(p)
	if errors.Is(err, zstd.ErrWindowSizeExceeded) || errors.Is(err, zstd.ErrDecoderSizeExceeded) {
		err = fmt.Errorf("zstd: the stream needs a window larger than %s (compressed with --long or --ultra?): decompress it with zstd -d --long=31 first: %w", Size(MaxZstdWindow), err)
	} else if err != nil && !errors.Is(err, io.EOF) {
		err = fmt.Errorf("zstd: %w", err)
	}
	return n, err
}

type zstdCloser struct{ d *zstd.Decoder }

// Close keeps the decoder for the next stream (its window's buffers are
// reused rather than left for the garbage collector) or, with enough kept,
// closes it.
func (z zstdCloser) Close() error {
	z.d.Reset(nil)
	select {
	case idleZstd <- z.d:
	default:
		z.d.Close()
	}
	return nil
}

// idleZstd holds decoders between streams, as many as zstdWindows lets
// decode at once at the largest window.
var idleZstd = make(chan *zstd.Decoder, 2)

// newZstd is a decoder of in: an idle one, else a new one.
func newZstd(in io.Reader) (*zstd.Decoder, error) {
	select {
	case d := <-idleZstd:
		if err := d.Reset(in); err != nil {
			d.Close()
			return nil, err
		}
		return d, nil
	default:
		return zstd.NewReader(in, zstd.WithDecoderConcurrency(1), zstd.WithDecoderLowmem(true),
			zstd.WithDecoderMaxWindow(MaxZstdWindow))
	}
}

// closers reads from r and closes the decompressor, then the file, and
// returns the head buffer to its pool.
type closers struct {
	r       io.Reader
	inner   io.Closer
	outer   io.Closer
	release func()
}

func (c *closers) Read(p []byte) (int, error) { return c.r.Read(p) }

func (c *closers) Close() error {
	if c.inner != nil {
		c.inner.Close()
	}
	if c.release != nil {
		c.release()
		c.release = nil
	}
	return c.outer.Close()
}

// Size writes a byte count the way messages give it: 64 MiB, 512 KiB, 100 bytes.
func Size(n int64) string {
	switch {
	case n >= 1<<20 && n%(1<<20) == 0:
		return fmt.Sprintf("%d MiB", n>>20)
	case n >= 1<<20:
		return fmt.Sprintf("%.1f MiB", float64(n)/(1<<20))
	case n >= 1<<10 && n%(1<<10) == 0:
		return fmt.Sprintf("%d KiB", n>>10)
	}
	return fmt.Sprintf("%d bytes", n)
}
