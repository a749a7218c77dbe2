package main

import (
	"bytes"
	"io"
	"unicode/utf8"

	"github.com/lbanalyze/lbanalyze/internal/textout"
)

// outWriter is how every report reaches stdout and every message stderr: it
// keeps the first write error (and writes nothing after it), so that a full
// disk or a closed pipe fails the command instead of passing unnoticed; with
// escape, it shows the control characters of the text (but newlines) as
// visible escapes (textout.Printable), whatever part of a report, or a
// message, they come from: a log's text cannot drive the terminal.
type outWriter struct {
	w       io.Writer
	escape  bool
	err     error
	pending []byte // with escape: an incomplete UTF-8 sequence at the end of the last write
}

func (o *outWriter) Write(p []byte) (int, error) {
	if o.err != nil {
		return 0, o.err
	}
	if !o.escape {
		if _, err := o.w.Write(p); err != nil {
			o.err = err
			return 0, err
		}
		return len(p), nil
	}
	b := append(o.pending, p...)
	o.pending = nil
	if k := incompleteTail(b); k > 0 {
		o.pending = append([]byte(nil), b[len(b)-k:]...)
		b = b[:len(b)-k]
	}
	if err := o.put(b); err != nil {
		return 0, err
	}
	return len(p), nil
}

// put writes b escaped, line by line.
func (o *outWriter) put(b []byte) error {
	var out []byte
	for len(b) > 0 {
		line, rest, nl := bytes.Cut(b, []byte{'\n'})
		out = append(out, textout.Printable(string(line))...)
		if nl {
			out = append(out, '\n')
		}
		b = rest
	}
	if len(out) == 0 {
		return nil
	}
	if _, err := o.w.Write(out); err != nil {
		o.err = err
	}
	return o.err
}

// Flush writes what is held back and says whether any write failed.
func (o *outWriter) Flush() error {
	if o.err == nil && len(o.pending) > 0 {
		p := o.pending
		o.pending = nil
		o.put(p)
	}
	return o.err
}

// incompleteTail is how many bytes at the end of b begin a UTF-8 sequence
// that the next write may complete.
func incompleteTail(b []byte) int {
	for k := 1; k <= utf8.UTFMax-1 && k <= len(b); k++ {
		c := b[len(b)-k]
		if utf8.RuneStart(c) {
			if c >= 0xc0 && !utf8.FullRune(b[len(b)-k:]) {
				return k
			}
			return 0
		}
	}
	return 0
}

// writeOutput writes a report to stdout by write, in format, and fails the
// command when any part of it could not be written. Table and markdown are
// for people, and are escaped here as a whole; CSV escapes its text cells
// itself (textout.CSVText), JSON keeps the log's text exactly (and escapes
// control characters as JSON does).
//
// On a terminal, the table format's prose wraps to its width and its tables
// fit it (e.fit, which then says once what they left out); elsewhere the
// bytes are the same whatever the terminal.
func (e *env) writeOutput(format string, write func(io.Writer) error) error {
	var to io.Writer = e.stdout
	var wrap *lineWrapper
	if e.width > 0 && format == "table" {
		wrap = &lineWrapper{w: e.stdout, width: e.width}
		to = wrap
	}
	w := &outWriter{w: to, escape: format == "table" || format == "markdown"}
	err := write(w)
	if note := e.fit.Note(); err == nil && wrap != nil && note != "" {
		_, err = io.WriteString(w, note+"\n")
	}
	if ferr := w.Flush(); err == nil {
		err = ferr
	}
	if wrap != nil && err == nil {
		err = wrap.Flush()
	}
	if b, ok := e.stdout.(interface{ Flush() error }); ok && err == nil {
		err = b.Flush() // stdout is buffered: its errors show here, named by format
	}
	if err != nil {
		return failure("writing the %s output: %v", format, err)
	}
	return nil
}
