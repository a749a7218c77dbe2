package main

import (
	"os"
	"os/exec"
	"syscall"
	"testing"
)

// Reading a log at the turn cap of distinct texts of source.MaxText bytes
// peaks within 76 MiB of RSS, the test process's 16 MiB included
// (docs/PERFORMANCE.md, "Memory"; 70 measured, where it held every text
// whole: 412 MiB): the reading is run in a process of its own, whose peak the
// kernel tells. What the episode holds once read is 44 MiB of it
// (TestCappedLogOfDistinctTexts).
func TestCappedLogReadPeak(t *testing.T) {
	if os.Getenv("LBANALYZE_MEMORY_CHILD") != "" {
		readCapped(t)
		return
	}
	if testing.Short() {
		t.Skip("reads 200,000 steps of 1 KB")
	}
	cmd := exec.Command(os.Args[0], "-test.run=^TestCappedLogReadPeak$", "-test.count=1")
	cmd.Env = append(os.Environ(), "LBANALYZE_MEMORY_CHILD=1")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("%v: %s", err, out)
	}
	peak := cmd.ProcessState.SysUsage().(*syscall.Rusage).Maxrss >> 10 // KiB to MiB
	t.Logf("peak RSS %d MiB", peak)
	if peak > 76 {
		t.Errorf("reading the log peaked at %d MiB of RSS, want at most 76", peak)
	}
}
