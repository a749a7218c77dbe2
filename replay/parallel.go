package replay

import (
	"bytes"
	"errors"
	"io"
	"math"
	"os"
	"runtime"
	"sync"
	"sync/atomic"

	"github.com/lbanalyze/lbanalyze/jsonl"
)

// A large plain file is read in regions, one goroutine a region and as many
// at once as there are cores: each reads its region's lines and decodes them
// (the scan and decoding are most of the work of reading), and the builder
// takes what they decoded region by region, line by line, exactly as Read
// would have met it. A region begins just after a newline, so that every
// line is read whole by one reader; line numbers and errors are given the
// file's numbering when the builder takes them.

const (
	// parallelFrom is the size from which a file is read in regions: below
	// it the goroutines cost more than they save.
	parallelFrom = 16 << 20
	// regionSize is how much of the file one goroutine reads at a time:
	// small enough that a region's decoded lines (about seven times the
	// bytes of its short lines) are held whole while the builder takes the
	// region before it, so that the goroutines seldom wait.
	regionSize = 512 << 10
	// batchLines is how many decoded lines a region hands over at most at
	// a time (1.7 MiB of them): a region of short lines in two batches.
	batchLines = 1024
	// chunkLines is how many decoded lines a batch holds a piece: a region
	// of long lines (LLM text) has few.
	chunkLines = 64
)

// readLarge reads path in regions when it is a plain regular file of
// parallelFrom bytes or more and there is more than one core; else nil.
func readLarge(path string, opt Options) *Log {
	if path == jsonl.StdinName || runtime.GOMAXPROCS(0) < 2 {
		return nil
	}
	fi, err := os.Stat(path)
	if err != nil || !fi.Mode().IsRegular() || fi.Size() < parallelFrom {
		return nil
	}
	f, err := os.Open(path)
	if err != nil {
		return nil // the ordinary path says why
	}
	defer f.Close()
	head := make([]byte, headSize)
	n, _ := f.ReadAt(head, 0)
	if head = head[:n]; jsonl.Compressed(head) || !shortLines(head) {
		return nil
	}
	return readRegions(f, fi.Size(), path, opt, regionSize, runtime.GOMAXPROCS(0))
}

// headSize is how much of a large file is looked at first: its magic bytes,
// and whether its lines are short.
const headSize = 256 << 10

// shortLines reports whether the head of a file (headSize bytes) holds lines
// of 2 KiB or less on average. Regions pay when decoding is the work: with
// lines of LLM text, the scan passes over most bytes at memchr speed, the
// copy from the page cache is the limit, and one core keeps up with it (a
// 230 MB log of realistic episodes: 38 ms on one, 48 ms in regions;
// docs/PERFORMANCE.md).
func shortLines(head []byte) bool {
	return bytes.Count(head, []byte{'\n'}) >= headSize/(2<<10)
}

type itemKind uint8

const (
	lineItem    itemKind = iota // a line read and decoded
	blankItem                   // a blank line
	passedItem                  // a long line passed over for its event type
	tooLongItem                 // a line that matters, longer than MaxLine
)

// item is one line of a region, as the builder is to take it.
type item struct {
	kind         itemKind
	unterminated bool
	n            int        // line number within the region
	size         int64      // bytes of the line with its newline (line and blank)
	info         *eventInfo // the event type of a line passed over
	dec          int        // its decoding: batch.dec(dec) (line)
	start        start      // worked out for the first lines of a region
}

// batch is what a region hands over at a time. Its decoded lines are in
// pieces that never move, as are the values their records point to.
type batch struct {
	items []item
	decs  []*[chunkLines]decoded
	ndec  int
	vals  detached // what the decoded records point to
	// The last batch of a region: its lines, and what ended it (io.EOF at
	// its end; anything else ends the file there) after line errLine.
	end     bool
	empty   bool // the region holds no line (its window slot is already given back)
	lines   int
	err     error
	errLine int
}

// regions reads a file in regions.
type regions struct {
	f      io.ReaderAt
	region int64
	count  int
	b      *builder // for its options only, in the goroutines
	free   chan *batch
	done   chan struct{}
}

