package main

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// localeEnvironments are environments in which a table library might guess
// that ambiguous runes (—, …, ≥, box drawing) are two columns wide: CJK
// locales by each variable, outside a terminal it knows (TERM unset, dumb)
// and inside one, and RUNEWIDTH_EASTASIAN.
var localeEnvironments = [][]string{
	{"LANG=C"},
	{"LANG=ja_JP.UTF-8"},
	{"LC_ALL=ja_JP.UTF-8", "LANG=C"},
	{"LC_CTYPE=zh_CN.UTF-8", "TERM=dumb"},
	{"LANG=ko_KR.UTF-8", "TERM=xterm-256color"},
	{"LANG=C.UTF-8", "RUNEWIDTH_EASTASIAN=1"},
	{"LANG=ja_JP.UTF-8", "RUNEWIDTH_EASTASIAN=1", "TERM=xterm"},
}

// localeCases are every format of episode, batch and sweep, over the fixture
// logs and a copy of one whose rooms and objective are Japanese and emoji.
func localeCases(wide string) [][]string {
	logs := []string{"testdata/logs/premature.jsonl", "testdata/logs/two-episodes.jsonl", "testdata/logs/hostile-text.jsonl",
		"testdata/logs/recorded-v2.jsonl", "testdata/logs/bad-lines.jsonl", wide}
	var cases [][]string
	for _, format := range []string{"table", "markdown", "csv", "json"} {
		cases = append(cases,
			append([]string{"episode", "--format", format}, logs...),
			append([]string{"batch", "--format", format}, logs...),
			append([]string{"sweep", "--format", format, "--max-turns-stuck", "30:50:10", "--check-interval", "5,10"}, logs...))
	}
	return cases
}

// TestOutputIndependentOfLocale runs every case in-process in a copy of the
// test binary started in each environment (a library reads its environment
// when the program starts), and compares the bytes written to stdout and
// stderr: they must be the same everywhere.
func TestOutputIndependentOfLocale(t *testing.T) {
	if dir := os.Getenv("LBANALYZE_LOCALE_OUT"); dir != "" {
		writeLocaleCases(t, dir)
		return
	}
	premature, err := os.ReadFile("testdata/logs/premature.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	wide := filepath.Join(t.TempDir(), "wide.jsonl")
	premature = bytes.ReplaceAll(premature, []byte("West of House"), []byte("西の家 🏠"))
	premature = bytes.ReplaceAll(premature, []byte("Open the window"), []byte("窓を開ける"))
	if err := os.WriteFile(wide, premature, 0o644); err != nil {
		t.Fatal(err)
	}
	var first string
	for i, env := range localeEnvironments {
		dir := t.TempDir()
		cmd := exec.Command(os.Args[0], "-test.run=^TestOutputIndependentOfLocale$", "-test.count=1")
		cmd.Env = append(withoutLocale(os.Environ()), env...)
		cmd.Env = append(cmd.Env, "LBANALYZE_LOCALE_OUT="+dir, "LBANALYZE_LOCALE_WIDE="+wide)
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("%v: %v\n%s", env, err, out)
		}
		if i == 0 {
			first = dir
			continue
		}
		for k, args := range localeCases(wide) {
			for _, stream := range []string{"stdout", "stderr"} {
				name := fmt.Sprintf("%02d.%s", k, stream)
				want, err1 := os.ReadFile(filepath.Join(first, name))
				got, err2 := os.ReadFile(filepath.Join(dir, name))
				if err1 != nil || err2 != nil {
					t.Fatal(err1, err2)
				}
				if !bytes.Equal(got, want) {
					t.Errorf("%v: %s of lbanalyze %s differs from %v's:\n%s\nwant\n%s", env, stream,
						strings.Join(args, " "), localeEnvironments[0], got, want)
				}
			}
		}
	}
}

// writeLocaleCases runs the cases (in the child) and writes what each prints.
func writeLocaleCases(t *testing.T, dir string) {
	for k, args := range localeCases(os.Getenv("LBANALYZE_LOCALE_WIDE")) {
		_, stdout, stderr := runCLI(nil, args...)
		if stdout == "" {
			t.Errorf("lbanalyze %s printed nothing: %s", strings.Join(args, " "), stderr)
		}
		for stream, b := range map[string][]byte{"stdout": []byte(stdout), "stderr": []byte(stderr)} {
			if err := os.WriteFile(filepath.Join(dir, fmt.Sprintf("%02d.%s", k, stream)), b, 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
}

// withoutLocale is env without the variables a width guess may read.
func withoutLocale(env []string) []string {
	return slices.DeleteFunc(slices.Clone(env), func(kv string) bool {
		name, _, _ := strings.Cut(kv, "=")
		return name == "LANG" || name == "LANGUAGE" || strings.HasPrefix(name, "LC_") || strings.HasPrefix(name, "TERM") ||
			name == "RUNEWIDTH_EASTASIAN" || name == "VTE_VERSION" || name == "ALACRITTY_LOG" || name == "WT_PROFILE_ID" || name == "ConEmuANSI"
	})
}
