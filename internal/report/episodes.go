package report

import (
	"bufio"
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"
	"sync"

	"github.com/klauspost/compress/s2"

	"github.com/lbanalyze/lbanalyze/episode"
)

// WriteEpisodes renders analysed episodes in format, the table format's
// tables fitting f (nil: whole).
func WriteEpisodes(w io.Writer, format string, eps []Episode, f *Fit) error {
	ew, err := NewEpisodeWriter(w, format)
	if err != nil {
		return err
	}
	ew.Fit = f
	for i := range eps {
		if err := ew.Write(ew.Render(&eps[i]), eps[i].Ep.Segments); err != nil {
			return err
		}
	}
	return ew.Close()
}

// EpisodeWriter writes analysed episodes in a format one at a time, so that
// none need be held once written: the bytes WriteEpisodes writes for all of
// them. It writes nothing before the first episode, and Close ends the
// output.
type EpisodeWriter struct {
	// Fit is what the table format's tables fit: nil, whole.
	Fit    *Fit
	w      io.Writer
	format string
	n      int    // episodes written
	spool  *spool // where the blocks of rendered reports wait
	tape   tape   // the reports held for their file's end, in order
}

// NewEpisodeWriter writes episodes to w in format, one of Formats.
func NewEpisodeWriter(w io.Writer, format string) (*EpisodeWriter, error) {
	if !slices.Contains(Formats, format) {
		return nil, fmt.Errorf("unknown format %q (known: %s)", format, strings.Join(Formats, ", "))
	}
	return &EpisodeWriter{w: w, format: format, spool: &spool{}}, nil
}

// Rendered is an analysed episode's report, but its head: the lines that
// name it (episode.Episode.Name, "segment 2 of 7") need how many segments its
// file holds, known once the whole file is read, while the rest can be
// rendered, and the episode and its turns let go, as soon as it is analysed.
type Rendered struct {
	name episodeName
	body held  // with err, what was rendered before it
	err  error // why it could not be rendered (a cost that is no number)
}

// episodeName is what the head of a rendered episode needs of it.
type episodeName struct {
	id, source, format string
	segment            int
}

// Render renders e but its head. It may be called from several goroutines
// at once.
func (ew *EpisodeWriter) Render(e *Episode) *Rendered {
	r := &Rendered{name: episodeName{e.Ep.ID, e.Ep.Source, e.Ep.Format, e.Ep.Segment}, body: held{sp: ew.spool}}
	switch ew.format {
	case "table":
		tableBody(&r.body, e, ew.Fit)
	case "markdown":
		markdownBody(&r.body, e)
	case "csv":
		r.err = csvRows(&r.body, e)
	case "json":
		r.err = jsonBody(&r.body, e)
	}
	r.body.close()
	return r
}

// Write writes a rendered episode, named as the episode of a file of
// segments segments: its head, then the rest. An episode that could not be
// rendered fails it, after what is written of it before the failure.
func (ew *EpisodeWriter) Write(r *Rendered, segments int) error {
	if ew.format == "json" && ew.n > 0 {
		// The comma ends the episode before: it is written if this one fails.
		if _, err := io.WriteString(ew.w, ",\n"); err != nil {
			return err
		}
	}
	ep := episode.Episode{ID: r.name.id, Source: r.name.source, Format: r.name.format, Segment: r.name.segment, Segments: segments}
	var b bytes.Buffer
	ew.head(&b, &ep)
	ew.n++
	if r.err != nil { // only JSON fails, before any of the episode is written
		return r.err
	}
	if _, err := ew.w.Write(b.Bytes()); err != nil {
		return err
	}
	return r.body.writeTo(ew.w)
}

