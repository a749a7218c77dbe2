package main

import (
	"bytes"
	"io"
	"regexp"
	"strings"

	"github.com/lbanalyze/lbanalyze/internal/textout"
)

// lineWrapper wraps what is written through it, line by line, to fit a
// terminal of width columns: at spaces, a line's continuation indented
// under its text. Tables (drawn to fit already: textout.Fit) and lines
// indented by four spaces or more (code to paste: a harness's Python, a
// TOML block) are left whole; a comment's continuation stays a comment.
type lineWrapper struct {
	w     io.Writer
	width int
	line  []byte // a line not ended yet
}

func (l *lineWrapper) Write(p []byte) (int, error) {
	n := len(p)
	for {
		i := bytes.IndexByte(p, '\n')
		if i < 0 {
			l.line = append(l.line, p...)
			return n, nil
		}
		l.line = append(l.line, p[:i]...)
		p = p[i+1:]
		if err := l.emit(true); err != nil {
			return 0, err
		}
	}
}

// Flush writes a last line that has no newline.
func (l *lineWrapper) Flush() error {
	if len(l.line) == 0 {
		return nil
	}
	return l.emit(false)
}

func (l *lineWrapper) emit(newline bool) error {
	out := strings.Join(wrapLine(string(l.line), l.width), "\n")
	l.line = l.line[:0]
	if newline {
		out += "\n"
	}
	_, err := io.WriteString(l.w, out)
	return err
}

// labelled finds a line of a label and its text, two spaces or more apart
// ("  in sample   n = 75: …"): its text's column.
var labelled = regexp.MustCompile(`^ *\S+(?: \S+)*  +`)

// wrapLine cuts line into lines of at most width columns at spaces. A
// continuation is indented under the text of a labelled line, else two
// columns in; a word wider than the room left is a line of its own.
func wrapLine(line string, width int) []string {
	trimmed := strings.TrimLeft(line, " ")
	indent := len(line) - len(trimmed)
	switch {
	case textout.TextWidth(line) <= width || indent >= 4 || strings.ContainsAny(line[:min(len(line), 3)], "┌│├└"):
		return []string{line}
	}
	head, hang := line[:indent], strings.Repeat(" ", indent+2)
	if strings.HasPrefix(trimmed, "#") {
		hang = head + "#   "
	} else if m := labelled.FindString(line); m != "" && textout.TextWidth(m) <= width/2 {
		head, hang = m, strings.Repeat(" ", textout.TextWidth(m))
	}
	var out []string
	cur := head
	fresh := true // cur holds no word yet
	for w := range strings.FieldsSeq(line[len(head):]) {
		sep := " "
		if fresh {
			sep = ""
		}
		if textout.TextWidth(cur)+len(sep)+textout.TextWidth(w) <= width {
			cur += sep + w
			fresh = false
			continue
		}
		if strings.TrimSpace(cur) != "" {
			out = append(out, strings.TrimRight(cur, " "))
		}
		cur = hang + w
		if textout.TextWidth(cur) > width { // too wide even there: as far left as a continuation goes
			cur = "  " + w
		}
		fresh = false
	}
	return append(out, cur)
}
