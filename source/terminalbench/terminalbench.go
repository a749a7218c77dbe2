// Package terminalbench is the source of Terminal-Bench's runs
// (laude-institute/terminal-bench): each record of a run's results.json
// results list is one trial, an episode with a duration and a result and no
// steps (docs/sources.md, "Terminal-Bench").
package terminalbench

import (
	"bytes"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/lbanalyze/lbanalyze/episode"
	"github.com/lbanalyze/lbanalyze/internal/filekind"
	"github.com/lbanalyze/lbanalyze/jsonl"
	"github.com/lbanalyze/lbanalyze/source"
)

// Format is the log_format of Terminal-Bench's runs.
const Format = "terminal-bench"

// Tick is the seconds each turn of a trial stands for: the records give
// when the agent began and ended, not its commands, so a trial is read as
// ticks of the clock (episode.Episode.Tick), fine enough for caps of
// minutes.
const Tick = 30

// Source reads a run's results.json named on the command line; Dir, the
// directory a walk meets that holds one, and none of its trial directories
// (whose results.json repeats one record of the run's).
type Source struct{}

func (Source) Format() string { return Format }

// Opens takes no name: a walk reads a run by its directory (Dir).
func (Source) Opens(string) bool { return false }

// Claims takes an object whose results list begins with a trial record: a
// trial_name and an is_resolved.
func (Source) Claims(head []byte) bool { return trials(head) }

func trials(head []byte) bool {
	k := source.HeadObject(head, "results", "[]")
	return k["trial_name"] && k["is_resolved"]
}

// Read reads the run's results r.
func (Source) Read(r io.Reader, name string, opt source.Options, emit func(*episode.Episode)) *source.Result {
	res := &source.Result{}
	readRun(r, name, opt.WithDefaults(), res, emit)
	return res
}

// Dir reads the runs of a directory.
type Dir struct{}

func (Dir) Format() string { return Format }

// Names says what ClaimsDir takes.
func (Dir) Names() []string {
	return []string{"Terminal-Bench run directories (results.json, *_results.json)"}
}

// ClaimsDir takes a directory that holds a run's results: results.json, or
// (goose's submissions) <run>_results.json, that begins as one.
func (Dir) ClaimsDir(dir string) bool { return len(runFiles(dir)) > 0 }

// Marks takes the names of a run's results.
func (Dir) Marks(name string) bool {
	return name == "results.json" || strings.HasSuffix(name, "_results.json")
}

// runFiles are the results files of runs in dir, in name order.
func runFiles(dir string) []string {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil
	}
	var out []string
	for _, e := range entries {
		if n := e.Name(); (Dir{}).Marks(n) && e.Type().IsRegular() && trials(head(filepath.Join(dir, n))) {
			out = append(out, filepath.Join(dir, n))
		}
	}
	return out
}

func head(path string) []byte {
	f, err := os.Open(path)
	if err != nil {
		return nil
	}
	defer f.Close()
	b := make([]byte, source.HeadSize)
	n, _ := io.ReadFull(f, b)
	return b[:n]
}

// ReadDir reads every run's results in dir.
func (Dir) ReadDir(dir string, opt source.Options, emit func(*episode.Episode)) *source.Result {
	opt = opt.WithDefaults()
	res := &source.Result{}
	for _, path := range runFiles(dir) {
		rc, err := jsonl.Open(path, nil, opt.Limits)
		if err != nil {
			res.Problems = append(res.Problems, episode.Problem{Msg: err.Error(), File: path})
			continue
		}
		readRun(rc, path, opt, res, emit)
		rc.Close()
	}
	return res
}

// maxTrial bounds a trial's record: its instruction is the task's text.
const maxTrial = 16 << 20

// trial is what lbanalyze reads of a trial's record.
type trial struct {
	ID             *string `json:"id"`
	UUID           *string `json:"uuid"`
	TrialName      *string `json:"trial_name"`
	TaskID         *string `json:"task_id"`
	IsResolved     *bool   `json:"is_resolved"`
	FailureMode    *string `json:"failure_mode"`
	InputTokens    *int64  `json:"total_input_tokens"`
	OutputTokens   *int64  `json:"total_output_tokens"`
	TrialStartedAt *string `json:"trial_started_at"`
	AgentStartedAt *string `json:"agent_started_at"`
	AgentEndedAt   *string `json:"agent_ended_at"`
}

