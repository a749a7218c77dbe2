// Package tomlfile reads the small TOML files the tool is given beside its
// inputs (a pyproject.toml for --config, a fields file): a regular file of a
// bounded size, nested no deeper than MaxDepth, decoded by BurntSushi/toml,
// every error naming the file.
package tomlfile

import (
	"errors"
	"fmt"

	"github.com/BurntSushi/toml"

	"github.com/lbanalyze/lbanalyze/internal/filekind"
)

// MaxDepth bounds how deeply a key or value nests, checked before the parser
// sees the file: the parts of its table's header and its dotted key, and the
// arrays and inline tables around it. A pyproject.toml nests tables five or
// six deep ([tool.poetry.group.dev.dependencies], then an inline table). The
// parser recurses once per level of arrays and inline tables, and holds every
// key's whole path, so that what a file costs grows with its size times its
// depth: a 1 MiB file of keys eight parts long takes 230 MB, a 128 KiB file of
// keys or inline tables 16 deep takes 55-62 MB (peak RSS, the run included).
const MaxDepth = 16

// File is a kind of TOML file the tool reads.
type File struct {
	Max  int64  // its largest size: a larger file is not read
	Name string // how a message asks for it: "the pyproject.toml"
	Kind string // what a file too large is not: "pyproject.toml", "field map"
}

// Read reads a file of kind f at path: a regular file of f.Max bytes at
// most. A FIFO would block, and /dev/zero never end.
func (f File) Read(path string) ([]byte, error) {
	data, err := filekind.ReadSmall(path, f.Max)
	var nr *filekind.NotRegular
	var tl *filekind.TooLarge
	switch {
	case errors.As(err, &nr):
		return nil, fmt.Errorf("%v: give %s itself", err, f.Name)
	case errors.As(err, &tl):
		return nil, fmt.Errorf("%v, which no %s is: not read", err, f.Kind)
	}
	return data, err
}

// Decode decodes data, read from path, into a document of tables, and gives
// its keys in the file's order; data nested deeper than MaxDepth is not
// decoded.
func Decode(path string, data []byte) (map[string]any, toml.MetaData, error) {
	var doc map[string]any
	if line := tooDeep(data, MaxDepth); line > 0 {
		return doc, toml.MetaData{}, fmt.Errorf("%s:%d: nested more than %d deep (tables, dotted keys, arrays and inline tables): not read", path, line, MaxDepth)
	}
	md, err := toml.Decode(string(data), &doc)
	if err != nil {
		return doc, md, fmt.Errorf("%s: %w", path, err)
	}
	return doc, md, nil
}

// tooDeep finds the first line of TOML data where a key or value nests deeper
// than limit (0 when none does), by a scan of its brackets, braces and dots
// outside strings and comments. The depth at a point is the parts of the
// current table header, the arrays and inline tables open, and the dots since
// the last '=', ',', bracket or brace: in a value a number has one dot at
// most, so that the count overstates a value's depth by one, and a dotted key
// is counted part by part.
func tooDeep(data []byte, limit int) int {
	line, open, header, dots := 1, 0, 0, 0
	lineStart, inHeader := true, false
	for i := 0; i < len(data); i++ {
		c := data[i]
		switch c {
		case '\n':
			line++
			lineStart, dots = true, 0
			continue
		case ' ', '\t', '\r':
			continue
		case '#':
			for i+1 < len(data) && data[i+1] != '\n' {
				i++
			}
			continue
		case '"', '\'':
			end, lines := skipString(data, i)
			i, line = end, line+lines
		case '[':
			if lineStart && open == 0 { // a table header, [a.b] or [[a.b]]
				inHeader = true
				if i+1 < len(data) && data[i+1] == '[' {
					i++
				}
			} else {
				open++
			}
			dots = 0
		case ']':
			if inHeader { // its depth was checked part by part
				inHeader, header, dots, lineStart = false, dots+1, 0, false
				if i+1 < len(data) && data[i+1] == ']' {
					i++
				}
				continue
			}
			open = max(open-1, 0)
			dots = 0
		case '{':
			open++
			dots = 0
		case '}':
			open = max(open-1, 0)
			dots = 0
		case '=', ',':
			dots = 0
		case '.':
			dots++
		}
		lineStart = false
		depth := open + dots + 1
		if !inHeader {
			depth += header
		}
		if depth > limit {
			return line
		}
	}
	return 0
}

// skipString gives the index of the last byte of the string that starts at
// data[i] (a quote), and how many newlines it holds. Basic strings (in double
// quotes, one or three) have backslash escapes, literal ones (in single
// quotes) none; a multi-line string (three quotes) may end with one or two
// quotes before its closing three. An unterminated string runs to the end of
// its line, or of data when multi-line: the parser reports it.
func skipString(data []byte, i int) (end, lines int) {
	q := data[i]
	multi := i+2 < len(data) && data[i+1] == q && data[i+2] == q
	j := i + 1
	if multi {
		j = i + 3
	}
	for ; j < len(data); j++ {
		switch c := data[j]; {
		case c == '\\' && q == '"':
			if j+1 < len(data) && data[j+1] == '\n' {
				lines++
			}
			j++
		case c == '\n':
			if !multi {
				return j - 1, lines // the parser reports it; the newline is the caller's
			}
			lines++
		case c == q && !multi:
			return j, lines
		case c == q && j+2 < len(data) && data[j+1] == q && data[j+2] == q:
			j += 2
			for k := 0; k < 2 && j+1 < len(data) && data[j+1] == q; k++ {
				j++
			}
			return j, lines
		}
	}
	return len(data) - 1, lines
}
