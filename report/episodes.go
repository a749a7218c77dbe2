package report

import (
	"bytes"
	"fmt"
	"io"
	"slices"
	"sync"
	"sync/atomic"

	"github.com/lbanalyze/lbanalyze/episode"
	"github.com/lbanalyze/lbanalyze/internal/textout"
)

// WriteEpisodes renders analysed episodes in format, the table format's
// tables fitting f (nil: whole).
func WriteEpisodes(w io.Writer, format string, eps []Episode, f *textout.Fit) error {
	ew, err := NewEpisodeWriter(w, format)
	if err != nil {
		return err
	}
	ew.Fit = f
	for i := range eps {
		r := ew.Report(eps[i].Ep)
		if err := ew.turn(r); err != nil {
			return err
		}
		r.Render(&eps[i])
		if err := ew.finish(r); err != nil {
			return err
		}
	}
	return ew.Close()
}

// EpisodeWriter writes analysed episodes in a format, each as soon as it is
// rendered and its turn comes: the bytes WriteEpisodes writes for all of
// them. Several goroutines may render the reports at once (Report.Render);
// one writes them, in order (Write). It writes nothing before the first
// episode, and Close ends the output.
type EpisodeWriter struct {
	// Fit is what the table format's tables fit: nil, whole.
	Fit    *textout.Fit
	w      io.Writer
	format string
	n      int          // episodes begun
	file   string       // the source of the episodes being written
	inFile int          // how many of them
	err    error        // the first write that failed: nothing more is written
	held   atomic.Int64 // bytes of reports waiting for their turn
	limit  int64        // of held: maxHeld
}

// NewEpisodeWriter writes episodes to w in format, one of textout.Formats.
func NewEpisodeWriter(w io.Writer, format string) (*EpisodeWriter, error) {
	if !slices.Contains(textout.Formats, format) {
		return nil, textout.UnknownFormat(format)
	}
	return &EpisodeWriter{w: w, format: format, limit: maxHeld}, nil
}

// Report is an episode's report on its way out: rendered by any goroutine
// (Render), written in its turn (EpisodeWriter.Write). What it renders
// before its turn waits in memory while the reports waiting hold less than
// maxHeld bytes in all; past that its renderer waits for its turn and
// writes straight out, so that a report of a million configs is never held.
type Report struct {
	ew   *EpisodeWriter
	name episodeName
	turn chan struct{} // closed when its head is written: the body may follow
	done chan struct{} // closed when it is rendered
	body [][]byte      // rendered before its turn, in blocks of heldBlock bytes
	out  bool          // the body goes straight to the output
	err  error         // why it could not be rendered (a cost that is no number), or written
}

// maxHeld is how many bytes of reports wait for their turn in memory, all
// reports together: what bounds the memory of `episode` beside the episodes
// in flight (docs/PERFORMANCE.md, "Memory"). Reports of a few thousand
// configs each (megabytes) are rendered side by side within it.
const maxHeld = 8 << 20

// episodeName is what the head of an episode's report needs of it.
type episodeName struct {
	id, name, source, format string // name: episode.Episode.Name
	segment                  int
}

// Report is ep's report, to be rendered and written: reports are to be
// written in the order they are made.
func (ew *EpisodeWriter) Report(ep *episode.Episode) *Report {
	return &Report{ew: ew, name: episodeName{ep.ID, ep.Name(), ep.Source, ep.Format, ep.Segment},
		turn: make(chan struct{}), done: make(chan struct{})}
}

// Render renders e, the report's episode, but its head.
func (r *Report) Render(e *Episode) {
	defer close(r.done)
	var err error
	switch r.ew.format {
	case "table":
		tableBody(r, e, r.ew.Fit)
	case "markdown":
		markdownBody(r, e)
	case "csv":
		err = csvRows(r, e)
	case "json":
		err = jsonBody(r, e)
	}
	if r.err == nil {
		r.err = err
	}
}

// Skip ends the report unrendered: after a failed write, when nothing more
// is written.
func (r *Report) Skip() { close(r.done) }

// Write takes the rendered bytes: held until its turn, within maxHeld.
func (r *Report) Write(p []byte) (int, error) {
	if r.err != nil {
		return 0, r.err
	}
	if !r.out && !r.inTurn() {
		if r.ew.held.Add(int64(len(p))) <= r.ew.limit {
			r.hold(p)
			return len(p), nil
		}
		r.ew.held.Add(-int64(len(p)))
		<-r.turn
	}
	if !r.out {
		r.out = true
		if r.err = r.ew.err; r.err == nil {
			r.err = r.writeHeld()
		}
		if r.err != nil {
			return 0, r.err
		}
	}
	var n int
	n, r.err = r.ew.w.Write(p)
	return n, r.err
}