// Hold keeps r, in order, until its file ends (Flush): its report goes on the
// writer's tape, in memory up to tapeMemory and then on disk, and r is let
// go. So a file of a million episodes costs its reports on disk, not in
// memory.
func (ew *EpisodeWriter) Hold(r *Rendered) error {
	b := ew.tape.scratch[:0]
	for _, s := range []string{r.name.id, r.name.source, r.name.format} {
		b = binary.AppendUvarint(b, uint64(len(s)))
		b = append(b, s...)
	}
	b = binary.AppendUvarint(b, uint64(r.name.segment))
	errIndex := 0
	if r.err != nil {
		ew.tape.errs = append(ew.tape.errs, r.err)
		errIndex = len(ew.tape.errs)
	}
	b = binary.AppendUvarint(b, uint64(errIndex))
	b = binary.AppendUvarint(b, uint64(len(r.body.blocks)))
	for i, c := range r.body.blocks { // a block at a time: a report may be megabytes
		if c.spooled {
			b = append(b, 1)
			b = binary.AppendUvarint(b, uint64(c.off))
			b = binary.AppendUvarint(b, uint64(c.n))
		} else {
			b = append(b, 0)
			b = binary.AppendUvarint(b, uint64(len(c.data)))
			b = append(b, c.data...)
			ew.spool.release(c)
			r.body.blocks[i] = block{}
		}
		if err := ew.tape.write(b); err != nil {
			return err
		}
		b = b[:0]
	}
	ew.tape.scratch = b
	r.body.blocks = nil
	return ew.tape.write(b)
}

// Flush writes the reports Hold kept, named as the episodes of a file of
// segments segments, and forgets them.
func (ew *EpisodeWriter) Flush(segments int) error {
	defer ew.tape.reset()
	rd, err := ew.tape.reader()
	if err != nil {
		return err
	}
	br := bufio.NewReaderSize(rd, 64<<10)
	for {
		r, err := ew.tape.next(br)
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return err
		}
		r.body.sp = ew.spool
		if err := ew.Write(r, segments); err != nil {
			return err
		}
	}
}

// head writes what comes before the body of the next episode: what divides it
// from the one before, or begins the output, and the lines that name ep.
func (ew *EpisodeWriter) head(b *bytes.Buffer, ep *episode.Episode) {
	switch ew.format {
	case "table":
		if ew.n > 0 {
			b.WriteByte('\n')
		}
		tableHead(b, ep)
	case "markdown":
		if ew.n > 0 {
			b.WriteByte('\n')
		}
		markdownHead(b, ep)
	case "csv":
		if ew.n == 0 {
			csvHeader(b)
		}
	case "json":
		if ew.n == 0 {
			b.WriteString("[\n")
		}
		b.WriteString("  ")
		b.Write(jsonHead(nil, ep))
	}
}

// Release removes what the writer keeps on disk: after Close, or instead of it
// when the output is abandoned.
func (ew *EpisodeWriter) Release() {
	ew.spool.remove()
	ew.tape.remove()
}

// Close ends the output: what follows the last episode, or what the format
// says of none; and releases the writer.
func (ew *EpisodeWriter) Close() error {
	ew.Release()
	var err error
	switch {
	case ew.format == "json" && ew.n == 0:
		_, err = io.WriteString(ew.w, "[]\n")
	case ew.format == "json":
		_, err = io.WriteString(ew.w, "\n]\n")
	case ew.format == "csv" && ew.n == 0:
		err = csvHeader(ew.w)
	}
	return err
}

// held is a report rendered and waiting to be written, compressed (s2) a
// block of heldBlock bytes at a time: a file's reports wait for its end, and
// reports, much alike from one result to the next, compress 10 to 50 times (a
// grid's JSON most). Past spoolMemory bytes held in all, further blocks go to
// the writer's spool, a temporary file: what a file of a million episodes
// holds is then on disk, not in memory.
type held struct {
	sp     *spool
	blocks []block
	buf    []byte // not yet compressed
	// more blocks follow blocks on the tape, read from it one at a time as
	// they are written (EpisodeWriter.Flush): a report of a grid of a million
	// configs is never all in memory.
	more int
	tape *bufio.Reader
}

// block is a compressed block: in memory, or at off in the spool.
type block struct {
	data      []byte
	off       int64
	n         int
	spooled   bool
	transient bool // read back from the tape: not counted in the spool's memory
}

const heldBlock = 64 << 10

// blockBuffers are the buffers a block is compressed into, or decompressed
// into, shared: an episode's report is often far smaller than one.
var blockBuffers = sync.Pool{New: func() any { b := make([]byte, s2.MaxEncodedLen(heldBlock)); return &b }}

