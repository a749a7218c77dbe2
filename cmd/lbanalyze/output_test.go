package main

import (
	"bytes"
	"errors"
	"strings"
	"testing"
)

// failingWriter accepts limit bytes, then fails every write, as a full disk
// (/dev/full) or a closed pipe does.
type failingWriter struct {
	limit, n int
}

var errDiskFull = errors.New("no space left on device")

func (w *failingWriter) Write(p []byte) (int, error) {
	if w.n+len(p) > w.limit {
		return 0, errDiskFull
	}
	w.n += len(p)
	return len(p), nil
}

// TestWriteErrors: every format of every command fails, exit 1 with a
// message, when its output cannot be written, at once or part-way.
func TestWriteErrors(t *testing.T) {
	commands := map[string][]string{
		"episode": {"episode", "testdata/logs/premature.jsonl"},
		"batch":   {"batch", "../../testdata/episodes"},
		"sweep":   {"sweep", "--policy", "score", "--max-turns-stuck", "30:50:10", "--check-interval", "10", "--folds", "0", "testdata/logs/premature.jsonl"},
	}
	for name, args := range commands {
		for _, format := range []string{"table", "markdown", "csv", "json"} {
			for _, limit := range []int{0, 100} {
				var stderr bytes.Buffer
				w := &failingWriter{limit: limit}
				code := run(append(append([]string{}, args...), "--format", format), strings.NewReader(""), w, &stderr)
				if code != exitFailure {
					t.Errorf("%s --format %s, write fails after %d bytes: exit %d, want %d (stderr %q)", name, format, limit, code, exitFailure, stderr.String())
				}
				if want := "lbanalyze: writing the " + format + " output: no space left on device\n"; !strings.HasSuffix(stderr.String(), want) {
					t.Errorf("%s --format %s: stderr %q, want it to end in %q", name, format, stderr.String(), want)
				}
			}
		}
	}
}

// TestOutWriterEscapes: control characters are escaped even when a write
// splits a character's bytes; newlines are kept.
func TestOutWriterEscapes(t *testing.T) {
	var b bytes.Buffer
	w := &outWriter{w: &b, escape: true}
	s := "a\x1b[1m\n\u009b é\r\n"
	for i := 0; i < len(s); i++ {
		w.Write([]byte{s[i]})
	}
	if err := w.Flush(); err != nil {
		t.Fatal(err)
	}
	if want := "a\\x1b[1m\n\\u009b é\\r\n"; b.String() != want {
		t.Errorf("got %q, want %q", b.String(), want)
	}
}
