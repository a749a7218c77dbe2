// Package realdata finds the real runs some tests read, of other projects:
// in ../shared/real and ../shared/external beside the repository, never in
// it, and the tests skip, saying so, when they are not there (docs/sources.md, "Testing on real runs").
package realdata

import (
	"bytes"
	"compress/gzip"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// root is the repository's root: the directory of go.mod above the test.
func root(tb testing.TB) string {
	tb.Helper()
	dir, err := os.Getwd()
	if err != nil {
		tb.Fatal(err)
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir
		}
		if filepath.Dir(dir) == dir {
			tb.Fatal("no go.mod above the test")
		}
		dir = filepath.Dir(dir)
	}
}

// Dir is the directory sub of the real runs beside the repository
// (../shared/real); the test skips, saying so, when it is absent.
func Dir(tb testing.TB, sub string) string {
	tb.Helper()
	return beside(tb, "real", sub)
}

// External is the directory sub of the runs of other projects beside the
// repository (../shared/external, evaluation only: never copied into it);
// the test skips, saying so, when it is absent.
func External(tb testing.TB, sub string) string {
	tb.Helper()
	return beside(tb, "external", sub)
}

// beside is the directory shared/kind/sub beside the repository, or beside
// the directory of worktrees it is checked out in; the test skips, saying
// so, when it is in neither.
func beside(tb testing.TB, kind, sub string) string {
	tb.Helper()
	for _, up := range []string{"..", filepath.Join("..", "..")} {
		dir := filepath.Join(root(tb), up, "shared", kind, sub)
		if _, err := os.Stat(dir); err == nil {
			return dir
		}
	}
	tb.Skipf("the %s runs (shared/%s/%s) are not here: skipped", kind, kind, sub)
	return ""
}

// Read is the content of a real run's file, unzipped when its name ends in
// .gz.
func Read(tb testing.TB, path string) []byte {
	tb.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		tb.Fatal(err)
	}
	if !strings.HasSuffix(path, ".gz") {
		return data
	}
	zr, err := gzip.NewReader(bytes.NewReader(data))
	if err == nil {
		data, err = io.ReadAll(zr)
	}
	if err != nil {
		tb.Fatalf("%s: %v", path, err)
	}
	return data
}
