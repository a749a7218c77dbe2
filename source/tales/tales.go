// Package tales is the source of TALES's rollouts (microsoft/tale-suite,
// benchmark.py): the per-step source with TALES's field map, and what the
// benchmark's layout, <log_dir>/<run>/<game>/<settings>.jsonl, says of a
// run (docs/sources.md, "TALES").
package tales

import (
	"fmt"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"

	"github.com/lbanalyze/lbanalyze/episode"
	"github.com/lbanalyze/lbanalyze/source"
	"github.com/lbanalyze/lbanalyze/source/steps"
)

// Format is the log_format of TALES's rollouts.
const Format = "tales"

// Fields is TALES's field map. Every version writes the columns Step, Score,
// Max Score, Normalized Score, Moves, Observation, Action, Feedback, Prompt,
// Response and Token Usage (later ones add Thinking and Prompt, Response and
// Thinking Tokens, whose sum Token Usage is). Observation is what the agent
// saw before the step: after a game ended, the reset appends the marker and
// the new game's opening to it. Feedback is the game's response to the
// action. The benchmark reports a run's best score.
var Fields = steps.Fields{
	Turn: steps.Path{"Step"}, Score: steps.Path{"Score"}, Action: steps.Path{"Action"}, Response: steps.Path{"Feedback"},
	Tokens: steps.Path{"Token Usage"}, MaxScore: steps.Path{"Max Score"},
	Restart: steps.Path{"Observation"}, RestartMarker: "-= Restarting =-",
	DeathMarker: "You have died", Scoring: episode.ScoredBest,
}

// Source reads TALES's rollouts.
var Source = steps.Source{Fields: Fields, Preset: &steps.Preset{Format: Format, Claims: claims, Finish: finish}}

// claims takes a file whose first line is a rollout's step: the columns
// pandas writes first (Step, Score, Moves), and when the line ends within the
// head, the action and the tokens as well.
func claims(head []byte) bool {
	keys, whole, ok := steps.HeadKeys(head)
	if !ok {
		return false
	}
	for _, k := range []string{"Step", "Score", "Max Score", "Moves"} {
		if !keys[k] {
			return false
		}
	}
	return !whole || keys["Observation"] && keys["Action"] && keys["Token Usage"]
}

// budget is the step budget in a rollout's name (a0_s20241001_steps100.jsonl;
// names before 2024-10-27 have none).
var budget = regexp.MustCompile(`_steps([0-9]+)\.jsonl`)

// finish names the episode after its run, game and seed, and says how the
// run ended: TALES plays until the step budget runs out, resetting a game
// that ends, and stops early only when a game is won with the highest score.
func finish(ep *episode.Episode, path string, _ bool) {
	game := filepath.Base(filepath.Dir(path))
	run := filepath.Base(filepath.Dir(filepath.Dir(path)))
	if named(game) && named(run) {
		ep.ID = strings.Join(append([]string{runName(run), game}, rolloutName(filepath.Base(path))...), " / ")
		ep.Facts = append([]episode.Fact{{Key: "run", Value: &run, Text: "run " + run}, {Key: "game", Value: &game, Text: "game " + game}}, ep.Facts...)
	}
	unknown := "the file's name does not give the step budget (rollouts before 2024-10-27)"
	if m := budget.FindStringSubmatch(filepath.Base(path)); m != nil {
		v, err := strconv.Atoi(m[1])
		if err != nil || v < 1 || v > source.MaxTurn {
			unknown = fmt.Sprintf("the file's name gives a step budget of %s, which no run has (1 to %d)", digits(m[1]), source.MaxTurn)
		} else {
			ep.MaxTurns = v
		}
	}
	n := ep.N()
	top, err := strconv.ParseFloat(ep.Fact("max_score"), 64)
	switch {
	case err == nil && ep.FinalScore() == episode.Score(top):
		ep.End = episode.End{Reason: episode.EndGameOver, Turn: n, Detail: "won with the highest score"}
	case ep.MaxTurns == 0:
		ep.End = episode.End{Reason: episode.EndMaxTurns, Turn: n}
		ep.Notes = append(ep.Notes, unknown+": the run is taken to have spent it, though a run that failed or was stopped writes its rollout too")
	case n >= ep.MaxTurns:
		ep.End = episode.End{Reason: episode.EndMaxTurns, Turn: n}
	default:
		ep.Notes = append(ep.Notes, fmt.Sprintf("the rollout ends at step %d of a budget of %d: the run failed or was stopped (the summary file beside it says which)", n, ep.MaxTurns))
	}
}

// digits is a number of a file's name as a message shows it: its first 20
// digits and how many it has, past 20 (a name may hold thousands).
func digits(s string) string {
	if len(s) <= 20 {
		return s
	}
	return fmt.Sprintf("%s… (%d digits)", s[:20], len(s))
}

// rolloutPattern is the name benchmark.py gives a rollout:
// a<admissible commands, 0 or 1>_s<game seed>[_steps<budget>].jsonl.
var rolloutPattern = regexp.MustCompile(`^(a[0-9]+)_(s[0-9]+)(?:_steps[0-9]+)?\.jsonl`)

// rolloutName is what a rollout's name adds to the run and the game to
// tell it from the others of its directory: its settings that are not
// TALES's defaults (no admissible commands, seed 20241001), "a1 s20241002";
// nothing at the defaults; the name without its extensions when it is of
// another shape.
func rolloutName(name string) []string {
	m := rolloutPattern.FindStringSubmatch(name)
	if m == nil {
		return []string{source.Stem(name)}
	}
	var out []string
	for _, p := range m[1:] {
		if p != "a0" && p != "s20241001" {
			out = append(out, p)
		}
	}
	if len(out) == 0 {
		return nil
	}
	return []string{strings.Join(out, " ")}
}

// named reports a directory name a layout gives, not one a relative path
// leaves out.
func named(dir string) bool { return dir != "." && dir != string(filepath.Separator) && dir != "" }

// defaults are the parts of an agent's uid at TALES's defaults (seed
// 20241001, temperature 0.0, no conversation), which runName leaves out.
var defaults = []string{"s20241001", "t0.0", "convFalse", "convNone"}

// runName is a run's directory as a person would say it: the benchmark names
// it tw-bench_<agent uid> (later tales_<agent uid>), the uid being the agent,
// its model and its settings joined by "_" (LLMAgent_gpt-4o_s20241001_c10_
// t0.0_convFalse). It keeps the model and the settings that are not TALES's
// defaults, and the agent unless it is the plain LLMAgent: "gpt-4o c10". A
// name of another shape is kept as it is.
func runName(dir string) string {
	uid, ok := strings.CutPrefix(dir, "tw-bench_")
	if !ok {
		if uid, ok = strings.CutPrefix(dir, "tales_"); !ok {
			return dir
		}
	}
	parts := strings.Split(uid, "_")
	var out []string
	if parts[0] != "LLMAgent" {
		out = append(out, parts[0])
	}
	for _, p := range parts[1:] {
		if p = dropDefault(p); p != "" {
			out = append(out, strings.TrimSpace(p))
		}
	}
	if len(out) == 0 {
		return dir
	}
	return strings.Join(out, " ")
}

// dropDefault is a part of a uid without a default setting it begins with
// (the walkthrough agent glues "Walkthrough Agent" to convFalse).
func dropDefault(p string) string {
	for _, d := range defaults {
		if rest, ok := strings.CutPrefix(p, d); ok && (rest == "" || !strings.ContainsRune("0123456789.", rune(rest[0]))) {
			return rest
		}
	}
	return p
}
