// Package jsonl reads JSON Lines files as Python's logging module writes them:
// lines of any length, plain, gzip or zstd (detected by magic bytes), with line
// numbers, and with the leniency Python's json.dumps needs (NaN, Infinity).
// It knows nothing of ZorkGPT.
package jsonl

import (
	"bufio"
	"bytes"
	"cmp"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/klauspost/compress/gzip"
	"github.com/klauspost/compress/zstd"
)

// StdinName is the path that means standard input.
const StdinName = "-"

var (
	gzipMagic = []byte{0x1f, 0x8b}
	zstdMagic = []byte{0x28, 0xb5, 0x2f, 0xfd}
	utf8BOM   = []byte{0xef, 0xbb, 0xbf}
)

// Limits bound what a compressed stream may cost in time: a decompression
// bomb gives bytes without end (memory is bounded whatever the stream). A
// ratio alone cannot tell a bomb: zstd compresses a Burr log of 400 turns,
// its whole state on every line, 1,360 times. So a stream is judged by what
// it gives: any ratio up to Floor bytes, and lines up to MaxLineOut.
type Limits struct {
	// MaxRatio stops a compressed stream once it has given more than Floor
	// bytes and more than MaxRatio bytes for each compressed byte read:
	// DefaultMaxRatio when 0; no limit when negative.
	MaxRatio int
	// Floor is how much a stream may give whatever its ratio: DefaultFloor
	// when 0.
	Floor int64
	// MaxLineOut stops a compressed stream that gives more than this without
	// a newline: DefaultMaxLineOut when 0; no limit when negative.
	MaxLineOut int64
	// InTurn, when set, is handed the taking of a zstd stream's window from
	// the budget the streams decoded at once share, to call when the stream's
	// turn comes: a caller that hands files over in order takes their
	// windows in that order, so that a later file never holds the budget
	// the file being handed over waits for.
	InTurn func(take func())
}

const (
	// DefaultMaxRatio leaves ten times the margin over the most compressible
	// logs of one record a line (ZorkGPT's, TALES's compress 10-20 times).
	DefaultMaxRatio = 200
	// DefaultFloor is more than a Burr log of 3,000 turns holds (its length
	// grows with the square of the turns: 1,000 turns, 1.5 GB), and some ten
	// seconds of decompression.
	DefaultFloor = 16 << 30
	// DefaultMaxLineOut is some twenty times the longest line of a real log
	// (a Burr state of 5,000 turns, 15 MB) and a fifth of a second.
	DefaultMaxLineOut = 256 << 20
	// MaxZstdWindow bounds the memory a zstd stream may ask for: zstd's
	// levels up to -19 write windows of 8 MiB at most; --ultra -20 to -22
	// and --long ask for 32 MiB to 2 GiB, and are refused, in words.
	MaxZstdWindow = 8 << 20
)

// Open opens path for reading ("-": stdin), and undoes the gzip or zstd
// compression its magic bytes show, whatever its name, within lim.
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
	r, err := decompress(f, lim)
	if err != nil {
		f.Close()
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return r, nil
}

// decompress returns a reader of rc's content, decompressed within lim if it
// starts with the gzip or zstd magic bytes. Closing it closes rc.
func decompress(rc io.ReadCloser, lim Limits) (io.ReadCloser, error) {
	// The magic bytes are read by themselves: a plain stream is then read
	// straight into the line reader's buffer, not copied through another.
	var magic [4]byte
	n, err := io.ReadFull(rc, magic[:])
	if err != nil && !errors.Is(err, io.EOF) && !errors.Is(err, io.ErrUnexpectedEOF) {
		return nil, err
	}
	head := magic[:n]
	if !compressed(head) {
		return struct {
			io.Reader
			io.Closer
		}{&prefixed{head: head, r: rc}, rc}, nil
	}
	br := bufio.NewReaderSize(io.MultiReader(bytes.NewReader(head), rc), 64<<10)
	lim = lim.withDefaults()
	switch {
	case bytes.HasPrefix(head, gzipMagic):
		in := &counter{r: br}
		zr, err := gzip.NewReader(in)
		if err != nil {
			return nil, fmt.Errorf("gzip: %w", err)
		}
		return &closers{r: &boundedReader{r: zr, in: in, lim: lim, format: "gzip"}, inner: zr, outer: rc}, nil
	default: // zstd
		fh, _ := br.Peek(64) // the frame header: its window, for the process's budget
		var held int64
		take := func() { held = takeWindow(zstdWindow(pastSkippable(fh))) }
		if lim.InTurn != nil {
			lim.InTurn(take)
		} else {
			take()
		}
		in := &counter{r: br}
		zr, err := newZstd(in)
		if err != nil {
			zstdWindows.Release(held)
			return nil, fmt.Errorf("zstd: %w", err)
		}
		return &closers{r: &boundedReader{r: zstdErrors{zr}, in: in, lim: lim, format: "zstd"}, inner: &zstdCloser{zr, held}, outer: rc}, nil
	}
}

