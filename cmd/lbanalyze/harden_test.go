package main

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// The fourth hardening round (issue 38), each case run as a user would: the
// exit code, the message, and the good run's numbers.

// writeFile writes content to name in a directory of its own.
func writeFile(t *testing.T, name, content string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), name)
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// allocatedBy is what f allocates on the heap, in bytes.
func allocatedBy(f func()) uint64 {
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	before := m.TotalAlloc
	f()
	runtime.ReadMemStats(&m)
	return m.TotalAlloc - before
}

// Item 1: a header whose last name opens a quote that closes on line 2, then
// 4 million commas, is refused by name, without holding a cell of them (it
// was held cell by cell: 2 GB of RSS for 16 million); beside it a good table
// is read, 3 steps scoring 0, 1, 1.
func TestHeaderQuotedAcrossANewline(t *testing.T) {
	bad := writeFile(t, "b.csv", "Step,Score,\"X\n\""+strings.Repeat(",", 4<<20)+"\n0,1\n")
	good := filepath.Join(filepath.Dir(bad), "good.csv")
	if err := os.WriteFile(good, []byte("Step,Score\n0,0\n1,1\n2,1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	var code int
	var rows []outcome
	var stderr string
	alloc := allocatedBy(func() { code, rows, stderr = outcomes(t, "--fields", "turn=Step,score=Score", bad, good) })
	want := "lbanalyze: " + bad + `: its header's last name, "\"X", opens a quote that its line does not close: a header quoted across a newline is not read (the header is the first line, its names each on it)` + "\n"
	if code != 0 || !strings.Contains(stderr, want) {
		t.Errorf("exit %d, stderr:\n%s\nwant exit 0 and:\n%s", code, stderr, want)
	}
	if len(rows) != 2 || rows[0].id != "good" || rows[0].turns != 3 || rows[0].final != 1 {
		t.Errorf("rows %+v, want good's 3 turns to a score of 1, under each of the two policies", rows)
	}
	if alloc > 32<<20 {
		t.Errorf("%d MiB allocated reading a 4 MiB header", alloc>>20)
	}
}

// Item 2: a log of 3 million rows that numbers no step stops at 200,000
// turns, as a numbered one does, said in one line with the count of rows
// past the bound (it took 1.2 GB).
func TestUnnumberedStepsCapped(t *testing.T) {
	if testing.Short() {
		t.Skip("reads 3 million rows")
	}
	var b strings.Builder
	b.WriteString("Step,Score\n")
	for range 3_000_000 {
		b.WriteString("0,1\n")
	}
	log := writeFile(t, "long.csv", b.String())
	code, rows, stderr := outcomes(t, "--fields", "score=Score", log)
	want := fmt.Sprintf("lbanalyze: %s:200002: step 200001 is out of range 1..200000: skipped, as is every step after it\n", log)
	if code != 0 || !strings.HasPrefix(stderr, want) || !strings.Contains(stderr, "2800000 lines skipped") {
		t.Errorf("exit %d, stderr:\n%s\nwant exit 0 and, first:\n%s", code, stderr, want)
	}
	if len(rows) != 2 || rows[0].turns != 200_000 || rows[0].final != 1 || rows[0].skipped != 2_800_000 {
		t.Errorf("rows %+v, want 200,000 turns to a score of 1, 2,800,000 skipped, under each of the two policies", rows)
	}
}
