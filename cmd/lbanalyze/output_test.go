package main

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
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

// TestOutputPathsChecked: --plot, --plots and --html that could not be
// written fail at once (exit 1), before any log is read: a read-only
// directory (skipped for root, whom permissions do not stop; the CLI cases
// use /sys for that).
func TestOutputPathsChecked(t *testing.T) {
	if os.Geteuid() == 0 {
		t.Skip("root writes into read-only directories")
	}
	ro := t.TempDir()
	if err := os.Chmod(ro, 0o555); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.Chmod(ro, 0o755) })
	for _, args := range [][]string{
		{"episode", "--plot", filepath.Join(ro, "t.png"), "testdata/logs/premature.jsonl"},
		{"batch", "--plots", filepath.Join(ro, "plots"), "testdata/logs"},
		{"batch", "--html", filepath.Join(ro, "r.html"), "testdata/logs"},
	} {
		var stdout, stderr bytes.Buffer
		code := run(args, strings.NewReader(""), &stdout, &stderr)
		if code != exitFailure || stdout.Len() > 0 || !strings.Contains(stderr.String(), "cannot write into the directory") {
			t.Errorf("%q: exit %d, stdout %d bytes, stderr %q", args, code, stdout.Len(), stderr.String())
		}
	}
}
