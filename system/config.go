package system

import (
	"bytes"
	"fmt"
	"regexp"
	"strconv"
	"strings"

	"github.com/lbanalyze/lbanalyze/internal/tomlfile"
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

// configFile is a pyproject.toml: a few KiB, read up to 128 KiB.
var configFile = tomlfile.File{Max: 128 << 10, Name: "the pyproject.toml", Kind: "pyproject.toml"}

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
	data, err := configFile.Read(path)
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
	doc, _, err := tomlfile.Decode(path, data)
	if err != nil {
		return Config{}, err
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
