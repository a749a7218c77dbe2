package jsonl

import (
	"context"
	"encoding/binary"
	"errors"
	"io"

	"golang.org/x/sync/semaphore"
)

// The memory a reader may need beyond its ordinary buffers — a giant line
// that matters, held up to MaxLine; a zstd window, up to MaxZstdWindow — is
// bounded for the whole process, not per reader, so that a batch reading
// many files at once (--jobs) stays within the same peak as one file.

// giant is the one buffer for lines past giantFrom, shared by every Reader:
// a reader takes it (waiting while another holds it) for such a line and
// gives it back at its next line or Close. A real log has hardly such a
// line (lines that do not matter are passed over unheld once their event
// type is read); a giant line in each of eight files read at once is read
// one at a time, and costs the memory of one.
var giant = func() chan []byte {
	c := make(chan []byte, 1)
	c <- nil
	return c
}()

// giantFrom is the length from which a line is held in the giant buffer: a
// reader holds at most this much of a line on its own.
const giantFrom = 4 * bufSize

// takeGiant gives r the giant buffer with room for limit, holding buf's bytes.
func (r *Reader) takeGiant(buf []byte, limit int) []byte {
	g := <-giant
	r.giant, r.own = true, buf[:0]
	if cap(g) < limit+bufSize {
		g = make([]byte, 0, limit+bufSize)
	}
	return append(g[:0], buf...)
}

// ReadDocument reads r whole, up to limit bytes and one more, into the
// giant buffer (waiting while a reader holds it): a document read whole (a
// state snapshot, up to 16 MiB) costs the memory of the one buffer, not that
// of a buffer grown step by step. release gives the buffer back; doc must not
// be used after it.
func ReadDocument(r io.Reader, limit int) (doc []byte, release func(), err error) {
	g := <-giant
	if cap(g) < limit+1 {
		g = make([]byte, 0, limit+bufSize)
	}
	g = g[:limit+1]
	n, err := io.ReadFull(r, g)
	if errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, io.EOF) {
		err = nil
	}
	return g[:n], func() { giant <- g[:0] }, err
}

// dropLong releases the line buffer: the giant one, given back for the
// reader's own, or its own.
func (r *Reader) dropLong() {
	if r.giant {
		giant <- r.long[:0]
		r.giant, r.long, r.own = false, r.own, nil
		return
	}
	r.long = nil
}

// zstdWindows bounds the windows of the zstd streams decoded at once: one of
// the largest allowed (zstd -19's 8 MiB), or six of the 2 MiB of zstd's
// default level.
var zstdWindows = semaphore.NewWeighted(zstdBudget)

const zstdBudget = MaxZstdWindow + MaxZstdWindow/2

// takeWindow waits for a stream's window from zstdWindows and says how much
// it took; give it back with zstdWindows.Release.
func takeWindow(n int64) int64 {
	n = min(n, zstdBudget)
	_ = zstdWindows.Acquire(context.Background(), n) // never fails: no deadline, n within the budget
	return n
}

// zstdWindow is the window the first frame of a zstd stream declares (its
// content size for a single-segment frame), or MaxZstdWindow when head does
// not say.
func zstdWindow(head []byte) int64 {
	if len(head) < 6 {
		return MaxZstdWindow
	}
	fhd := head[4]
	if fhd&0x20 == 0 { // a window descriptor
		wd := head[5]
		base := int64(1) << (10 + wd>>3)
		return min(base+base/8*int64(wd&7), MaxZstdWindow)
	}
	p := 5 + []int{0, 1, 2, 4}[fhd&3] // past the dictionary id
	var size int64
	switch fcs := fhd >> 6; {
	case fcs == 0 && len(head) >= p+1:
		size = int64(head[p])
	case fcs == 1 && len(head) >= p+2:
		size = int64(binary.LittleEndian.Uint16(head[p:])) + 256
	case fcs == 2 && len(head) >= p+4:
		size = int64(binary.LittleEndian.Uint32(head[p:]))
	case fcs == 3 && len(head) >= p+8:
		size = int64(min(binary.LittleEndian.Uint64(head[p:]), MaxZstdWindow))
	default:
		return MaxZstdWindow
	}
	return min(max(size, 1<<10), MaxZstdWindow)
}
