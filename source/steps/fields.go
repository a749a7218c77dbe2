package steps

import (
	"fmt"
	"slices"
	"strings"

	"github.com/lbanalyze/lbanalyze/episode"
	"github.com/lbanalyze/lbanalyze/internal/tomlfile"
)

// Fields map the members of a log's per-step objects to what an episode
// needs (docs/sources.md, "Any per-step JSONL"). Each is a path of keys, a
// nested member's keys joined by dots ("info.score"); nil when the log has
// no such member.
type Fields struct {
	// Score is the score after the step, or Reward what the step adds to
	// the score before it (a per-step reward, summed from 0 into the score
	// after the step): one of the two is required.
	Score    Path
	Reward   Path
	Turn     Path // the step's number; nil: the lines are the steps, in order
	Action   Path
	Room     Path // a room's name (a string) or id (a number)
	Response Path // the game's response to the action (docs/sources.md, "What a step did")
	Tokens   Path // the LLM tokens the step spent
	Calls    Path // the LLM calls the step made
	MaxScore Path // the game's highest possible score (a fact)
	// Error marks a step whose action failed: true, a text, a number other
	// than 0, a non-empty object or list; false, null, "", 0, {}, [] or no
	// member: it did not (a log writes an error only where there is one).
	Error Path
	// Episode tells episodes apart in a file that holds several: a line
	// whose value differs from the line before begins a new one.
	Episode Path
	// Restart is a boolean member true on the step where the game began
	// again; or, with RestartMarker, a text member that holds the marker on
	// that step (TALES's observation: "-= Restarting =-").
	Restart       Path
	RestartMarker string
	// DeathMarker, found in the response, marks a death at that step.
	DeathMarker string
	// Scoring is how the run is scored: its last score, or its best
	// (scored = "last" or "best").
	Scoring episode.Scoring
	// MoreTokens and MoreCalls are members added to Tokens' and Calls'
	// values, a step's count being the sum
	// (tokens=usage.prompt_tokens+usage.completion_tokens).
	MoreTokens, MoreCalls []Path
	// member is source.Options.Member: its value is kept as a fact.
	member Path
}

// Path is a member's keys, outermost first.
type Path []string

// String writes p as a field map names it: its keys joined by dots, a dot or
// a backslash within a key escaped with a backslash (info.score, or
// info\.score for the one key "info.score").
func (p Path) String() string {
	keys := make([]string, len(p))
	for i, k := range p {
		keys[i] = pathEscaper.Replace(k)
	}
	return strings.Join(keys, ".")
}