func (h *held) Write(p []byte) (int, error) {
	n := len(p)
	if h.buf == nil {
		h.buf = (*blockBuffers.Get().(*[]byte))[:0]
	}
	for len(p) > 0 {
		k := min(len(p), heldBlock-len(h.buf))
		h.buf = append(h.buf, p[:k]...)
		p = p[k:]
		if len(h.buf) == heldBlock {
			h.flush()
		}
	}
	return n, nil
}

// flush compresses what is not yet.
func (h *held) flush() {
	if len(h.buf) == 0 {
		return
	}
	scratch := blockBuffers.Get().(*[]byte)
	h.blocks = append(h.blocks, h.sp.keep(s2.Encode(*scratch, h.buf)))
	blockBuffers.Put(scratch)
	h.buf = h.buf[:0]
}

// close compresses the rest and lets go of the buffer: h is written only.
func (h *held) close() {
	h.flush()
	if h.buf != nil {
		b := h.buf[:cap(h.buf)]
		blockBuffers.Put(&b)
	}
	h.buf = nil
}

// writeTo writes what h holds to w, and lets it go.
func (h *held) writeTo(w io.Writer) error {
	scratch := blockBuffers.Get().(*[]byte)
	defer blockBuffers.Put(scratch)
	in := blockBuffers.Get().(*[]byte) // a compressed block read back
	defer blockBuffers.Put(in)
	write := func(c block) error {
		data, err := h.sp.load(c, *in)
		if err != nil {
			return err
		}
		b, err := s2.Decode(*scratch, data)
		if err != nil {
			return err
		}
		if _, err := w.Write(b); err != nil {
			return err
		}
		h.sp.release(c)
		return nil
	}
	for i, c := range h.blocks {
		if err := write(c); err != nil {
			return err
		}
		h.blocks[i] = block{}
	}
	for ; h.more > 0; h.more-- {
		c, err := readBlock(h.tape, *in)
		if err != nil {
			return errTape
		}
		if err := write(c); err != nil {
			return err
		}
	}
	return nil
}

// spoolMemory is how many compressed bytes of rendered reports a writer keeps
// in memory before its spool takes the rest, and tapeMemory how many bytes
// of held reports before its tape goes to disk: together, with the episodes
// in flight, what bounds the memory of `episode` (docs/PERFORMANCE.md).
const (
	spoolMemory = 8 << 20
	tapeMemory  = 4 << 20
)

// spool holds compressed blocks for an EpisodeWriter: in memory up to
// spoolMemory, then in a temporary file, removed by Close. If no temporary
// file can be made, the blocks stay in memory.
type spool struct {
	mu       sync.Mutex
	memory   int64 // bytes of the blocks held in memory
	f        *os.File
	size     int64
	disabled bool // no temporary file could be made
}

// keep takes a compressed block, a copy of data.
func (sp *spool) keep(data []byte) block {
	sp.mu.Lock()
	defer sp.mu.Unlock()
	if sp.memory+int64(len(data)) <= spoolMemory || !sp.open() {
		sp.memory += int64(len(data))
		return block{data: bytes.Clone(data)}
	}
	if _, err := sp.f.WriteAt(data, sp.size); err != nil {
		sp.memory += int64(len(data))
		return block{data: bytes.Clone(data)}
	}
	b := block{off: sp.size, n: len(data), spooled: true}
	sp.size += int64(len(data))
	return b
}

// open makes the temporary file, once.
func (sp *spool) open() bool {
	if sp.f == nil && !sp.disabled {
		f, err := os.CreateTemp("", "lbanalyze-spool-*")
		if err != nil {
			sp.disabled = true
			return false
		}
		sp.f = f
	}
	return sp.f != nil
}

// load is b's compressed data: where it lies in memory, or read from the
// spool into buf (grown if needed).
func (sp *spool) load(b block, buf []byte) ([]byte, error) {
	if !b.spooled {
		return b.data, nil
	}
	data := slices.Grow(buf[:0], b.n)[:b.n]
	_, err := sp.f.ReadAt(data, b.off)
	return data, err
}

// release notes that a block was written out.
func (sp *spool) release(b block) {
	if !b.spooled && !b.transient {
		sp.mu.Lock()
		sp.memory -= int64(len(b.data))
		sp.mu.Unlock()
	}
}

