// Package atif is the source of ATIF trajectories (the Agent Trajectory
// Interchange Format, Harbor's RFC 0001, schema versions ATIF-v1.0 to
// v1.7): one JSON document a run, its agent's steps the turns, judged by the
// verifier's result of the Harbor trial it lies in, when it is there
// (docs/sources.md, "ATIF trajectories").
package atif

import (
	"bytes"
	"fmt"
	"io"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/cespare/xxhash/v2"
	"github.com/goccy/go-json/jsontext"

	"github.com/lbanalyze/lbanalyze/episode"
	"github.com/lbanalyze/lbanalyze/internal/filekind"
	"github.com/lbanalyze/lbanalyze/jsonl"
	"github.com/lbanalyze/lbanalyze/source"
)

// Format is the log_format of ATIF trajectories.
const Format = "atif"

// Source reads ATIF trajectories.
type Source struct{}

func (Source) Format() string { return Format }

// Opens takes the names trajectories are written under: Harbor's
// trajectory.json (in a trial's agent directory), and *.trajectory.json,
// *.atif.json.
func (Source) Opens(name string) bool {
	return name == "trajectory.json" || strings.HasSuffix(name, ".trajectory.json") || strings.HasSuffix(name, ".atif.json")
}

// Names are the names Opens takes.
func (Source) Names() []string {
	return []string{"trajectory.json", "*.trajectory.json", "*.atif.json"}
}

// Claims takes an object whose schema_version, among its first members,
// is an ATIF version.
func (Source) Claims(head []byte) bool {
	found := false
	jsonl.ScanHead(head, func(k, v []byte) bool {
		if string(jsonl.Unescape(k)) == "schema_version" {
			found = bytes.HasPrefix(v, []byte(`"ATIF-v`))
			return false
		}
		return true
	})
	return found
}

// maxStep bounds one step: a step's message and observation hold what the
// agent read and wrote, a screenshot's base64 included.
const maxStep = 64 << 20

// agent is the trajectory's agent.
type agent struct {
	Name      *string `json:"name"`
	ModelName *string `json:"model_name"`
}

// step is what lbanalyze reads of a step.
type step struct {
	Source    string         `json:"source"`
	Timestamp *string        `json:"timestamp"`
	Message   jsontext.Value `json:"message"`
	ToolCalls []struct {
		FunctionName string         `json:"function_name"`
		Arguments    jsontext.Value `json:"arguments"`
	} `json:"tool_calls"`
	Observation *struct {
		Results []struct {
			Content jsontext.Value `json:"content"`
		} `json:"results"`
	} `json:"observation"`
	Metrics *struct {
		PromptTokens     *int64   `json:"prompt_tokens"`
		CompletionTokens *int64   `json:"completion_tokens"`
		CostUSD          *float64 `json:"cost_usd"`
	} `json:"metrics"`
}

// reading is the trajectory as it is read.
type reading struct {
	ep                      *episode.Episode
	start                   time.Time
	started                 bool
	untimed, uncosted, bare int // agent steps without a time, a cost, tokens
	problems                source.Problems
}

// Read streams the trajectory r: its steps one at a time.
func (Source) Read(r io.Reader, name string, opt source.Options, emit func(*episode.Episode)) *source.Result {
	opt = opt.WithDefaults()
	res := &source.Result{Segments: 1}
	rd := &reading{ep: &episode.Episode{Source: name, Format: Format, Segment: 1}}
	rd.problems.Max = opt.MaxProblems
	d := source.NewDocument(r, maxStep)
	var session, version string
	err := d.Object(func(key string) error {
		switch key {
		case "session_id", "trajectory_id", "schema_version":
			s, err := text(d)
			if key == "schema_version" {
				version = s
			} else if key == "session_id" || session == "" {
				session = s
			}
			return err
		case "agent":
			return rd.agent(d)
		case "steps":
			return d.Values(rd.step)
		}
		return d.Skip()
	})
	d.Close(err, res, "")
	ep := rd.ep
	rd.problems.Set(ep)
	if ep.N() == 0 {
		res.Rejected = []source.Rejected{{Segment: 1, Reason: "no step of source agent: nothing to replay"}}
		return res
	}
	ep.ID, ep.IDFromPath = source.RunID(session, opt, name)
	if version != "" {
		v := source.Text(version)
		ep.Facts = append(ep.Facts, episode.Fact{Key: "schema_version", Value: &v, Text: v})
	}
	rd.signals()
	judge(ep, name)
	emit(ep)
	return res
}