var textUnescaper = strings.NewReplacer(`\,`, `,`, `\\`, `\`)

var pathEscaper = strings.NewReplacer(`\`, `\\`, `.`, `\.`, `,`, `\,`)

// fieldKey is one key of a field map: how --fields and a fields file name it.
type fieldKey struct {
	name string
	path func(*Fields) *Path // nil for the settings that are not members
	// more, for a count, are the members added to it (a+b); nil for a key
	// that names one member, whose name may hold a "+".
	more func(*Fields) *[]Path
}

var fieldKeys = []fieldKey{
	{"turn", func(f *Fields) *Path { return &f.Turn }, nil},
	{"score", func(f *Fields) *Path { return &f.Score }, nil},
	{"reward", func(f *Fields) *Path { return &f.Reward }, nil},
	{"action", func(f *Fields) *Path { return &f.Action }, nil},
	{"room", func(f *Fields) *Path { return &f.Room }, nil},
	{"response", func(f *Fields) *Path { return &f.Response }, nil},
	{"tokens", func(f *Fields) *Path { return &f.Tokens }, func(f *Fields) *[]Path { return &f.MoreTokens }},
	{"calls", func(f *Fields) *Path { return &f.Calls }, func(f *Fields) *[]Path { return &f.MoreCalls }},
	{"max_score", func(f *Fields) *Path { return &f.MaxScore }, nil},
	{"episode", func(f *Fields) *Path { return &f.Episode }, nil},
	{"restart", func(f *Fields) *Path { return &f.Restart }, nil},
	{"error", func(f *Fields) *Path { return &f.Error }, nil},
	{"restart_marker", nil, nil},
	{"death_marker", nil, nil},
	{"scored", nil, nil},
}

func keyNames() string {
	var n []string
	for _, k := range fieldKeys {
		n = append(n, k.name)
	}
	return strings.Join(n, ", ")
}

// set sets the field map's key to value, as written in --fields or a file.
func (f *Fields) set(key, value string) error {
	i := slices.IndexFunc(fieldKeys, func(k fieldKey) bool { return k.name == key })
	if i < 0 {
		return fmt.Errorf("unknown key %q (known: %s)", key, keyNames())
	}
	switch key {
	case "restart_marker":
		f.RestartMarker = value
	case "death_marker":
		f.DeathMarker = value
	case "scored":
		switch value {
		case "last":
			f.Scoring = episode.ScoredLast
		case "best":
			f.Scoring = episode.ScoredBest
		default:
			return fmt.Errorf("scored = %q: give last (the run's last score counts) or best (its best score counts)", value)
		}
	default:
		terms := []string{value}
		if fieldKeys[i].more != nil {
			terms = splitUnescaped(value, '+')
		}
		for k, term := range terms {
			p, err := parsePath(strings.TrimSpace(term))
			if err != nil && len(terms) > 1 {
				return fmt.Errorf("%s = %q: %v in a sum (write KEY+KEY)", key, value, err)
			}
			if err != nil {
				return fmt.Errorf("%s = %q: %v", key, value, err)
			}
			if k == 0 {
				*fieldKeys[i].path(f) = p
			} else {
				more := fieldKeys[i].more(f)
				*more = append(*more, p)
			}
		}
	}
	return nil
}

// setPath sets the field map's key to a path given key by key (a fields
// file's list of strings), each key exactly as it is.
func (f *Fields) setPath(key string, p Path) error {
	i := slices.IndexFunc(fieldKeys, func(k fieldKey) bool { return k.name == key })
	switch {
	case i < 0:
		return fmt.Errorf("unknown key %q (known: %s)", key, keyNames())
	case fieldKeys[i].path == nil:
		return fmt.Errorf("%s = %q: a list of keys names a member; %s is a text", key, []string(p), key)
	case len(p) == 0 || slices.Contains(p, ""):
		return fmt.Errorf("%s = %q: an empty key", key, []string(p))
	}
	*fieldKeys[i].path(f) = p
	return nil
}

// parsePath splits a dotted key: "info.score" is the member "score" of the
// object under "info"; a backslash makes the character after it part of a
// key ("info\.score" is the one key "info.score").
func parsePath(s string) (Path, error) {
	if strings.TrimSpace(s) == "" {
		return nil, fmt.Errorf("an empty key")
	}
	var p Path
	var key strings.Builder
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c == '\\' && i+1 < len(s):
			i++
			key.WriteByte(s[i])
		case c == '.':
			p = append(p, key.String())
			key.Reset()
		default:
			key.WriteByte(c)
		}
	}
	p = append(p, key.String())
	if slices.Contains(p, "") {
		return nil, fmt.Errorf("an empty key between dots")
	}
	return p, nil
}

// splitUnescaped splits s at each sep that no backslash escapes; the escapes
// are kept, for parsePath (--fields at its commas, a sum at its "+").
func splitUnescaped(s string, sep byte) []string {
	var items []string
	start := 0
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '\\':
			i++
		case sep:
			items = append(items, s[start:i])
			start = i + 1
		}
	}
	return append(items, s[start:])
}

// check says what is missing or contradictory in a field map.
func (f *Fields) check() error {
	switch {
	case f.Score == nil && f.Reward == nil:
		return fmt.Errorf("no score: the field map must name the member that holds each step's score (score=KEY), or its reward, summed into the score (reward=KEY)")
	case f.Score != nil && f.Reward != nil:
		return fmt.Errorf("score and reward both given: name the score after each step (score=KEY) or the reward each step adds to it (reward=KEY), not both")
	case f.RestartMarker != "" && f.Restart == nil:
		return fmt.Errorf("restart_marker without restart: name the member that holds it (restart=KEY)")
	case f.DeathMarker != "" && f.Response == nil:
		return fmt.Errorf("death_marker without response: name the member that holds the game's response (response=KEY)")
	}
	return nil
}

// ParseFields reads a field map as --fields gives it:
// "turn=Step,score=Score,tokens=Token Usage": a value runs from the first "="
// to the next comma, spaces inside it belong to the key, spaces around it do
// not (a fields file keeps a value exactly as written).
func ParseFields(s string) (Fields, error) {
	var f Fields
	seen := map[string]bool{}
	for _, item := range splitUnescaped(s, ',') {
		if strings.TrimSpace(item) == "" {
			continue
		}
		key, value, ok := strings.Cut(item, "=")
		key = strings.TrimSpace(key)
		if fk := slices.IndexFunc(fieldKeys, func(k fieldKey) bool { return k.name == key }); fk >= 0 && fieldKeys[fk].path == nil {
			value = textUnescaper.Replace(value) // a text, not a path: only its commas were escaped
		}
		if !ok {
			return f, fmt.Errorf("%q: write NAME=KEY, e.g. score=Score", item)
		}
		if seen[key] {
			return f, fmt.Errorf("%s is given twice", key)
		}
		seen[key] = true
		if err := f.set(key, strings.TrimSpace(value)); err != nil {
			return f, err
		}
	}
	return f, f.check()
}

// fieldsFile is a fields file: a dozen keys take a few hundred bytes, read up
// to 64 KiB.
var fieldsFile = tomlfile.File{Max: 64 << 10, Name: "the fields file", Kind: "field map"}

// LoadFields reads a field map from a TOML file of the same keys, for
// repeated use: score = "Score", tokens = "Token Usage", scored = "best". A
// file that is not a regular one (a FIFO would hang, /dev/zero never end)
// or is over 64 KiB is not read.
func LoadFields(path string) (Fields, error) {
	var f Fields
	data, err := fieldsFile.Read(path)
	if err != nil {
		return f, err
	}
	doc, md, err := tomlfile.Decode(path, data)
	if err != nil {
		return f, err
	}
	for _, key := range md.Keys() { // in the file's order
		k := key.String()
		s, ok := doc[k].(string)
		keys, list := keyList(doc[k])
		switch {
		case len(key) > 1:
			continue // inside a table, reported with the table
		case list:
			if err := f.setPath(k, keys); err != nil {
				return f, fmt.Errorf("%s: %v", path, err)
			}
			continue
		case !ok && isTable(doc[k]):
			return f, fmt.Errorf("%s: [%s]: a fields file has no tables; its keys are %s", path, k, keyNames())
		case !ok:
			return f, fmt.Errorf("%s: %s = %v: a key is given as a string, e.g. %s = \"Score\", or as a list of keys, e.g. %s = [\"info\", \"score\"]", path, k, doc[k], k, k)
		}
		if err := f.set(k, s); err != nil {
			return f, fmt.Errorf("%s: %v", path, err)
		}
	}
	if err := f.check(); err != nil {
		return f, fmt.Errorf("%s: %v", path, err)
	}
	return f, nil
}

// keyList is a TOML value that is a list of strings, as a path.
func keyList(v any) (Path, bool) {
	l, ok := v.([]any)
	if !ok {
		return nil, false
	}
	p := make(Path, len(l))
	for i, x := range l {
		if p[i], ok = x.(string); !ok {
			return nil, false
		}
	}
	return p, true
}

func isTable(v any) bool {
	_, ok := v.(map[string]any)
	return ok
}