// readRegions reads the size bytes of f in regions of about region bytes,
// jobs at a time: the same Log as Read of the whole file.
func readRegions(f io.ReaderAt, size int64, source string, opt Options, region int64, jobs int) *Log {
	b := newBuilder(source, opt)
	count := int(max(1, (size+region-1)/region))
	p := &regions{f: f, region: region, count: count, b: b,
		free: make(chan *batch, 3*(jobs+1)), done: make(chan struct{})}
	outs := make([]chan *batch, count)
	for k := range outs {
		outs[k] = make(chan *batch, 2)
	}
	// A region is begun only when the builder is at most jobs regions
	// behind it: the regions in hand are bounded, however fast the
	// goroutines are.
	window := make(chan struct{}, jobs+1)
	var next atomic.Int64 // the next region to begin
	var wg sync.WaitGroup
	for range min(jobs, count) {
		wg.Go(func() {
			w := &worker{p: p}
			defer w.close()
			for {
				select {
				case window <- struct{}{}:
				case <-p.done:
					return
				}
				k := int(next.Add(1) - 1)
				if k >= count {
					return
				}
				if w.read(k, outs[k]) {
					<-window // an empty region holds nothing: others may begin
				}
			}
		})
	}
	defer func() {
		close(p.done)
		wg.Wait()
	}()
	base := 0
	for k := range count {
		for bt := range outs[k] {
			if lg := b.takeBatch(bt, base); lg != nil {
				return lg
			}
			if bt.end {
				if !errors.Is(bt.err, io.EOF) {
					b.stop(base+bt.errLine, inFile(bt.err, base))
					b.log.Lines = base + bt.lines
					b.finish()
					return b.log
				}
				base += bt.lines
				if !bt.empty {
					<-window
				}
			}
			p.recycle(bt)
		}
	}
	b.log.Lines = base
	b.finish()
	return b.log
}

// takeBatch gives the builder a batch of lines of the region that starts
// after line base; a Log when the file proves not to be a log.
func (b *builder) takeBatch(bt *batch, base int) *Log {
	for i := range bt.items {
		it := &bt.items[i]
		n := base + it.n
		switch it.kind {
		case passedItem:
			b.passed(it.info)
		case tooLongItem:
			b.tooLong(n)
		case blankItem:
			b.bytes += it.size
		case lineItem:
			b.bytes += it.size
			// The region worked its first lines out: the builder has seen
			// fewer than recordsNeeded non-blank lines and no record yet.
			if b.records == 0 {
				if reason := b.judge(it.start, n, it.unterminated); reason != "" {
					return b.reject(n, reason)
				}
			}
			b.apply(bt.dec(it.dec), n)
		}
	}
	return nil
}

// inFile gives a region's error the file's line number.
func inFile(err error, base int) error {
	var se *jsonl.StopError
	if errors.As(err, &se) {
		c := *se
		c.Line += base
		return &c
	}
	return err
}

// Region k holds the lines that begin after the first newline at or after
// byte k·region − 1 (so a region that begins on a line's first byte keeps
// it), up to the one that holds byte (k+1)·region − 1: the regions tile the
// file, and a line longer than a region belongs to the region it begins in,
// the regions it covers holding none.

// start is where region k's first line begins; false when the region holds
// none: no newline in its bytes (the last region: in the rest of the file).
func (w *worker) start(k int) (int64, bool) {
	p := w.p
	if k == 0 {
		return 0, true
	}
	from, to := int64(k)*p.region-1, int64(k+1)*p.region-1
	if k == p.count-1 {
		to = math.MaxInt64
	}
	// Lines are short: a small read nearly always finds the newline; past
	// it, reads four times as large each time, up to the line reader's.
	if w.scratch == nil {
		w.scratch = make([]byte, 256<<10)
	}
	size := int64(4 << 10)
	for off := from; off < to; size = min(4*size, int64(len(w.scratch))) {
		buf := w.scratch[:min(size, to-off)]
		n, err := p.f.ReadAt(buf, off)
		if i := bytes.IndexByte(buf[:n], '\n'); i >= 0 {
			return off + int64(i) + 1, true
		}
		off += int64(n)
		if err != nil {
			break
		}
	}
	return 0, false
}

// lineEnd reads a file from pos to the end of the line that holds byte end
// (to its end when last).
type lineEnd struct {
	f    io.ReaderAt
	pos  int64
	end  int64
	last bool
	done bool
}