// metadata is what lbanalyze reads of run_metadata.json beside a run.
type metadata struct {
	RunID     *string `json:"run_id"`
	AgentName *string `json:"agent_name"`
	ModelName *string `json:"model_name"`
}

// readRun streams one run's results into res: one episode a record.
func readRun(r io.Reader, path string, opt source.Options, res *source.Result, emit func(*episode.Episode)) {
	meta := readMetadata(path)
	d := source.NewDocument(r, maxTrial)
	err := d.Object(func(key string) error {
		if key != "results" {
			return d.Skip()
		}
		return d.Values(func(raw []byte, line int) {
			res.Segments++
			ep, why := read(raw, path, meta)
			if ep == nil {
				res.Rejected = append(res.Rejected, source.Rejected{Segment: res.Segments, Reason: fmt.Sprintf("%s:%d: %s", path, line, why)})
				return
			}
			ep.Segment = res.Segments
			emit(ep)
		})
	})
	d.Close(err, res, path)
}

// readMetadata reads run_metadata.json beside the run's results, if there.
func readMetadata(path string) metadata {
	var m metadata
	if path == jsonl.StdinName {
		return m
	}
	data, err := filekind.ReadSmall(filepath.Join(filepath.Dir(path), "run_metadata.json"), 1<<20)
	if err == nil {
		jsonl.Decode(data, &m)
	}
	return m
}

// ends are how a trial ends, by its failure_mode: the agent's time cap
// (the task's max_agent_timeout_sec) ended it; the agent failed; or it
// ended and its tests gave no verdict, or they did.
var ends = map[string]episode.End{
	"unset":                     {Reason: episode.EndGameOver, Detail: "the agent finished and the tests ran"},
	"agent_timeout":             {Reason: episode.EndCap, Detail: "the task's agent time cap (agent_timeout)"},
	"test_timeout":              {Reason: episode.EndGameOver, Detail: "the agent finished; its tests timed out (test_timeout)"},
	"parse_error":               {Reason: episode.EndGameOver, Detail: "the agent finished; its tests' output could not be parsed (parse_error)"},
	"unknown_agent_error":       {Reason: episode.EndException, Detail: "the agent failed (unknown_agent_error)"},
	"agent_installation_failed": {Reason: episode.EndException, Detail: "the agent could not be installed (agent_installation_failed)"},
}

// read is the episode of one trial record, or nil and why it cannot be
// read.
func read(raw []byte, path string, meta metadata) (*episode.Episode, string) {
	var tr trial
	if _, err := jsonl.Decode(raw, &tr); err != nil {
		return nil, "not a trial's record: " + err.Error()
	}
	id := first(tr.ID, tr.UUID, tr.TrialName)
	if id == "" {
		return nil, "a trial without an id, uuid or trial_name"
	}
	ep := &episode.Episode{ID: source.Text(id), Source: path, Format: Format}
	source.AddFact(ep, "model", source.Text(first(meta.ModelName)))
	source.AddFact(ep, "agent", source.Text(first(meta.AgentName)))
	source.AddFact(ep, "task", source.Text(first(tr.TaskID)))
	source.AddFact(ep, "trial", source.Text(first(tr.TrialName)))
	if tr.AgentStartedAt == nil {
		timesBeside(&tr, path)
	}
	duration, why := agentTime(&tr)
	neverRan := tr.AgentStartedAt == nil && tr.TrialStartedAt != nil // the trial began, its agent never did
	ticks(ep, duration, why == "" || neverRan)
	switch {
	case neverRan:
		ep.Notes = append(ep.Notes, "the trial began but its agent never did (no agent_started_at): it ran 0 s")
	case why != "":
		ep.Notes = append(ep.Notes, "the agent's time is not known ("+why+"): the trial is one tick, and no time cap replays on it")
	}
	if in, out := deref(tr.InputTokens), deref(tr.OutputTokens); in > 0 || out > 0 {
		if sum, ok := source.TokenSum(in, out); ok {
			ep.Turns[ep.N()-1].Tokens = sum
			ep.Signals = ep.Signals.With(episode.Tokens)
			ep.Estimated = ep.Estimated.With(episode.Tokens)
			ep.Notes = append(ep.Notes, fmt.Sprintf("tokens: the trial's %d (input and output) as one count, on its last tick", sum))
		} else {
			ep.Notes = append(ep.Notes, fmt.Sprintf("tokens: the trial gives %d input and %d output, past the %d a run may have: not counted", in, out, int64(source.MaxTokens)))
		}
	}
	var result *episode.Score
	if tr.IsResolved != nil {
		r := episode.Score(0)
		if *tr.IsResolved {
			r = 1
		}
		result = &r
	}
	ep.SetResult(result)
	mode := first(tr.FailureMode)
	if e, ok := ends[mode]; ok {
		ep.End = e
	} else {
		ep.End = episode.End{Reason: episode.EndNone, Detail: "failure_mode " + source.Text(mode)}
	}
	ep.End.Turn = ep.N()
	return ep, ""
}

