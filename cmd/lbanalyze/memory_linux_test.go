package main

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/lbanalyze/lbanalyze/internal/benchdata"
	"github.com/lbanalyze/lbanalyze/source"
)

// Reading a log at the turn cap of distinct texts of source.MaxText bytes
// peaks within 76 MiB of RSS, the test process's 16 MiB included
// (docs/PERFORMANCE.md, "Memory"; 70 measured; holding every text whole
// would take 354 MiB): the reading is run in a process of its own, which tells
// its peak as the kernel counts it (VmHWM; the exit's maxrss would count
// the test process it was started from). What the episode holds once read
// is 43 MiB of it (TestCappedLogOfDistinctTexts).
func TestCappedLogReadPeak(t *testing.T) {
	if os.Getenv("LBANALYZE_MEMORY_CHILD") == "" && testing.Short() {
		t.Skip("reads 200,000 steps of 1 KB")
	}
	if kb := peakOf(t, func() { readCapped(t) }); kb>>10 > 76 {
		t.Errorf("reading the log peaked at %d MiB of RSS, want at most 76", kb>>10)
	}
}

// `episode` over a log of 200,000 numbered steps, the turn cap, read and
// analysed, peaks within 64 MiB of RSS, the test process's 16 MiB included
// (docs/PERFORMANCE.md, "Memory"; 60–61 measured, 90 if the analysis kept
// a 64-byte policy.Step a turn of each trace).
func TestCappedStepsPeak(t *testing.T) {
	if os.Getenv("LBANALYZE_MEMORY_CHILD") == "" && testing.Short() {
		t.Skip("analyses 200,000 steps")
	}
	kb := peakOf(t, func() {
		path := filepath.Join(t.TempDir(), "steps.csv")
		f, err := os.Create(path)
		if err != nil {
			t.Fatal(err)
		}
		if err := benchdata.Steps(f, source.MaxTurn, true); err != nil {
			t.Fatal(err)
		}
		f.Close()
		if code, out, errs := runCLI(nil, "episode", "--fields", "turn=Step,score=Score", path); code != 0 || !strings.Contains(out, "200000") {
			t.Fatalf("exit %d: %s%s", code, errs, out)
		}
	})
	if kb>>10 > 64 {
		t.Errorf("episode over the log peaked at %d MiB of RSS, want at most 64", kb>>10)
	}
}

// peakOf runs child in a process of its own (this test again) and returns
// its peak RSS in kB as the kernel counts it (VmHWM).
func peakOf(t *testing.T, child func()) int {
	t.Helper()
	if os.Getenv("LBANALYZE_MEMORY_CHILD") != "" {
		child()
		status, err := os.ReadFile("/proc/self/status")
		if err != nil {
			t.Fatal(err)
		}
		fmt.Printf("peak %s\n", regexp.MustCompile(`VmHWM:\s*(\d+) kB`).FindSubmatch(status)[1])
		t.SkipNow()
	}
	cmd := exec.Command(os.Args[0], "-test.run=^"+t.Name()+"$", "-test.count=1", "-test.v")
	cmd.Env = append(os.Environ(), "LBANALYZE_MEMORY_CHILD=1")
	out, err := cmd.CombinedOutput()
	m := regexp.MustCompile(`peak (\d+)`).FindSubmatch(out)
	if err != nil || m == nil {
		t.Fatalf("%v: %s", err, out)
	}
	kb, _ := strconv.Atoi(string(m[1]))
	t.Logf("peak RSS %d MiB", kb>>10)
	return kb
}
