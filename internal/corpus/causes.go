package corpus

import (
	"fmt"
	"strings"
)

// maxSameFiles is how many files a message of one cause is told for word for
// word: past them, its files are counted and said in one line at the end, so
// that one mistake over many files (a field map's, a run's layout) is not a
// line a file.
const maxSameFiles = 3

// causes are the causes of the messages about files, each a message without
// its file and line, in the order they were first met.
type causes struct {
	order []string
	by    map[string]*cause
	lines int // lines skipped in the files whose messages were all held
}

// cause is the files of one cause: the first told, the rest counted.
type cause struct {
	files int    // the files met with it
	last  string // the file met last
	held  int    // its messages held back, of its files past maxSameFiles
	first string // the first file held
}

// tell says whether message m about the file at path is told now: false
// when its cause has been told for maxSameFiles other files.
func (cs *causes) tell(path, m string) bool {
	key, ok := causeOf(path, m)
	if !ok {
		return true
	}
	if cs.by == nil {
		cs.by = map[string]*cause{}
	}
	c := cs.by[key]
	if c == nil {
		c = &cause{}
		cs.by[key] = c
		cs.order = append(cs.order, key)
	}
	if c.last != path {
		c.last = path
		c.files++
		if c.files == maxSameFiles+1 {
			c.first = path
		}
	}
	if c.files <= maxSameFiles {
		return true
	}
	c.held++
	return false
}

// held are the lines that say what was held back: one a cause, with its
// count and the first file held.
func (cs *causes) held() []string {
	var out []string
	for _, key := range cs.order {
		c := cs.by[key]
		if c.held == 0 {
			continue
		}
		heldFiles := c.files - maxSameFiles
		what := plural(heldFiles, "more file")
		if c.held > heldFiles {
			what += fmt.Sprintf(" (%s)", plural(c.held, "time"))
		}
		out = append(out, fmt.Sprintf("the same in %s, %s first: %s", what, c.first, key))
	}
	if cs.lines > 0 {
		out = append(out, fmt.Sprintf("%s skipped in those files in all; the rest of each was analysed", plural(cs.lines, "line")))
	}
	return out
}

// causeOf is message m without the file at path it begins with, and the
// line after it: false when m does not begin with it.
func causeOf(path, m string) (string, bool) {
	rest, ok := strings.CutPrefix(m, path)
	if !ok {
		return "", false
	}
	if after, ok := strings.CutPrefix(rest, ":"); ok && len(after) > 0 && after[0] >= '0' && after[0] <= '9' {
		rest = strings.TrimLeft(after, "0123456789")
	}
	return strings.CutPrefix(rest, ": ")
}
