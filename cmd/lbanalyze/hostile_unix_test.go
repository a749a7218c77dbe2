//go:build unix

package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/lbanalyze/lbanalyze/internal/benchdata"
)

// A FIFO as the configuration file is refused at once: opening it would wait
// for a writer that never comes.
func TestConfigFIFO(t *testing.T) {
	fifo := filepath.Join(t.TempDir(), "pyproject.toml")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skip(err)
	}
	type result struct {
		code   int
		stderr string
	}
	done := make(chan result, 1)
	go func() {
		code, _, stderr := runCLI(nil, "episode", "--config", fifo, "testdata/logs/premature.jsonl")
		done <- result{code, stderr}
	}()
	select {
	case r := <-done:
		want := "lbanalyze: --config: FIFO: not a regular file (a FIFO): give the pyproject.toml itself\n" + usageHint
		if got := strings.ReplaceAll(r.stderr, fifo, "FIFO"); r.code != 2 || got != want {
			t.Errorf("exit %d, stderr %q", r.code, got)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("still waiting on the FIFO after 10 s")
	}
}

// Item 8 of issue 27: a FIFO named as the fields file, or as a Burr
// application's metadata.json, hangs nothing: the fields file is refused at
// once; the application is read by its log, the metadata said not read.
func TestSideFilesFIFO(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "fields.toml")
	app := filepath.Join(dir, "burr", "app")
	if err := os.MkdirAll(app, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skip(err)
	}
	if err := syscall.Mkfifo(filepath.Join(app, "metadata.json"), 0o600); err != nil {
		t.Fatal(err)
	}
	var log bytes.Buffer
	if err := benchdata.BurrLog(&log, 30); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(app, "log.jsonl"), log.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		args   []string
		code   int
		stderr string
	}{
		{[]string{"episode", "--fields-file", fifo, "testdata/logs/premature.jsonl"}, 2,
			"lbanalyze: --fields-file: " + fifo + ": not a regular file (a FIFO): give the fields file itself\n" + usageHint},
		{[]string{"batch", "--format", "csv", filepath.Join(dir, "burr")}, 0,
			"lbanalyze: " + app + ": metadata.json is not a regular file (a FIFO): not read\n"},
	} {
		type result struct {
			code   int
			stderr string
		}
		done := make(chan result, 1)
		go func() {
			code, _, stderr := runCLI(nil, c.args...)
			done <- result{code, stderr}
		}()
		select {
		case r := <-done:
			if r.code != c.code || r.stderr != c.stderr {
				t.Errorf("%v: exit %d, stderr %q; want %d, %q", c.args, r.code, r.stderr, c.code, c.stderr)
			}
		case <-time.After(10 * time.Second):
			t.Fatalf("%v: still waiting on the FIFO after 10 s", c.args)
		}
	}
}
