//go:build unix

package main

import (
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
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
