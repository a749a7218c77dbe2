package system

import (
	"bytes"
	"errors"
	"fmt"
	"regexp"
	"strconv"
	"strings"

	"github.com/BurntSushi/toml"

	"github.com/lbanalyze/lbanalyze/internal/filekind"
	"github.com/lbanalyze/lbanalyze/policy"
)

// Config is what --config reads from a pyproject.toml: the system whose table
// it holds, the setting that system runs, and warnings about what was passed
// over (the system itself passes over the same silently).
type Config struct {
	System   *System
	Policy   policy.Policy
	Warnings []string
}

// Bounds on a configuration file, checked before the TOML parser sees it: a
// pyproject.toml is a few KiB and nests tables five or six deep
// ([tool.poetry.group.dev.dependencies], then an inline table). The parser
// recurses once per level of arrays and inline tables, and holds every key's
// whole path, so that what a file costs grows with its size times its depth:
// a 1 MiB file of keys eight parts long took 230 MB, a 128 KiB file of keys or
// inline tables 16 deep takes 55-62 MB (peak RSS, the run included).
const (
	// MaxConfigSize is the largest configuration file read.
	MaxConfigSize = 128 << 10
	// MaxConfigDepth bounds how deeply a key or value nests: the parts of
	// its table's header and its dotted key, and the arrays and inline
	// tables around it.
	MaxConfigDepth = 16
)

// Tables names the table of each system that has one, for --help:
// "[tool.zorkgpt.loop_break] (ZorkGPT) or [tool.zorkburr] (ZorkGPT2)".
func Tables() string {
	var t []string
	for _, s := range registry {
		if s.Table != "" {
			t = append(t, fmt.Sprintf("[%s] (%s)", s.Table, s.Name))
		}
	}
	return strings.Join(t, " or ")
}

// LoadConfig reads the table of a system from a pyproject.toml (ParseConfig).
// Errors name the file, the line where it can be found, and the key.
func LoadConfig(path string) (Config, error) {
	data, err := readConfig(path)
	if err != nil {
		return Config{}, err
	}
	return ParseConfig(path, data)
}

// ParseConfig is LoadConfig of data read from path: the table of the first
// system of the registry that the file holds, read and checked as that
// system reads and checks it; the tables of the others are named and passed
// over. A file with no such table is the first system's defaults, with a
// warning.
func ParseConfig(path string, data []byte) (Config, error) {
	if line := tooDeep(data, MaxConfigDepth); line > 0 {
		return Config{}, fmt.Errorf("%s:%d: nested more than %d deep (tables, dotted keys, arrays and inline tables): not read", path, line, MaxConfigDepth)
	}
	var doc map[string]any
	if _, err := toml.Decode(string(data), &doc); err != nil {
		return Config{}, fmt.Errorf("%s: %w", path, err)
	}
	var read *System
	var table map[string]any
	var ignored []string
	for _, s := range registry {
		t, ok := dig(doc, s.Table)
		switch {
		case s.Table == "" || !ok:
		case read == nil:
			read, table = s, t
		default:
			ignored = append(ignored, fmt.Sprintf("%s: [%s] ignored: the file also has [%s], which is read", path, s.Table, read.Table))
		}
	}
	if read == nil {
		first := registry[0]
		return Config{System: first, Policy: first.Now,
			Warnings: []string{fmt.Sprintf("%s: no [%s] table: %s's defaults apply", path, first.Table, first.Name)}}, nil
	}
	c, err := read.readConfig(keysOf(path, read.Table, data), table)
	c.System, c.Warnings = read, append(ignored, c.Warnings...)
	return c, err
}

// dig is the table at a dotted path of doc.
func dig(doc map[string]any, path string) (map[string]any, bool) {
	cur := doc
	for _, p := range strings.Split(path, ".") {
		next, ok := cur[p].(map[string]any)
		if !ok {
			return nil, false
		}
		cur = next
	}
	return cur, true
}

// keys says where each key of a system's table is written, for messages.
type keys struct {
	path, table string
	lines       map[string]int
}

// keysOf finds the line of each key written KEY = … inside table in data,
// for messages (the first, when a key is written twice); a key it does not
// find has none. One pass, however many keys.
func keysOf(path, table string, data []byte) keys {
	parts := strings.Split(table, ".")
	for i, p := range parts {
		parts[i] = regexp.QuoteMeta(p)
	}
	header := regexp.MustCompile(`^\s*\[\s*` + strings.Join(parts, `\s*\.\s*`) + `\s*\]`)
	k := keys{path: path, table: table, lines: map[string]int{}}
	in := false
	for i, line := range bytes.Split(data, []byte("\n")) {
		t := bytes.TrimSpace(line)
		switch {
		case header.Match(line):
			in = true
		case len(t) > 0 && t[0] == '[':
			in = false
		case in:
			key, _, ok := bytes.Cut(t, []byte("="))
			if name := string(bytes.TrimSpace(key)); ok && name != "" && k.lines[name] == 0 {
				k.lines[name] = i + 1
			}
		}
	}
	return k
}

// at names a key for a message: "pyproject.toml:6: [tool.zorkburr] max_turns_stuck".
func (k keys) at(key string) string {
	if line := k.lines[key]; line > 0 {
		return fmt.Sprintf("%s:%d: [%s] %s", k.path, line, k.table, key)
	}
	return fmt.Sprintf("%s: [%s] %s", k.path, k.table, key)
}

// show is a value as a message quotes it.
func show(v any) string {
	if s, ok := v.(string); ok {
		return strconv.Quote(s)
	}
	return fmt.Sprint(v)
}

// readConfig reads a configuration file: a regular file of MaxConfigSize
// bytes at most. A FIFO would block, and /dev/zero never end.
func readConfig(path string) ([]byte, error) {
	data, err := filekind.ReadSmall(path, MaxConfigSize)
	var nr *filekind.NotRegular
	var tl *filekind.TooLarge
	switch {
	case errors.As(err, &nr):
		return nil, fmt.Errorf("%v: give the pyproject.toml itself", err)
	case errors.As(err, &tl):
		return nil, fmt.Errorf("%v, which no pyproject.toml is: not read", err)
	}
	return data, err
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
