package main

import (
	"fmt"
	"io"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"runtime/debug"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/lbanalyze/lbanalyze/episode"
	"github.com/lbanalyze/lbanalyze/internal/benchdata"
	"github.com/lbanalyze/lbanalyze/source"
)

// Reading a log at the turn cap of distinct texts of source.MaxText bytes
// peaks within 68 MiB of RSS, the test process's 16 MiB included, with the
// collector's default (docs/PERFORMANCE.md, "Memory"; 64 measured, 70 with
// the first 8 MiB of them whole; holding every text whole would take 354
// MiB): the reading is run in a process of its own, which tells
// its peak as the kernel counts it (VmHWM; the exit's maxrss would count
// the test process it was started from). What the episode holds once read
// is 36 MiB of it (TestCappedLogOfDistinctTexts).
func TestCappedLogReadPeak(t *testing.T) {
	if os.Getenv("LBANALYZE_MEMORY_CHILD") == "" && testing.Short() {
		t.Skip("reads 200,000 steps of 1 KB")
	}
	if kb := peakOf(t, func() { readCapped(t) }); kb>>10 > 68 {
		t.Errorf("reading the log peaked at %d MiB of RSS, want at most 68", kb>>10)
	}
}

// `episode`, `batch` and `sweep` over a log at the turn cap of 200,000 steps, read and
// analysed, peak within 64 MiB of RSS, the test process's 16 MiB included
// (docs/PERFORMANCE.md, "Memory"): numbered steps (60–61 measured, 90 if
// the analysis kept a 64-byte policy.Step a turn of each trace), and steps
// whose every action and response is a distinct text of source.MaxText bytes
// (59–61 measured; 87–94 with the first 8 MiB of distinct texts whole and the
// collector's default of twice the live heap, boundMemory). `sweep` over the
// texts keeps none of them, as no policy of its grid reads them (readForSweep;
// 61–63 measured, 72–73 keeping them).
func TestCappedStepsPeak(t *testing.T) {
	if os.Getenv("LBANALYZE_MEMORY_CHILD") == "" && testing.Short() {
		t.Skip("analyses 200,000 steps")
	}
	cases := []struct {
		name, command, fields string
		write                 func(io.Writer) error
	}{
		{"numbered", "episode", "turn=Step,score=Score", func(w io.Writer) error { return benchdata.Steps(w, source.MaxTurn, true) }},
		{"texts-episode", "episode", benchdata.TextFields, func(w io.Writer) error { return benchdata.DistinctTexts(w, source.MaxTurn, source.MaxText) }},
		{"texts-batch", "batch", benchdata.TextFields, func(w io.Writer) error { return benchdata.DistinctTexts(w, source.MaxTurn, source.MaxText) }},
		{"texts-sweep", "sweep", benchdata.TextFields, func(w io.Writer) error { return benchdata.DistinctTexts(w, source.MaxTurn, source.MaxText) }},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			kb := peakOf(t, func() {
				path := filepath.Join(t.TempDir(), "steps.csv")
				f, err := os.Create(path)
				if err != nil {
					t.Fatal(err)
				}
				if err := c.write(f); err != nil {
					t.Fatal(err)
				}
				f.Close()
				if code, out, errs := runCLI(nil, c.command, "--fields", c.fields, path); code != 0 || !strings.Contains(out, "200000") {
					t.Fatalf("exit %d: %s%s", code, errs, out)
				}
			})
			if kb>>10 > 64 {
				t.Errorf("%s over the log peaked at %d MiB of RSS, want at most 64", c.command, kb>>10)
			}
		})
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
	cmd := exec.Command(os.Args[0], "-test.run=^"+strings.ReplaceAll(t.Name(), "/", "$/^")+"$", "-test.count=1", "-test.v")
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

// The soft memory limit is none until a log of more than 65,536 turns is
// read, then memoryFloor while the live heap is under memoryLive, and lifted
// past it, so that a larger live heap is never collected over and over
// (boundMemory; docs/PERFORMANCE.md, "Memory"). The limit is the process's:
// the test checks it in a process of its own.
func TestMemoryLimitFollowsLiveHeap(t *testing.T) {
	if _, given := os.LookupEnv("GOMEMLIMIT"); given {
		t.Skip("GOMEMLIMIT is set: boundMemory keeps it")
	}
	peakOf(t, func() {
		boundMemory()
		limitAfterGC := func(want int64) {
			t.Helper()
			runtime.GC()
			for range 100 { // the limit is set by a cleanup, after the collection
				if debug.SetMemoryLimit(-1) == want {
					return
				}
				time.Sleep(10 * time.Millisecond)
				runtime.GC()
			}
			t.Fatalf("memory limit %d, want %d", debug.SetMemoryLimit(-1), want)
		}
		limitAfterGC(math.MaxInt64)
		var long source.Turns
		for range 65_537 {
			long.Add(episode.Turn{})
		}
		limitAfterGC(memoryFloor)
		live := make([]byte, memoryLive+(4<<20))
		limitAfterGC(math.MaxInt64)
		runtime.KeepAlive(live)
		limitAfterGC(memoryFloor)
		runtime.KeepAlive(&long)
	})
}