// Write writes r in its turn: what divides it from the report before, its
// head, then its body once it is rendered. An episode that could not be
// rendered fails it where it fails: what of its body waited for its turn is
// not written. After a failed write it writes nothing, and gives that error.
func (ew *EpisodeWriter) Write(r *Report) error {
	if err := ew.turn(r); err != nil {
		<-r.done
		return err
	}
	return ew.finish(r)
}

// turn writes what comes before r's body, and lets its renderer write.
func (ew *EpisodeWriter) turn(r *Report) error {
	defer close(r.turn)
	if ew.err != nil {
		return ew.err
	}
	var b bytes.Buffer
	ew.head(&b, r.name)
	_, ew.err = ew.w.Write(b.Bytes())
	return ew.err
}

// finish waits for r's body and writes what of it waited for its turn, but
// for a body that could not be rendered.
func (ew *EpisodeWriter) finish(r *Report) error {
	<-r.done
	if ew.err == nil {
		ew.err = r.err
	}
	if ew.err == nil && !r.out {
		ew.err = r.writeHeld()
	}
	r.release()
	return ew.err
}

// heldBlock is the size of the blocks a report waits in: reused from
// blocks, so that a report's bytes are copied once on their way out and
// leave no garbage.
const heldBlock = 64 << 10

var blocks = sync.Pool{New: func() any { b := make([]byte, 0, heldBlock); return &b }}

// inTurn reports whether r's turn has come.
func (r *Report) inTurn() bool {
	select {
	case <-r.turn:
		return true
	default:
		return false
	}
}

// hold appends p to what r holds.
func (r *Report) hold(p []byte) {
	for len(p) > 0 {
		if n := len(r.body); n == 0 || len(r.body[n-1]) == heldBlock {
			r.body = append(r.body, (*blocks.Get().(*[]byte))[:0])
		}
		last := &r.body[len(r.body)-1]
		k := min(len(p), heldBlock-len(*last))
		*last, p = append(*last, p[:k]...), p[k:]
	}
}

// writeHeld writes what r holds, and lets it go.
func (r *Report) writeHeld() error {
	defer r.release()
	for _, b := range r.body {
		if _, err := r.ew.w.Write(b); err != nil {
			return err
		}
	}
	return nil
}

// release lets go of what r holds.
func (r *Report) release() {
	for i, b := range r.body {
		r.ew.held.Add(-int64(len(b)))
		blocks.Put(&b)
		r.body[i] = nil
	}
	r.body = nil
}

// head writes what comes before the body of the next episode: the end of
// the file before, what divides it from the episode before, or begins the
// output, and the lines that name it.
func (ew *EpisodeWriter) head(b *bytes.Buffer, name episodeName) {
	if name.source != ew.file {
		ew.endFile(b)
		ew.file, ew.inFile = name.source, 0
	}
	ew.inFile++
	switch ew.format {
	case "table":
		if ew.n > 0 {
			b.WriteByte('\n')
		}
		tableHead(b, name)
	case "markdown":
		if ew.n > 0 {
			b.WriteByte('\n')
		}
		markdownHead(b, name)
	case "csv":
		if ew.n == 0 {
			csvHeader(b)
		}
	case "json":
		if ew.n == 0 {
			b.WriteString("[\n")
		} else {
			b.WriteString(",\n")
		}
		b.WriteString("  ")
		b.Write(jsonHead(nil, name))
	}
	ew.n++
}

// endFile says, after the episodes of a file of several, how many it holds:
// in tables and markdown (CSV and JSON name the file of every episode).
func (ew *EpisodeWriter) endFile(b *bytes.Buffer) {
	if ew.inFile < 2 {
		return
	}
	switch ew.format {
	case "table":
		fmt.Fprintf(b, "\nend of %s: %s\n", textout.Printable(ew.file), textout.Count(ew.inFile, "episode"))
	case "markdown":
		fmt.Fprintf(b, "\nEnd of %s: %s.\n", textout.CodeSpan(ew.file), textout.Count(ew.inFile, "episode"))
	}
}

// Close ends the output: the end of the last file, what follows the last
// episode, or what the format says of none.
func (ew *EpisodeWriter) Close() error {
	if ew.err != nil {
		return ew.err
	}
	var b bytes.Buffer
	ew.endFile(&b)
	switch {
	case ew.format == "json" && ew.n == 0:
		b.WriteString("[]\n")
	case ew.format == "json":
		b.WriteString("\n]\n")
	case ew.format == "csv" && ew.n == 0:
		csvHeader(&b)
	}
	_, ew.err = ew.w.Write(b.Bytes())
	return ew.err
}