func (r *lineEnd) Read(b []byte) (int, error) {
	if r.done {
		return 0, io.EOF
	}
	n, err := r.f.ReadAt(b, r.pos)
	if !r.last && r.pos+int64(n) > r.end {
		from := max(0, r.end-r.pos)
		if i := bytes.IndexByte(b[from:n], '\n'); i >= 0 {
			n, err, r.done = int(from)+i+1, nil, true
		}
	}
	r.pos += int64(n)
	return n, err
}

func (p *regions) batch() *batch {
	select {
	case bt := <-p.free:
		return bt
	default:
		return &batch{}
	}
}

// dec is decoded line i of the batch.
func (bt *batch) dec(i int) *decoded { return &bt.decs[i/chunkLines][i%chunkLines] }

// newDec is room for one more decoded line.
func (bt *batch) newDec() (int, *decoded) {
	i := bt.ndec
	if i/chunkLines == len(bt.decs) {
		bt.decs = append(bt.decs, new([chunkLines]decoded))
	}
	bt.ndec++
	return i, bt.dec(i)
}

func (p *regions) recycle(bt *batch) {
	if bt.empty {
		return // an empty region's end
	}
	bt.vals.reset()
	*bt = batch{items: bt.items[:0], decs: bt.decs, vals: bt.vals}
	select {
	case p.free <- bt:
	default:
	}
}

// send hands bt over, unless the builder has stopped.
func (p *regions) send(out chan<- *batch, bt *batch) bool {
	select {
	case out <- bt:
		return true
	case <-p.done:
		return false
	}
}

// worker reads regions one after another, with the same buffers.
type worker struct {
	p       *regions
	rd      *jsonl.Reader
	scratch []byte // for start
	as      arenas // for the line being decoded
}

func (w *worker) close() {
	if w.rd != nil {
		w.rd.Close()
	}
}

// reader is a line reader of src with opt.
func (w *worker) reader(src io.Reader, opt jsonl.LineOptions) *jsonl.Reader {
	if w.rd == nil {
		w.rd = jsonl.NewReaderOptions(src, opt)
	} else {
		w.rd.Reset(src, opt)
	}
	return w.rd
}

// read reads region k into out, and closes it; empty: it held no line.
func (w *worker) read(k int, out chan<- *batch) (empty bool) {
	p := w.p
	defer close(out)
	from, ok := w.start(k)
	if !ok {
		p.send(out, &batch{end: true, empty: true, err: io.EOF})
		return true
	}
	bt := p.batch()
	src := &lineEnd{f: p.f, pos: from, end: int64(k+1)*p.region - 1, last: k == p.count-1}
	// As the builder counts them, while the region has had no record: the
	// first lines' starts are worked out for it.
	records, nonBlank := 0, 0
	skip := func(eventType []byte) bool {
		info, ok := passOver(eventType)
		if ok {
			bt.items = append(bt.items, item{kind: passedItem, info: info})
			records++
		}
		return ok
	}
	rd := w.reader(src, p.b.lineOptions(skip, k > 0))
	for {
		line, n, err := rd.Next()
		switch {
		case errors.Is(err, jsonl.ErrLineTooLong):
			bt.items = append(bt.items, item{kind: tooLongItem, n: n})
		case err != nil:
			bt.end, bt.lines, bt.err, bt.errLine = true, rd.Line(), err, n
			rd.Release()
			p.send(out, bt)
			return false
		case len(bytes.TrimSpace(line)) == 0:
			bt.items = append(bt.items, item{kind: blankItem, size: int64(len(line)) + 1})
		default:
			it := item{kind: lineItem, n: n, size: int64(len(line)) + 1, unterminated: rd.Unterminated}
			if records == 0 && nonBlank < recordsNeeded {
				nonBlank++
				if it.start = startOf(line); it.start.record {
					records++
				}
			}
			var d *decoded
			it.dec, d = bt.newDec()
			decodeLine(line, rd.Unterminated, p.b.opt.Codec, d, &w.as)
			if d.use {
				d.detach(&bt.vals)
			}
			bt.items = append(bt.items, it)
		}
		if bt.ndec == batchLines || len(bt.items) >= 4*batchLines {
			rd.Release() // no giant buffer held while waiting
			if !p.send(out, bt) {
				return false
			}
			bt = p.batch()
		}
	}
}