// text reads a string value ("" for another).
func text(d *source.Document) (string, error) {
	raw, err := d.Value()
	if err != nil {
		return "", err
	}
	var s string
	jsonl.Decode(raw, &s)
	return s, nil
}

func (rd *reading) agent(d *source.Document) error {
	raw, err := d.Value()
	if err != nil {
		return err
	}
	var a agent
	if _, err := jsonl.Decode(raw, &a); err == nil {
		for _, f := range []struct {
			key string
			v   *string
		}{{"model", a.ModelName}, {"agent", a.Name}} {
			if f.v != nil {
				source.AddFact(rd.ep, f.key, source.Text(*f.v))
			}
		}
	}
	return nil
}

// step reads one step: an agent's a turn; every step's time, the first's
// the run's start.
func (rd *reading) step(raw []byte, line int) {
	var s step
	if _, err := jsonl.Decode(raw, &s); err != nil {
		rd.problems.Add(line, true, "not a step: %v", err)
		return
	}
	at, timed := time.Time{}, false
	if s.Timestamp != nil {
		if t, err := time.Parse(time.RFC3339Nano, *s.Timestamp); err == nil {
			at, timed = t, true
			if !rd.started {
				rd.start, rd.started = t, true
			}
		}
	}
	if s.Source != "agent" {
		return
	}
	if rd.ep.N() >= source.MaxTurn {
		rd.problems.Add(line, true, "a step past the %d-th agent step: skipped", source.MaxTurn)
		return
	}
	t := episode.Turn{Action: action(&s)}
	var out strings.Builder
	if s.Observation != nil {
		for _, r := range s.Observation.Results {
			out.WriteString(content(r.Content))
			out.WriteByte('\n')
		}
	}
	t.ResponseHash = xxhash.Sum64String(out.String())
	if timed && at.Before(rd.start) { // a bad value: said, not used (docs/bad-input.md, "Every case")
		rd.problems.Add(line, false, "step timed %s, before the first step (%s): its time is not used",
			at.Format(time.RFC3339Nano), rd.start.Format(time.RFC3339Nano))
		timed = false
	}
	if timed {
		t.Elapsed = at.Sub(rd.start).Seconds()
	} else {
		rd.untimed++
	}
	m := s.Metrics
	if m != nil && m.CostUSD != nil {
		t.Cost = *m.CostUSD
	} else {
		rd.uncosted++
	}
	n, ok := int64(0), false
	if m != nil && m.PromptTokens != nil && m.CompletionTokens != nil {
		n, ok = source.TokenSum(*m.PromptTokens, *m.CompletionTokens) // cached tokens are among the prompt's
	}
	if ok {
		t.Tokens = n
	} else {
		rd.bare++
	}
	rd.ep.Turns = append(rd.ep.Turns, t)
}

// action is what an agent step did: its tool calls, one a line, else its
// message.
func action(s *step) string {
	if len(s.ToolCalls) == 0 {
		return source.Text(strings.TrimSpace(content(s.Message)))
	}
	calls := make([]string, len(s.ToolCalls))
	for i, c := range s.ToolCalls {
		calls[i] = source.ToolCall(c.FunctionName, c.Arguments)
	}
	return source.Text(strings.Join(calls, "\n"))
}

// content is a message or a result's content as text: a string, or (from
// ATIF-v1.6) the text of its parts, an image by its source.
func content(v jsontext.Value) string {
	switch v.Kind() {
	case '"':
		var s string
		jsonl.Decode(v, &s)
		return s
	case '[':
		var parts []struct {
			Type   string         `json:"type"`
			Text   *string        `json:"text"`
			Source jsontext.Value `json:"source"`
		}
		jsonl.Decode(v, &parts)
		var b strings.Builder
		for _, p := range parts {
			if p.Text != nil {
				b.WriteString(*p.Text)
			} else {
				b.WriteString(p.Type + " " + string(p.Source))
			}
			b.WriteByte('\n')
		}
		return b.String()
	}
	return ""
}

