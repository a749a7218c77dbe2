package main

import (
	"bytes"
	"path/filepath"
	"strings"
	"testing"

	"github.com/lbanalyze/lbanalyze/internal/textout"
)

// On a terminal every line of episode, batch and sweep over the bundled set
// fits its width, stdout's and stderr's: prose wrapped at spaces, tables
// narrowed (and said once); elsewhere (width 0) the bytes are run's, as a
// pipe gets them.
func TestTerminalFits(t *testing.T) {
	paths, _ := filepath.Glob("../../testdata/episodes/2025-*/episode_log.jsonl")
	if len(paths) != 75 {
		t.Fatalf("%d bundled episodes, want 75", len(paths))
	}
	for _, args := range [][]string{
		append([]string{"episode"}, paths...),
		{"batch", "../../testdata/episodes"},
		{"batch", "--summary", "../../testdata/episodes"},
		{"sweep", "../../testdata/episodes"},
		{"sweep", "--all", "--cost-per-call", "0.01", "../../testdata/episodes"},
	} {
		name := strings.Join(args[:min(len(args), 3)], " ")
		var pipedOut, pipedErr bytes.Buffer
		run(args, strings.NewReader(""), &pipedOut, &pipedErr)
		for _, width := range []int{80, 100} {
			var stdout, stderr bytes.Buffer
			if code := runOn(args, strings.NewReader(""), &stdout, &stderr, width, width); code != exitOK {
				t.Fatalf("%s: exit %d: %s", name, code, stderr.String())
			}
			for stream, out := range map[string]string{"stdout": stdout.String(), "stderr": stderr.String()} {
				for line := range strings.Lines(out) {
					if w := textout.TextWidth(strings.TrimSuffix(line, "\n")); w > width {
						t.Errorf("%s at %d columns: a line of %d on %s: %q", name, width, w, stream, line)
					}
				}
			}
			if strings.Count(stdout.String(), "(Tables narrowed to the terminal's") > 1 {
				t.Errorf("%s at %d columns: the narrowing is said more than once", name, width)
			}
		}
		var stdout, stderr bytes.Buffer
		runOn(args, strings.NewReader(""), &stdout, &stderr, 0, 0)
		if stdout.String() != pipedOut.String() || stderr.String() != pipedErr.String() {
			t.Errorf("%s: with no terminal, not the bytes run writes to a pipe", name)
		}
		if strings.Contains(pipedOut.String(), "narrowed") {
			t.Errorf("%s: piped, the output says it is narrowed", name)
		}
	}
}

// A line is wrapped at spaces, its continuation under its text; tables and
// code are left whole; a comment goes on as a comment.
func TestWrapLine(t *testing.T) {
	for _, c := range []struct {
		line  string
		width int
		want  []string
	}{
		{"short line", 20, []string{"short line"}},
		{"note: one two three four five", 20, []string{"note: one two three", "  four five"}},
		{"  in sample   n = 75: rate 9.3%", 30, []string{"  in sample   n = 75: rate", "              9.3%"}},
		{"  in sample   n = 75: rate 9.3%", 20, []string{"  in sample n = 75:", "    rate 9.3%"}}, // the label too wide to hang under
		{"# a comment that goes on", 20, []string{"# a comment that", "#   goes on"}},
		{"│ a │ table row that is long │", 20, []string{"│ a │ table row that is long │"}},
		{"        return (self.step % self.CHECK_INTERVAL == 0", 20, []string{"        return (self.step % self.CHECK_INTERVAL == 0"}},
		{"ID   a/very/long/path/that/cannot/break", 20, []string{"ID", "  a/very/long/path/that/cannot/break"}},
		{"a  b", 20, []string{"a  b"}},
	} {
		got := wrapLine(c.line, c.width)
		if strings.Join(got, "\n") != strings.Join(c.want, "\n") {
			t.Errorf("%q:\n%q\nwant\n%q", c.line, got, c.want)
		}
	}
}
