package report

import (
	"bytes"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/klauspost/compress/s2"

	"github.com/lbanalyze/lbanalyze/episode"
)

// WriteEpisodes renders analysed episodes in format.
func WriteEpisodes(w io.Writer, format string, eps []Episode) error {
	ew, err := NewEpisodeWriter(w, format)
	if err != nil {
		return err
	}
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
	w      io.Writer
	format string
	n      int // episodes written
}

// NewEpisodeWriter writes episodes to w in format, one of Formats.
func NewEpisodeWriter(w io.Writer, format string) (*EpisodeWriter, error) {
	if !slices.Contains(Formats, format) {
		return nil, fmt.Errorf("unknown format %q (known: %s)", format, strings.Join(Formats, ", "))
	}
	return &EpisodeWriter{w: w, format: format}, nil
}

// Rendered is an analysed episode's report, but its head: the lines that
// name it (episode.Episode.Name, "segment 2 of 7") need how many segments its
// file holds, known once the whole file is read, while the rest can be
// rendered, and the episode and its turns let go, as soon as it is analysed.
type Rendered struct {
	name episode.Episode // its ID, Source, Format and Segment
	body held            // with err, what was rendered before it
	err  error           // why it could not be rendered (a cost that is no number)
}

// Render renders e but its head. It may be called from several goroutines
// at once.
func (ew *EpisodeWriter) Render(e *Episode) *Rendered {
	r := &Rendered{name: episode.Episode{ID: e.Ep.ID, Source: e.Ep.Source, Format: e.Ep.Format, Segment: e.Ep.Segment}}
	switch ew.format {
	case "table":
		tableBody(&r.body, e)
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
	ep := r.name
	ep.Segments = segments
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

// Close ends the output: what follows the last episode, or what the format
// says of none.
func (ew *EpisodeWriter) Close() error {
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
// reports, much alike from one result to the next, compress 10 to 50 times
// (a grid's JSON most), so that a long file's reports cost little to hold,
// and no report is ever whole in memory.
type held struct {
	blocks  [][]byte
	buf     []byte // not yet compressed
	scratch []byte // what s2 compresses into
}

const heldBlock = 64 << 10

func (h *held) Write(p []byte) (int, error) {
	n := len(p)
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
	if h.scratch == nil {
		h.scratch = make([]byte, s2.MaxEncodedLen(heldBlock))
	}
	h.blocks = append(h.blocks, bytes.Clone(s2.Encode(h.scratch, h.buf)))
	h.buf = h.buf[:0]
}

// close compresses the rest and lets go of the buffers: h is written only.
func (h *held) close() {
	h.flush()
	h.buf, h.scratch = nil, nil
}

// writeTo writes what h holds to w.
func (h *held) writeTo(w io.Writer) error {
	buf := make([]byte, heldBlock)
	for _, c := range h.blocks {
		b, err := s2.Decode(buf, c)
		if err != nil {
			return err
		}
		if _, err := w.Write(b); err != nil {
			return err
		}
	}
	return nil
}
