package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// realRuns is where the real runs lie, beside the repository: an example
// that reads them is skipped, saying so, when they are absent.
const realRuns = "../shared/real"

// TestREADMEExamples runs every example of the README: a ```console block
// whose first line is "$ lbanalyze ARGS" shows what the command prints. The
// commands run in-process from the repository's root; with -update the
// blocks are rewritten from what they print (read the diff).
func TestREADMEExamples(t *testing.T) {
	readme, err := filepath.Abs("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(readme)
	if err != nil {
		t.Fatal(err)
	}
	t.Chdir("../..")
	const open, fence = "```console\n", "```\n"
	var out strings.Builder
	rest := string(data)
	examples := 0
	for {
		i := strings.Index(rest, open)
		if i < 0 {
			out.WriteString(rest)
			break
		}
		out.WriteString(rest[:i+len(open)])
		rest = rest[i+len(open):]
		j := strings.Index(rest, fence)
		if j < 0 {
			t.Fatal("README: a console block is not closed")
		}
		block := rest[:j]
		rest = rest[j:]
		cmd, want, _ := strings.Cut(block, "\n")
		args, ok := strings.CutPrefix(cmd, "$ lbanalyze ")
		if !ok {
			out.WriteString(block)
			continue
		}
		examples++
		if strings.Contains(args, realRuns) {
			if _, err := os.Stat(realRuns); err != nil {
				t.Logf("README: %s: skipped, the real runs are not here (%v)", cmd, err)
				out.WriteString(block)
				continue
			}
		}
		var stdout, stderr bytes.Buffer
		code := run(strings.Fields(args), strings.NewReader(""), &stdout, &stderr)
		got := stdout.String() + stderr.String()
		if code != 0 {
			t.Errorf("README: %s: exit %d: %s", cmd, code, stderr.String())
		}
		if *update {
			want = got
		} else if got != want {
			t.Errorf("README: the output of %q has changed:\n--- got ---\n%s--- README ---\n%s", cmd, got, want)
		}
		out.WriteString(cmd + "\n" + want)
	}
	if examples == 0 {
		t.Fatal("README: no example found")
	}
	if *update {
		if err := os.WriteFile(readme, []byte(out.String()), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}