// compressed reports whether a stream that starts with head (its first four
// bytes) is gzip or zstd, as Open finds it.
func compressed(head []byte) bool {
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

// prefixed reads head, the bytes looked at, then r: its first read gives
// head with what a read of r gives after it, so that a reader's first bytes
// are the file's first read, not the four looked at (a source is asked to
// claim a file from what it holds, corpus.Sources.claim, and four bytes
// claim none).
type prefixed struct {
	head []byte
	r    io.Reader
	err  error // of the first read of r, given on the next
}

func (p *prefixed) Read(b []byte) (int, error) {
	switch {
	case p.err != nil:
		err := p.err
		p.err = nil
		return 0, err
	case len(p.head) == 0:
		return p.r.Read(b)
	}
	n := copy(b, p.head)
	if p.head = p.head[n:]; len(p.head) > 0 || n == len(b) {
		return n, nil
	}
	m, err := p.r.Read(b[n:])
	p.err = err
	return n + m, nil
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

// withDefaults is lim with its zero values replaced by their defaults.
func (lim Limits) withDefaults() Limits {
	lim.MaxRatio = cmp.Or(lim.MaxRatio, DefaultMaxRatio)
	lim.Floor = cmp.Or(lim.Floor, DefaultFloor)
	lim.MaxLineOut = cmp.Or(lim.MaxLineOut, DefaultMaxLineOut)
	return lim
}

// boundedReader stops the decompressed stream r when it gives more than lim
// allows, judged by what it gives and what it was given (in).
type boundedReader struct {
	r      io.Reader
	in     *counter
	lim    Limits
	format string
	out    int64 // bytes given
	line   int64 // bytes given since the last newline
	err    error
}

func (b *boundedReader) Read(p []byte) (int, error) {
	if b.err != nil {
		return 0, b.err
	}
	n, err := b.r.Read(p)
	b.out += int64(n)
	if i := bytes.LastIndexByte(p[:n], '\n'); i >= 0 {
		b.line = int64(n - i - 1)
	} else {
		b.line += int64(n)
	}
	switch {
	case b.lim.MaxLineOut > 0 && b.line > b.lim.MaxLineOut:
		b.err = fmt.Errorf("%s: a line of more than %s decompressed (%s from %s): a decompression bomb? stopped",
			b.format, Size(b.lim.MaxLineOut), Size(b.out), Size(b.in.n))
	case b.lim.MaxRatio > 0 && b.out > b.lim.Floor && b.out > int64(b.lim.MaxRatio)*b.in.n:
		b.err = fmt.Errorf("%s: more than %d bytes decompressed per compressed byte past %s (%s from %s): a decompression bomb? stopped",
			b.format, b.lim.MaxRatio, Size(b.lim.Floor), Size(b.out), Size(b.in.n))
	}
	if b.err != nil {
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

// zstdCloser ends the decoder and gives its window back to zstdWindows.
type zstdCloser struct {
	d    *zstd.Decoder
	held int64
}

func (z *zstdCloser) Close() error {
	z.d.Close()
	zstdWindows.Release(z.held)
	return nil
}

func newZstd(in io.Reader) (*zstd.Decoder, error) {
	return zstd.NewReader(in, zstd.WithDecoderConcurrency(1), zstd.WithDecoderLowmem(true), zstd.WithDecoderMaxWindow(MaxZstdWindow))
}

// closers reads from r and closes the decompressor (once), then the file.
type closers struct {
	r     io.Reader
	inner io.Closer
	outer io.Closer
}

func (c *closers) Read(p []byte) (int, error) { return c.r.Read(p) }

func (c *closers) Close() error {
	if c.inner != nil {
		c.inner.Close()
		c.inner = nil
	}
	return c.outer.Close()
}

// Size writes a byte count the way messages give it: 64 MiB, 512 KiB, 100 bytes.
func Size(n int64) string {
	switch {
	case n >= 1<<30 && n%(1<<30) == 0:
		return fmt.Sprintf("%d GiB", n>>30)
	case n >= 1<<30:
		return fmt.Sprintf("%.1f GiB", float64(n)/(1<<30))
	case n >= 1<<20 && n%(1<<20) == 0:
		return fmt.Sprintf("%d MiB", n>>20)
	case n >= 1<<20:
		return fmt.Sprintf("%.1f MiB", float64(n)/(1<<20))
	case n >= 1<<10 && n%(1<<10) == 0:
		return fmt.Sprintf("%d KiB", n>>10)
	}
	return fmt.Sprintf("%d bytes", n)
}
