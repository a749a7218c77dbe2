package corpus

import (
	"slices"
	"strconv"
	"strings"

	"github.com/lbanalyze/lbanalyze/jsonl"
	"github.com/lbanalyze/lbanalyze/source/steps"
)

// suggestFields says how to read a JSON Lines file or a table no source
// claims: with a field map (docs/sources.md, "Any per-step JSONL",
// "Per-step tables"), guessed from the keys of its first object, nested ones
// too, or from the names of its header, a cell of its first row telling a
// number (a score, a step number, an action, a room, the response, tokens,
// perhaps a sum of prompt and completion tokens). "" for a file that is
// neither.
func suggestFields(head []byte) string {
	var leaves []leaf
	what, key := "one object a step", "member"
	line, _ := jsonl.FirstLine(head)
	switch names, row := steps.TableHead(head); {
	case len(line) > 0 && line[0] == '{':
		collect(line, nil, &leaves)
	case names != nil:
		what, key = "a table of one row a step", "column"
		for i, n := range names {
			_, err := strconv.ParseFloat(strings.TrimSpace(cell(row, i)), 64)
			leaves = append(leaves, leaf{path: []string{n}, number: err == nil, text: err != nil})
		}
	default:
		return ""
	}
	m := guessFields(leaves)
	if m == "" && key == "column" {
		return "" // lines of text with commas need not be a table
	}
	if m == "" {
		return "; to read it as " + what + ", give a field map naming its score's " + key + ": --fields score=KEY (docs/sources.md)"
	}
	if _, err := steps.ParseFields(m); err != nil { // a guess that does not read is no help
		return ""
	}
	return "; to read it as " + what + ", give a field map, e.g. --fields " + shellWord(m)
}

// cell is row[i], "" past its end.
func cell(row []string, i int) string {
	if i < len(row) {
		return row[i]
	}
	return ""
}

// leaf is a member that holds no object: its path and its value's kind.
type leaf struct {
	path   []string
	number bool // a number; else a string, a bool, null or an array
	text   bool
}

// maxLeaves and maxDepth bound what a guess reads of a first object.
const maxLeaves, maxDepth = 500, 4

// collect adds the members of the object raw under path, nested objects
// walked into, up to maxDepth keys deep.
func collect(raw []byte, path []string, leaves *[]leaf) {
	jsonl.ScanHead(raw, func(key, value []byte) bool {
		k := jsonl.Unescape(key)
		if k == nil || len(*leaves) >= maxLeaves {
			return k != nil
		}
		p := append(slices.Clone(path), string(k))
		switch {
		case len(value) > 0 && value[0] == '{' && len(p) < maxDepth:
			collect(value, p, leaves)
		case len(value) > 0:
			c := value[0]
			*leaves = append(*leaves, leaf{path: p, number: c == '-' || c >= '0' && c <= '9', text: c == '"'})
		}
		return true
	})
}

// guesses are the field map's keys a guess fills, in the order a map
// writes them, each with the names (lower case, "_" for a space) its member
// is commonly given, the likeliest first.
var guesses = []struct {
	key    string
	names  []string
	number bool // the member must be a number
}{
	{"turn", []string{"step", "turn", "t", "step_idx", "turn_number", "step_number"}, true},
	{"score", []string{"score", "total_score", "game_score", "points", "reward", "return"}, true},
	{"action", []string{"action", "command", "act"}, false},
	{"room", []string{"room", "location", "loc"}, false},
	{"response", []string{"feedback", "response", "observation", "obs"}, false},
	{"tokens", []string{"total_tokens", "tokens", "token_usage", "nb_tokens"}, true},
	{"episode", []string{"episode", "episode_id", "run_id"}, false},
}

// guessFields is a field map of the members whose names are those a map
// names commonly; "" without a score. Tokens are a sum of prompt and
// completion tokens where no total is found.
func guessFields(leaves []leaf) string {
	var items []string
	score := false
	for _, g := range guesses {
		p := find(leaves, g.names, g.number)
		if p == "" && g.key == "tokens" {
			p = tokenSum(leaves)
		}
		if p == "" {
			continue
		}
		score = score || g.key == "score"
		items = append(items, g.key+"="+p)
	}
	if !score {
		return ""
	}
	return strings.Join(items, ",")
}

// find is the path of the first leaf, shallowest first, whose last key is
// one of names (the likeliest first), written as a field map writes it; ""
// when none is, or its keys cannot be written in one (a ".", "," or "=" in
// a key).
func find(leaves []leaf, names []string, number bool) string {
	best, rank := "", len(names)
	for depth := 1; depth <= maxDepth && best == ""; depth++ {
		for _, l := range leaves {
			i := slices.Index(names, normal(l.path[len(l.path)-1]))
			if len(l.path) != depth || i < 0 || i >= rank || number && !l.number || !number && !l.text && !l.number {
				continue
			}
			if p := written(l.path); p != "" {
				best, rank = p, i
			}
		}
	}
	return best
}

// tokenSum is prompt plus completion tokens (input plus output), where a
// log records both: tokens=usage.prompt_tokens+usage.completion_tokens.
func tokenSum(leaves []leaf) string {
	for _, pair := range [][2][]string{{{"prompt_tokens"}, {"completion_tokens"}}, {{"input_tokens"}, {"output_tokens"}}} {
		a, b := find(leaves, pair[0], true), find(leaves, pair[1], true)
		if a != "" && b != "" {
			return a + "+" + b
		}
	}
	return ""
}

// normal is a key as guesses name it: lower case, "_" for a space or "-".
func normal(k string) string {
	return strings.NewReplacer(" ", "_", "-", "_").Replace(strings.ToLower(k))
}

// written is a path as a field map writes it, "" when a key cannot be.
func written(path []string) string {
	for _, k := range path {
		if k == "" || strings.ContainsAny(k, ".,=+") || strings.TrimSpace(k) != k {
			return ""
		}
	}
	return strings.Join(path, ".")
}

// shellWord quotes s for a POSIX shell when it holds more than letters,
// digits and . , = + _ - /.
func shellWord(s string) string {
	plain := func(r rune) bool {
		return r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune(".,=+_-/", r)
	}
	if strings.IndexFunc(s, func(r rune) bool { return !plain(r) }) < 0 {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}
