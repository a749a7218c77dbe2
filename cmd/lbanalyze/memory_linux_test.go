package main

import (
	"fmt"
	"os"
	"os/exec"
	"regexp"
	"strconv"
	"testing"
)

// Reading a log at the turn cap of distinct texts of source.MaxText bytes
// peaks within 76 MiB of RSS, the test process's 16 MiB included
// (docs/PERFORMANCE.md, "Memory"; 70 measured, where it held every text
// whole: 354 MiB): the reading is run in a process of its own, which tells
// its peak as the kernel counts it (VmHWM; the exit's maxrss would count
// the test process it was started from). What the episode holds once read
// is 43 MiB of it (TestCappedLogOfDistinctTexts).
func TestCappedLogReadPeak(t *testing.T) {
	if os.Getenv("LBANALYZE_MEMORY_CHILD") != "" {
		readCapped(t)
		status, err := os.ReadFile("/proc/self/status")
		if err != nil {
			t.Fatal(err)
		}
		fmt.Printf("peak %s\n", regexp.MustCompile(`VmHWM:\s*(\d+) kB`).FindSubmatch(status)[1])
		return
	}
	if testing.Short() {
		t.Skip("reads 200,000 steps of 1 KB")
	}
	cmd := exec.Command(os.Args[0], "-test.run=^TestCappedLogReadPeak$", "-test.count=1")
	cmd.Env = append(os.Environ(), "LBANALYZE_MEMORY_CHILD=1")
	out, err := cmd.CombinedOutput()
	m := regexp.MustCompile(`peak (\d+)`).FindSubmatch(out)
	if err != nil || m == nil {
		t.Fatalf("%v: %s", err, out)
	}
	kb, _ := strconv.Atoi(string(m[1]))
	t.Logf("peak RSS %d MiB", kb>>10)
	if kb>>10 > 76 {
		t.Errorf("reading the log peaked at %d MiB of RSS, want at most 76", kb>>10)
	}
}