// remove deletes the temporary file.
func (sp *spool) remove() {
	sp.mu.Lock()
	defer sp.mu.Unlock()
	if sp.f != nil {
		sp.f.Close()
		os.Remove(sp.f.Name())
		sp.f = nil
	}
}

// tape holds the reports of a file, in order, for Hold and Flush: in memory up
// to tapeMemory, then in a temporary file.
type tape struct {
	mem     []byte
	f       *os.File
	w       *bufio.Writer // of f
	errs    []error       // the reports' errors, by index from 1
	scratch []byte
}

func (t *tape) write(p []byte) error {
	if t.f == nil && len(t.mem)+len(p) <= tapeMemory {
		if t.mem == nil {
			// At once: grown by doubling, its old copies would stay in the
			// heap's spans after the tape has moved on.
			t.mem = make([]byte, 0, tapeMemory)
		}
		t.mem = append(t.mem, p...)
		return nil
	}
	if t.f == nil {
		f, err := os.CreateTemp("", "lbanalyze-tape-*")
		if err != nil {
			t.mem = append(t.mem, p...) // no disk to spill to: memory it is
			return nil
		}
		t.f, t.w = f, bufio.NewWriterSize(f, 64<<10)
		if _, err := t.w.Write(t.mem); err != nil {
			return err
		}
		t.mem = nil
	}
	_, err := t.w.Write(p)
	return err
}

// reader reads the tape from its start.
func (t *tape) reader() (io.Reader, error) {
	if t.f == nil {
		return bytes.NewReader(t.mem), nil
	}
	if err := t.w.Flush(); err != nil {
		return nil, err
	}
	size, err := t.f.Seek(0, io.SeekCurrent)
	if err != nil {
		return nil, err
	}
	return io.NewSectionReader(t.f, 0, size), nil
}

// next reads the next report's head from br, io.EOF after the last: its
// blocks are read from br as it is written.
func (t *tape) next(br *bufio.Reader) (*Rendered, error) {
	var r Rendered
	fields := []*string{&r.name.id, &r.name.source, &r.name.format}
	for i, f := range fields {
		n, err := binary.ReadUvarint(br)
		if err != nil {
			if i == 0 && err == io.EOF {
				return nil, io.EOF
			}
			return nil, errTape
		}
		b := make([]byte, n)
		if _, err := io.ReadFull(br, b); err != nil {
			return nil, errTape
		}
		*f = string(b)
	}
	var nums [3]uint64
	for i := range nums {
		v, err := binary.ReadUvarint(br)
		if err != nil {
			return nil, errTape
		}
		nums[i] = v
	}
	r.name.segment = int(nums[0])
	if e := int(nums[1]); e > 0 && e <= len(t.errs) {
		r.err = t.errs[e-1]
	}
	r.body.more, r.body.tape = int(nums[2]), br
	return &r, nil
}

// readBlock reads a block of the tape: a place in the spool, or data, read
// into buf (grown if needed).
func readBlock(br *bufio.Reader, buf []byte) (block, error) {
	kind, err := br.ReadByte()
	if err != nil {
		return block{}, err
	}
	if kind == 1 {
		off, err := binary.ReadUvarint(br)
		if err != nil {
			return block{}, err
		}
		n, err := binary.ReadUvarint(br)
		return block{off: int64(off), n: int(n), spooled: true}, err
	}
	n, err := binary.ReadUvarint(br)
	if err != nil {
		return block{}, err
	}
	if n > uint64(s2.MaxEncodedLen(heldBlock)) {
		return block{}, errTape
	}
	data := slices.Grow(buf[:0], int(n))[:n]
	_, err = io.ReadFull(br, data)
	return block{data: data, transient: true}, err
}

// errTape: what the tape holds is not what was written on it.
var errTape = errors.New("report: the held reports cannot be read back")

func (t *tape) reset() {
	t.mem, t.errs = t.mem[:0], nil
	if t.f != nil {
		t.w.Reset(t.f)
		t.f.Truncate(0)
		t.f.Seek(0, io.SeekStart)
	}
}

func (t *tape) remove() {
	if t.f != nil {
		t.f.Close()
		os.Remove(t.f.Name())
		t.f, t.w = nil, nil
	}
}
