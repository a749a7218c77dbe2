package steps

import (
	"fmt"
	"os"
	"slices"
	"strings"

	"github.com/BurntSushi/toml"

	"github.com/lbanalyze/lbanalyze/episode"
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
	Response Path // the game's response to the action (hashed, never kept)
	Tokens   Path // the LLM tokens the step spent
	Calls    Path // the LLM calls the step made
	MaxScore Path // the game's highest possible score (a fact)
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
}

// Path is a member's keys, outermost first.
type Path []string

func (p Path) String() string { return strings.Join(p, ".") }

// fieldKey is one key of a field map: how --fields and a fields file name it.
type fieldKey struct {
	name string
	path func(*Fields) *Path // nil for the settings that are not members
}

var fieldKeys = []fieldKey{
	{"turn", func(f *Fields) *Path { return &f.Turn }},
	{"score", func(f *Fields) *Path { return &f.Score }},
	{"reward", func(f *Fields) *Path { return &f.Reward }},
	{"action", func(f *Fields) *Path { return &f.Action }},
	{"room", func(f *Fields) *Path { return &f.Room }},
	{"response", func(f *Fields) *Path { return &f.Response }},
	{"tokens", func(f *Fields) *Path { return &f.Tokens }},
	{"calls", func(f *Fields) *Path { return &f.Calls }},
	{"max_score", func(f *Fields) *Path { return &f.MaxScore }},
	{"episode", func(f *Fields) *Path { return &f.Episode }},
	{"restart", func(f *Fields) *Path { return &f.Restart }},
	{"restart_marker", nil},
	{"death_marker", nil},
	{"scored", nil},
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
		p, err := parsePath(value)
		if err != nil {
			return fmt.Errorf("%s = %q: %v", key, value, err)
		}
		*fieldKeys[i].path(f) = p
	}
	return nil
}

// parsePath splits a dotted key: "info.score" is the member "score" of the
// object under "info".
func parsePath(s string) (Path, error) {
	if strings.TrimSpace(s) == "" {
		return nil, fmt.Errorf("an empty key")
	}
	p := Path(strings.Split(s, "."))
	if slices.Contains(p, "") {
		return nil, fmt.Errorf("an empty key between dots")
	}
	return p, nil
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
	for item := range strings.SplitSeq(s, ",") {
		if strings.TrimSpace(item) == "" {
			continue
		}
		key, value, ok := strings.Cut(item, "=")
		key = strings.TrimSpace(key)
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

// LoadFields reads a field map from a TOML file of the same keys, for
// repeated use: score = "Score", tokens = "Token Usage", scored = "best".
func LoadFields(path string) (Fields, error) {
	var f Fields
	data, err := os.ReadFile(path)
	if err != nil {
		return f, err
	}
	var doc map[string]any
	md, err := toml.Decode(string(data), &doc)
	if err != nil {
		return f, fmt.Errorf("%s: %w", path, err)
	}
	for _, key := range md.Keys() { // in the file's order
		k := key.String()
		s, ok := doc[k].(string)
		switch {
		case len(key) > 1:
			continue // inside a table, reported with the table
		case !ok && isTable(doc[k]):
			return f, fmt.Errorf("%s: [%s]: a fields file has no tables; its keys are %s", path, k, keyNames())
		case !ok:
			return f, fmt.Errorf("%s: %s = %v: a key is given as a string, e.g. %s = \"Score\"", path, k, doc[k], k)
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

func isTable(v any) bool {
	_, ok := v.(map[string]any)
	return ok
}
