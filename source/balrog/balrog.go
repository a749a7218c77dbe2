// Package balrog is the source of BALROG's runs (balrog-ai/BALROG,
// evaluator.py): the per-step table source with BALROG's columns, the field
// map its environment calls for, and what its layout,
// <output_dir>/<env>/<task>/<task>_run_NN.csv beside <task>_run_NN.json,
// says of a run (docs/sources.md, "BALROG").
package balrog

import (
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/lbanalyze/lbanalyze/episode"
	"github.com/lbanalyze/lbanalyze/internal/filekind"
	"github.com/lbanalyze/lbanalyze/jsonl"
	"github.com/lbanalyze/lbanalyze/source"
	"github.com/lbanalyze/lbanalyze/source/steps"
)

// Format is the log_format of BALROG's runs.
const Format = "balrog"

// Source reads BALROG's runs.
var Source = steps.Table{Preset: &steps.Preset{Format: Format, Claims: claims, For: fieldsFor, Finish: finish}}

// columns are the columns evaluator.py writes, in one order or another
// across its versions.
var columns = []string{"Step", "Observation", "Action", "Reasoning", "Reward", "Done"}

// claims takes a table whose header has BALROG's columns.
func claims(head []byte) bool { return steps.HeaderHas(head, columns) }

// rewards says, by environment, what its Reward column holds: true, the
// step's reward, which evaluator.py sums into the episode's return (gym's
// convention, which BALROG's wrappers pass on); false, the score after the
// step: textworld.gym returns the game's score as the reward, so TextWorld's
// column is cumulative (monotone in every leaderboard run, and its
// episode_return is the sum of those scores).
var rewards = map[string]bool{
	"textworld": false,
	"crafter":   true, "babyai": true, "babaisai": true, "minihack": true, "nle": true,
}

// fieldsFor is the field map of the run at path, by its environment.
func fieldsFor(path string) (steps.Fields, error) {
	l, ok := runLayout(path)
	f := steps.Fields{Turn: steps.Path{"Step"}, Action: steps.Path{"Action"}, Response: steps.Path{"Observation"}}
	reward, known := rewards[l.env]
	switch {
	case !ok:
		return f, fmt.Errorf("not in BALROG's layout (<env>/<task>/<task>_run_NN.csv), so its environment, and whether its Reward is the score or a per-step reward, is not known: " + byHand)
	case !known:
		return f, fmt.Errorf("BALROG's environment %q is not one lbanalyze knows, so whether its Reward is the score (as TextWorld's) or a per-step reward (as Crafter's) is not known: %s", l.env, byHand)
	case reward:
		f.Reward = steps.Path{"Reward"}
	default:
		f.Score = steps.Path{"Reward"}
	}
	return f, nil
}

// byHand says how to read a BALROG run the preset cannot.
const byHand = "read it with --fields turn=Step,reward=Reward (a per-step reward) or --fields turn=Step,score=Reward (the score)"

// layout is where a run lies: <out>/<env>/<task>/<task>_run_NN.csv, the
// task perhaps of several parts (BabyAI-MixedTrainLocal-v0/goto), each then
// a directory.
type layout struct {
	env, task string
}

var runName = regexp.MustCompile(`^(.+)_run_[0-9]+\.csv(\.gz|\.zst)?$`)

// runLayout is the layout of the run at path: as the path given lies, or,
// when that gives no environment lbanalyze knows, as the file truly lies
// beyond symbolic links (a directory of links to each submission's
// textworld, for one group a model).
func runLayout(path string) (layout, bool) {
	l, ok := layoutOf(path)
	if _, known := rewards[l.env]; ok && known || path == jsonl.StdinName {
		return l, ok
	}
	if real, err := filepath.EvalSymlinks(path); err == nil && real != path {
		if lr, ok := layoutOf(real); ok {
			if _, known := rewards[lr.env]; known {
				return lr, true
			}
		}
	}
	return l, ok
}

// layoutOf reads the layout of path; false when path does not follow it.
// The task's parts appear twice, the directory then the file's name:
// babyai/BabyAI-MixedTrainLocal-v0/goto/BabyAI-MixedTrainLocal-v0/goto_run_00.csv.
func layoutOf(path string) (layout, bool) {
	if path == jsonl.StdinName {
		return layout{}, false
	}
	parts := strings.Split(filepath.ToSlash(filepath.Clean(path)), "/")
	m := runName.FindStringSubmatch(parts[len(parts)-1])
	if m == nil {
		return layout{}, false
	}
	last := append(slices.Clone(parts[:len(parts)-1]), m[1]) // the task's parts as the file names them
	for n := 1; 2*n+1 <= len(last); n++ {
		task, dir := last[len(last)-n:], last[len(last)-2*n:len(last)-n]
		if slices.Equal(task, dir) {
			l := layout{env: last[len(last)-2*n-1], task: strings.Join(task, "/")}
			return l, named(l.env)
		}
	}
	return layout{}, false
}

func named(dir string) bool { return dir != "." && dir != ".." && dir != "" }