// timesBeside reads the agent's times from the trial's own results.json,
// <run>/<task_id>/<trial_name>/results.json, when the run's record lacks
// them.
func timesBeside(tr *trial, path string) {
	if tr.TaskID == nil || tr.TrialName == nil || path == jsonl.StdinName ||
		strings.ContainsAny(*tr.TaskID+*tr.TrialName, `/\`) || slices.Contains([]string{".", ".."}, *tr.TaskID) || slices.Contains([]string{".", ".."}, *tr.TrialName) {
		return
	}
	data, err := filekind.ReadSmall(filepath.Join(filepath.Dir(path), *tr.TaskID, *tr.TrialName, "results.json"), maxTrial)
	if err != nil || !bytes.Contains(data, []byte("agent_started_at")) {
		return
	}
	var own trial
	if _, err := jsonl.Decode(data, &own); err == nil {
		tr.AgentStartedAt, tr.AgentEndedAt = own.AgentStartedAt, own.AgentEndedAt
	}
}

// maxAgentTime bounds a trial's agent time: a day, far above any task's
// cap; past it a record's times are taken as corrupt.
const maxAgentTime = 24 * 3600

// agentTime is the seconds from agent_started_at to agent_ended_at, or why
// it is not known.
func agentTime(tr *trial) (float64, string) {
	if tr.AgentStartedAt == nil || tr.AgentEndedAt == nil {
		return 0, "no agent_started_at and agent_ended_at"
	}
	start, err1 := time.Parse(time.RFC3339Nano, *tr.AgentStartedAt)
	end, err2 := time.Parse(time.RFC3339Nano, *tr.AgentEndedAt)
	if err1 != nil || err2 != nil {
		return 0, "agent_started_at or agent_ended_at is not a time"
	}
	d := end.Sub(start).Seconds()
	if d < 0 || d > maxAgentTime || math.IsNaN(d) {
		return 0, fmt.Sprintf("the agent ran %.0f s, which no trial does", d)
	}
	return d, ""
}

// ticks makes the trial's turns: one a Tick of the agent's time, the last
// ending when the agent did (one, at 0 s, for an agent that never ran);
// timed says the time is known: else one tick of unknown length, without
// Times.
func ticks(ep *episode.Episode, duration float64, timed bool) {
	ep.Tick = Tick
	n := max(1, int(math.Ceil(duration/Tick)))
	ep.Turns = make([]episode.Turn, n)
	if !timed {
		return
	}
	for i := range ep.Turns {
		ep.Turns[i].Elapsed = min(float64(i+1)*Tick, duration)
	}
	ep.Signals = ep.Signals.With(episode.Times)
}

func first(ss ...*string) string {
	for _, s := range ss {
		if s != nil && *s != "" {
			return *s
		}
	}
	return ""
}

func deref(n *int64) int64 {
	if n == nil || *n < 0 {
		return 0
	}
	return *n
}
