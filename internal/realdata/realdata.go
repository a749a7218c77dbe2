// Package realdata finds the project's real runs for tests: ../shared/real
// from the repository root (docs/sources.md, "Testing on real runs").
package realdata

import (
	"os"
	"path/filepath"
	"testing"
)

// Dir is the directory sub of the real runs; the test skips, saying so, when
// it is absent.
func Dir(tb testing.TB, sub string) string {
	tb.Helper()
	dir, err := os.Getwd()
	if err != nil {
		tb.Fatal(err)
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			break
		}
		if filepath.Dir(dir) == dir {
			tb.Fatal("no go.mod above the test")
		}
		dir = filepath.Dir(dir)
	}
	real := filepath.Join(dir, "..", "shared", "real", sub)
	if _, err := os.Stat(real); err != nil {
		tb.Skipf("the real runs are not here (%v): skipped", err)
	}
	return real
}
