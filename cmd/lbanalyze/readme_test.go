package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// TestREADMEExamples runs every example of the README. A ```console block
// whose first line is "$ lbanalyze ARGS" shows all the command prints; a
// plain ``` block that opens the same way shows an excerpt: each of its lines
// is a line the command prints, in order. The commands run in-process from
// the repository's root; with -update the blocks are rewritten from what they
// print (an excerpt's lines matched by their first table cell and cell count,
// else their first words) — read the diff. An example of the real runs
// (../shared/real) is skipped, saying so, when they are absent.
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
	var out strings.Builder
	rest := string(data)
	examples := 0
	for {
		i, open := nextBlock(rest)
		if i < 0 {
			out.WriteString(rest)
			break
		}
		out.WriteString(rest[:i+len(open)])
		rest = rest[i+len(open):]
		j := strings.Index(rest, "```\n")
		if j < 0 {
			t.Fatal("README: a code block is not closed")
		}
		block := rest[:j+len("```\n")]
		rest = rest[len(block):]
		cmd, want, _ := strings.Cut(strings.TrimSuffix(block, "```\n"), "\n")
		args, ok := strings.CutPrefix(cmd, "$ lbanalyze ")
		if !ok {
			out.WriteString(block)
			continue
		}
		if strings.Contains(args, "../shared/real") {
			if _, err := os.Stat("../shared/real"); err != nil {
				t.Logf("README: %s: skipped, the real runs are not here (%v)", cmd, err)
				out.WriteString(block)
				continue
			}
		}
		examples++
		var stdout, stderr bytes.Buffer
		code := run(strings.Fields(args), strings.NewReader(""), &stdout, &stderr)
		got := stdout.String() + stderr.String()
		if code != 0 {
			t.Errorf("README: %s: exit %d: %s", cmd, code, stderr.String())
		}
		switch {
		case open == "```\n":
			lines, err := excerpt(want, got, *update)
			if err != "" {
				t.Errorf("README: the output of %q has changed: %s\n--- got ---\n%s", cmd, err, got)
			}
			want = lines
		case *update:
			want = got
		case got != want:
			t.Errorf("README: the output of %q has changed:\n--- got ---\n%s--- README ---\n%s", cmd, got, want)
		}
		out.WriteString(cmd + "\n" + want + "```\n")
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

// nextBlock finds the next code block that may hold an example: ```console
// or a plain ```, opening a line.
func nextBlock(s string) (int, string) {
	for from := 0; ; {
		i := strings.Index(s[from:], "```")
		if i < 0 {
			return -1, ""
		}
		i += from
		if i == 0 || s[i-1] == '\n' {
			for _, open := range []string{"```console\n", "```\n"} {
				if strings.HasPrefix(s[i:], open) {
					return i, open
				}
			}
		}
		// Another language, or a closing fence: go past its block.
		end := strings.Index(s[i+3:], "\n```")
		if end < 0 {
			return -1, ""
		}
		from = i + 3 + end + 4
	}
}

// excerpt checks that each line of want is a line of got, in order; with
// update it gives each the line of got it stands for instead (the next with
// its key), and an error only for a line it cannot place.
func excerpt(want, got string, update bool) (string, string) {
	gotLines := strings.Split(strings.TrimSuffix(got, "\n"), "\n")
	var out []string
	k := 0
	for line := range strings.Lines(want) {
		line = strings.TrimSuffix(line, "\n")
		found := -1
		for i := k; i < len(gotLines); i++ {
			if gotLines[i] == line || update && excerptKey(gotLines[i]) == excerptKey(line) {
				found = i
				break
			}
		}
		if found < 0 {
			return want, "no line " + strconv.Quote(line) + " after the lines before it"
		}
		out = append(out, gotLines[found])
		k = found + 1
	}
	return strings.Join(out, "\n") + "\n", ""
}

// excerptKey names a line for -update: a table row by its first cell and
// its number of cells, another line by its first three words.
func excerptKey(line string) string {
	if cells := strings.Split(line, "│"); len(cells) > 2 {
		return strings.TrimSpace(cells[1]) + "/" + strconv.Itoa(len(cells))
	}
	words := strings.Fields(line)
	return strings.Join(words[:min(3, len(words))], " ")
}