// summary is what lbanalyze reads of the file evaluator.py writes beside a
// run's steps once the episode ends.
type summary struct {
	Task         string `json:"task"`
	InputTokens  *int64 `json:"input_tokens"`
	OutputTokens *int64 `json:"output_tokens"`
	Done         bool   `json:"done"`
	NumSteps     int    `json:"num_steps"`
	Client       struct {
		ModelID string `json:"model_id"`
	} `json:"client"`
}

// maxSummary bounds the summary file read: it holds the agent's trajectory
// when the run saved it, which a run of thousands of steps makes large.
const maxSummary = 16 << 20

// readSummary reads the summary beside path, a regular file of 16 MiB at
// most (filekind.ReadSmall: a FIFO would hang the walk); nil, with why, when
// there is none or it cannot be read.
func readSummary(path string) (*summary, string, string) {
	name := source.Stem(path) + ".json"
	data, err := filekind.ReadSmall(name, maxSummary)
	var nr *filekind.NotRegular
	var tl *filekind.TooLarge
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return nil, name, "is not there"
	case errors.As(err, &nr) || errors.As(err, &tl):
		return nil, name, "is " + strings.TrimPrefix(err.Error(), name+": ") + ", not read"
	case err != nil:
		return nil, name, "cannot be read (" + strings.TrimPrefix(err.Error(), name+": ") + ")"
	}
	keep := source.Only(source.Keys(summary{}))
	slim, err := source.Slim(data, source.Nested("client", source.Only(map[string]bool{"model_id": true}), keep))
	var s summary
	if err == nil {
		_, err = jsonl.Decode(slim, &s)
	}
	if err != nil {
		return nil, name, "is not the summary evaluator.py writes (" + err.Error() + ")"
	}
	return &s, name, ""
}

// finish says where the episode lies, its environment and task (its id is
// its path, as any log's that records none: docs/sources.md, "Episode ids"),
// and reads the summary beside it: the run's tokens, spread over its steps
// and marked as estimates, and how it ended; neither when the file holds
// several runs, the summary being the whole file's.
func finish(ep *episode.Episode, path string, several bool) {
	l, _ := runLayout(path) // read by fieldsFor already
	fact := func(key, val, text string) {
		ep.Facts = append(ep.Facts, episode.Fact{Key: key, Value: &val, Text: text})
	}
	fact("env", l.env, l.env)
	fact("task", l.task, "task "+l.task)
	s, name, why := readSummary(path)
	if s == nil {
		ep.Notes = append(ep.Notes, fmt.Sprintf("its summary, %s, %s: the run's tokens and end are not known (evaluator.py writes it once the episode ends)", filepath.Base(name), why))
		return
	}
	if m := source.Text(s.Client.ModelID); m != "" {
		fact("model", m, "model "+m)
	}
	if several {
		ep.Notes = append(ep.Notes, fmt.Sprintf("its steps start again within the file, which so holds several runs: its summary, %s, is the whole file's, so its tokens and end are credited to none of them", filepath.Base(name)))
		return
	}
	if s.Done {
		ep.End = episode.End{Reason: episode.EndGameOver, Turn: ep.N(), Detail: "the environment ended the episode (won, lost, or at its own step limit)"}
	} else if s.NumSteps == ep.N() {
		ep.End = episode.End{Reason: episode.EndMaxTurns, Turn: ep.N()}
		ep.MaxTurns = s.NumSteps
	}
	spread(ep, s, filepath.Base(name))
}

// spread gives the steps the run's tokens, which BALROG counts for the
// episode only: evenly, the first steps one more when they do not divide,
// so that they add up to the count; marked as estimates.
func spread(ep *episode.Episode, s *summary, name string) {
	if s.InputTokens == nil || s.OutputTokens == nil || *s.InputTokens < 0 || *s.OutputTokens < 0 || ep.N() == 0 {
		return
	}
	if *s.InputTokens > source.MaxTokens || *s.OutputTokens > source.MaxTokens {
		ep.Notes = append(ep.Notes, fmt.Sprintf("%s gives %d input and %d output tokens, more than the %d a run may have: its tokens are not known", name, *s.InputTokens, *s.OutputTokens, int64(source.MaxTokens)))
		return
	}
	total := *s.InputTokens + *s.OutputTokens
	n := int64(ep.N())
	for i := range ep.Turns {
		ep.Turns[i].Tokens = total / n
		if int64(i) < total%n {
			ep.Turns[i].Tokens++
		}
	}
	ep.Signals = ep.Signals.With(episode.Tokens)
	ep.Estimated = ep.Estimated.With(episode.Tokens)
	t := strconv.FormatInt(total, 10)
	ep.Facts = append(ep.Facts, episode.Fact{Key: "tokens", Value: &t, Text: t + " tokens (estimated per step)"})
	ep.Notes = append(ep.Notes, fmt.Sprintf("tokens per step are estimates: %s gives the run's %d tokens (input and output) as one count, spread evenly here over its %d steps", name, total, n))
}