// signals says which signals every agent step records.
func (rd *reading) signals() {
	ep := rd.ep
	ep.Signals = ep.Signals.With(episode.Actions, episode.Responses)
	for _, s := range []struct {
		lacking int
		signal  episode.Signal
		what    string
	}{{rd.untimed, episode.Times, "timestamp at or after the first step's"}, {rd.uncosted, episode.Costs, "metrics.cost_usd"}, {rd.bare, episode.Tokens, "metrics.prompt_tokens and completion_tokens"}} {
		switch {
		case s.lacking == 0:
			ep.Signals = ep.Signals.With(s.signal)
		case s.lacking < ep.N():
			ep.Notes = append(ep.Notes, fmt.Sprintf("%d of the %d agent steps have no %s: the trajectory's %s are not known", s.lacking, ep.N(), s.what, s.signal))
		}
	}
}

// trialResult is what lbanalyze reads of a Harbor trial's result.json.
type trialResult struct {
	TaskName       *string `json:"task_name"`
	VerifierResult *struct {
		Rewards *struct {
			Reward *float64 `json:"reward"`
		} `json:"rewards"`
	} `json:"verifier_result"`
	ExceptionInfo *struct {
		ExceptionType *string `json:"exception_type"`
	} `json:"exception_info"`
}

// judge gives the run its result, from the Harbor trial directory the
// trajectory lies in (<trial>/agent/trajectory.json): its verifier's
// reward.txt, else reward.json, else the trial's result.json; unknown
// without them. The trial's exception says how the run ended: Harbor's
// AgentTimeoutError is its time cap.
func judge(ep *episode.Episode, path string) {
	var result *episode.Score
	trial := ""
	if path != jsonl.StdinName {
		trial = filepath.Dir(filepath.Dir(path))
		if filepath.Base(filepath.Dir(path)) != "agent" {
			trial = filepath.Dir(path)
		}
	}
	var tr trialResult
	if trial != "" {
		if data, err := filekind.ReadSmall(filepath.Join(trial, "result.json"), 16<<20); err == nil {
			jsonl.Decode(data, &tr)
		}
		result = reward(trial)
	}
	if result == nil && tr.VerifierResult != nil && tr.VerifierResult.Rewards != nil && tr.VerifierResult.Rewards.Reward != nil {
		r := episode.Score(*tr.VerifierResult.Rewards.Reward)
		result = &r
	}
	if tr.TaskName != nil {
		v := source.Text(*tr.TaskName)
		ep.Facts = append(ep.Facts, episode.Fact{Key: "task", Value: &v, Text: "task " + v})
	}
	ep.SetResult(result)
	switch {
	case tr.ExceptionInfo != nil && tr.ExceptionInfo.ExceptionType != nil && *tr.ExceptionInfo.ExceptionType == "AgentTimeoutError":
		ep.End = episode.End{Reason: episode.EndCap, Turn: ep.N(), Detail: "Harbor's agent time cap (AgentTimeoutError)"}
	case tr.ExceptionInfo != nil && tr.ExceptionInfo.ExceptionType != nil:
		ep.End = episode.End{Reason: episode.EndException, Turn: ep.N(), Detail: source.Text(*tr.ExceptionInfo.ExceptionType)}
	case result != nil:
		ep.End = episode.End{Reason: episode.EndGameOver, Turn: ep.N(), Detail: "the agent finished and the verifier ran"}
	default:
		ep.End = episode.End{Reason: episode.EndNone}
		ep.Notes = append(ep.Notes, "no verifier result beside the trajectory (a Harbor trial's verifier/reward.txt or result.json): its result, and so every stop on it, is unknown")
	}
}

// reward reads the verifier's reward in trial: reward.txt, a number, or
// reward.json, {"reward": number}; nil without one.
func reward(trial string) *episode.Score {
	if data, err := filekind.ReadSmall(filepath.Join(trial, "verifier", "reward.txt"), 1<<10); err == nil {
		if v, err := strconv.ParseFloat(strings.TrimSpace(string(data)), 64); err == nil && v == v {
			r := episode.Score(v)
			return &r
		}
	}
	if data, err := filekind.ReadSmall(filepath.Join(trial, "verifier", "reward.json"), 1<<20); err == nil {
		var r struct {
			Reward *float64 `json:"reward"`
		}
		if _, err := jsonl.Decode(data, &r); err == nil && r.Reward != nil {
			s := episode.Score(*r.Reward)
			return &s
		}
	}
	return nil
}
