package main

import (
	"bytes"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/klauspost/compress/gzip"
	"github.com/klauspost/compress/zstd"
)

func runOK(t *testing.T, stdin []byte, args ...string) string {
	t.Helper()
	code, stdout, stderr := runCLI(stdin, args...)
	if code != 0 {
		t.Fatalf("%v: exit %d: %s", args, code, stderr)
	}
	return stdout
}

// The same log plain, gzip, zstd (whatever the file is called) and on stdin
// gives the same report.
func TestCompressedAndStdin(t *testing.T) {
	plain, err := os.ReadFile("testdata/logs/recorded-v2.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	var gz, zs bytes.Buffer
	gw := gzip.NewWriter(&gz)
	gw.Write(plain)
	gw.Close()
	zw, _ := zstd.NewWriter(&zs)
	zw.Write(plain)
	zw.Close()
	files := map[string][]byte{"a.jsonl": plain, "b.jsonl.gz": gz.Bytes(), "c.jsonl.zst": zs.Bytes(), "d.log": gz.Bytes()}
	want := ""
	for name, data := range files {
		path := filepath.Join(dir, name)
		os.WriteFile(path, data, 0o644)
		got := strings.ReplaceAll(runOK(t, nil, "episode", "--format", "json", path), path, "SOURCE")
		if want == "" {
			want = got
		}
		if got != want {
			t.Errorf("%s gives another report:\n%s", name, got)
		}
	}
	if got := strings.ReplaceAll(runOK(t, zs.Bytes(), "episode", "--format", "json", "-"), `"source": "-"`, `"source": "SOURCE"`); got != want {
		t.Errorf("stdin gives another report:\n%s", got)
	}
}

// batch gives the same bytes whatever the number of workers, the number of
// cores and the order of its arguments.
func TestBatchDeterministic(t *testing.T) {
	dir := t.TempDir()
	logs, _ := filepath.Glob("testdata/logs/*.jsonl")
	var dirs []string
	for i, l := range logs {
		data, _ := os.ReadFile(l)
		d := filepath.Join(dir, strings.TrimSuffix(filepath.Base(l), ".jsonl"))
		os.MkdirAll(d, 0o755)
		os.WriteFile(filepath.Join(d, "episode_log.jsonl"), data, 0o644)
		// A second copy under another name: the same episode ids from two sources.
		if i%2 == 0 {
			os.WriteFile(filepath.Join(d, "copy.jsonl"), data, 0o644)
		}
		dirs = append(dirs, d)
	}
	reversed := make([]string, len(dirs))
	for i, d := range dirs {
		reversed[len(dirs)-1-i] = d
	}
	for _, format := range []string{"json", "table"} {
		want := runOK(t, nil, append([]string{"batch", "--format", format, "--jobs", "1"}, dirs...)...)
		prev := runtime.GOMAXPROCS(8)
		got := runOK(t, nil, append([]string{"batch", "--format", format, "--jobs", "8"}, reversed...)...)
		runtime.GOMAXPROCS(prev)
		if got != want {
			t.Errorf("%s: --jobs 8 on reversed arguments differs from --jobs 1", format)
		}
		// A directory given twice, and a file inside it given again, are read once.
		twice := append(append([]string{"batch", "--format", format}, dirs...), dirs[0], filepath.Join(dirs[0], "episode_log.jsonl"))
		if got := runOK(t, nil, twice...); got != want {
			t.Errorf("%s: repeated arguments change the result", format)
		}
	}
}

// A directory given through a symbolic link is searched like the directory.
func TestBatchSymlinkedDirectory(t *testing.T) {
	dir := t.TempDir()
	data, err := os.ReadFile("testdata/logs/premature.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	real := filepath.Join(dir, "real", "2025-11-12T10-00-00")
	os.MkdirAll(real, 0o755)
	os.WriteFile(filepath.Join(real, "episode_log.jsonl"), data, 0o644)
	link := filepath.Join(dir, "link")
	if err := os.Symlink(filepath.Join(dir, "real"), link); err != nil {
		t.Skip(err)
	}
	viaLink := runOK(t, nil, "batch", "--format", "csv", link)
	direct := runOK(t, nil, "batch", "--format", "csv", filepath.Join(dir, "real"))
	if strings.Count(viaLink, "\n") != 2 || strings.ReplaceAll(viaLink, link+"/", dir+"/real/") != direct {
		t.Errorf("through the link:\n%s\ndirectly:\n%s", viaLink, direct)
	}
}
