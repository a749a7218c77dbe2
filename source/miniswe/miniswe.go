// Package miniswe is the source of mini-swe-agent's trajectories
// (SWE-agent/mini-swe-agent, DefaultAgent.save: *.traj.json, trajectory_format
// mini-swe-agent-1.x): one JSON document a run, a step a model call, judged
// by a SWE-bench evaluation report when one is given (docs/sources.md,
// "mini-swe-agent").
package miniswe

import (
	"bytes"
	"fmt"
	"io"
	"regexp"
	"strconv"
	"strings"

	"github.com/cespare/xxhash/v2"

	"github.com/lbanalyze/lbanalyze/episode"
	"github.com/lbanalyze/lbanalyze/internal/filekind"
	"github.com/lbanalyze/lbanalyze/jsonl"
	"github.com/lbanalyze/lbanalyze/source"
)

// Format is the log_format of mini-swe-agent's trajectories.
const Format = "mini-swe-agent"

// Source reads mini-swe-agent's trajectories; Outcomes, when not nil, are
// the results of a SWE-bench evaluation by instance id (LoadOutcomes).
type Source struct {
	Outcomes Outcomes
}

func (Source) Format() string { return Format }

// Opens takes the names mini-swe-agent saves under: <instance>.traj.json,
// and Harbor's copy, mini-swe-agent.trajectory.json.
func (Source) Opens(name string) bool {
	return strings.HasSuffix(name, ".traj.json") || name == "mini-swe-agent.trajectory.json"
}

// Names are the names Opens takes.
func (Source) Names() []string { return []string{"*.traj.json"} }

// Claims takes an object whose trajectory_format, as far as the head
// shows it, is mini-swe-agent-1.x; or whose info has an exit_status and
// whose messages follow (the format is written last).
func (Source) Claims(head []byte) bool {
	claimed := false
	jsonl.ScanHead(head, func(k, v []byte) bool {
		if string(jsonl.Unescape(k)) == "trajectory_format" {
			claimed = bytes.HasPrefix(v, []byte(`"mini-swe-agent-1`))
			return false
		}
		return true
	})
	if claimed {
		return true
	}
	info := source.HeadObject(head, "info")
	top := source.HeadObject(head)
	return info["exit_status"] && (info["mini_version"] || info["model_stats"]) && top["messages"]
}

// maxMessage bounds one message: a model's response is kept whole in its
// extra.
const maxMessage = 64 << 20

// message is what lbanalyze reads of a message.
type message struct {
	Role    string `json:"role"`
	Content any    `json:"content"`
	Extra   *struct {
		Cost    *float64 `json:"cost"`
		Actions []struct {
			Command *string `json:"command"`
		} `json:"actions"`
		Returncode    *int64 `json:"returncode"`
		ExceptionInfo any    `json:"exception_info"`
	} `json:"extra"`
}

// info is what lbanalyze reads of a trajectory's info.
type info struct {
	ExitStatus *string `json:"exit_status"`
	Config     *struct {
		Model *struct {
			ModelName *string `json:"model_name"`
		} `json:"model"`
	} `json:"config"`
}

// run is a trajectory as it is read.
type run struct {
	ep       *episode.Episode
	instance string
	info     info
	costless int
	coded    bool // some observation shows its return code
	problems source.Problems
}

// Read streams the trajectory r, a message at a time.
func (s Source) Read(r io.Reader, name string, opt source.Options, emit func(*episode.Episode)) *source.Result {
	opt = opt.WithDefaults()
	res := &source.Result{Segments: 1}
	rn := &run{ep: &episode.Episode{Source: name, Format: Format, Segment: 1}}
	rn.problems.Max = opt.MaxProblems
	d := source.NewDocument(r, maxMessage)
	err := d.Object(func(key string) error {
		switch key {
		case "messages":
			return d.Values(rn.message)
		case "info":
			raw, err := d.Value()
			if err == nil {
				jsonl.Decode(raw, &rn.info)
			}
			return err
		case "instance_id":
			raw, err := d.Value()
			var v string
			if err == nil {
				jsonl.Decode(raw, &v)
			}
			rn.instance = v
			return err
		}
		return d.Skip()
	})
	d.Close(err, res, "")
	ep := rn.ep
	rn.problems.Set(ep)
	if ep.N() == 0 {
		res.Rejected = []source.Rejected{{Segment: 1, Reason: "no message of role assistant: nothing to replay"}}
		return res
	}
	rn.finish(name, opt, s.Outcomes)
	emit(ep)
	return res
}

// message reads one message: an assistant's is a step, the observations
// after it (role user or tool, with a returncode) what it produced.
func (rn *run) message(raw []byte, line int) {
	var m message
	if _, err := jsonl.Decode(raw, &m); err != nil {
		rn.problems.Add(line, true, "not a message: %v", err)
		return
	}
	ep := rn.ep
	switch {
	case m.Role == "assistant":
		if ep.N() >= source.MaxTurn {
			rn.problems.Add(line, true, "a step past the %d-th: skipped", source.MaxTurn)
			return
		}
		t := episode.Turn{Action: action(&m)}
		if m.Extra != nil && m.Extra.Cost != nil {
			t.Cost = *m.Extra.Cost
		} else {
			rn.costless++
		}
		ep.Turns = append(ep.Turns, t)
	case ep.N() > 0 && (m.Role == "user" || m.Role == "tool"):
		t := &ep.Turns[ep.N()-1]
		c := text(m.Content)
		t.ResponseHash = chain(t.ResponseHash, c)
		code, known := returncode(&m, c)
		rn.coded = rn.coded || known
		t.Errored = t.Errored || known && code != 0 || m.Extra != nil && m.Extra.ExceptionInfo != nil
	}
}

// chain is the hash of the observations of a step so far, h, followed by
// one more, c: the hash of h in hexadecimal, a newline and c, hashed as
// they stream, never copied.
func chain(h uint64, c string) uint64 {
	d := xxhash.New()
	var hex [16]byte
	d.Write(strconv.AppendUint(hex[:0], h, 16))
	d.WriteString("\n")
	d.WriteString(c)
	return d.Sum64()
}

// codeTag is the return code an observation's text shows (mini-swe-agent's
// templates write <returncode>N</returncode>).
var codeTag = regexp.MustCompile(`<returncode>(-?[0-9]+)</returncode>`)

// returncode is the return code of an observation: its extra's, else its
// text's; false when it shows none.
func returncode(m *message, c string) (int64, bool) {
	if m.Extra != nil && m.Extra.Returncode != nil {
		return *m.Extra.Returncode, true
	}
	if g := codeTag.FindStringSubmatch(c); g != nil {
		n, err := strconv.ParseInt(g[1], 10, 64)
		return n, err == nil
	}
	return 0, false
}

// block is a command in a model's text, as mini-swe-agent's text actions
// parse it (a fenced bash block).
var block = regexp.MustCompile("(?s)```(?:bash|mswea_bash_command)\\s*\\n(.*?)\\n```")

// action is a step's commands, one a line: its parsed actions, else the
// fenced command of its text, else its text.
func action(m *message) string {
	var cmds []string
	if m.Extra != nil {
		for _, a := range m.Extra.Actions {
			if a.Command != nil {
				cmds = append(cmds, strings.TrimSpace(*a.Command))
			}
		}
	}
	if len(cmds) == 0 {
		c := text(m.Content)
		for _, b := range block.FindAllStringSubmatch(c, -1) {
			cmds = append(cmds, strings.TrimSpace(b[1]))
		}
		if len(cmds) == 0 {
			cmds = []string{strings.TrimSpace(c)}
		}
	}
	return source.Text(strings.Join(cmds, "\n"))
}

// text is a message's content: a string, or the text of its parts.
func text(c any) string {
	switch v := c.(type) {
	case string:
		return v
	case []any:
		var b strings.Builder
		for _, p := range v {
			if o, ok := p.(map[string]any); ok {
				if s, ok := o["text"].(string); ok {
					b.WriteString(s)
					b.WriteByte('\n')
				}
			}
		}
		return b.String()
	}
	return ""
}

// finish names the run, says its signals, how it ended and its result.
func (rn *run) finish(name string, opt source.Options, outcomes Outcomes) {
	ep := rn.ep
	ep.ID, ep.IDFromPath = source.RunID(rn.instance, opt, name)
	if rn.instance != "" {
		v := source.Text(rn.instance)
		ep.Facts = append(ep.Facts, episode.Fact{Key: "task", Value: &v, Text: "instance " + v})
	}
	if c := rn.info.Config; c != nil && c.Model != nil && c.Model.ModelName != nil {
		v := source.Text(*c.Model.ModelName)
		ep.Facts = append(ep.Facts, episode.Fact{Key: "model", Value: &v, Text: "model " + v})
	}
	ep.Signals = ep.Signals.With(episode.Actions, episode.Responses)
	if rn.coded {
		ep.Signals = ep.Signals.With(episode.Errors)
	}
	if rn.costless == 0 {
		ep.Signals = ep.Signals.With(episode.Costs)
	} else if rn.costless < ep.N() {
		ep.Notes = append(ep.Notes, fmt.Sprintf("%d of the %d steps record no extra.cost: the run's dollars are not known", rn.costless, ep.N()))
	}
	status := ""
	if rn.info.ExitStatus != nil {
		status = *rn.info.ExitStatus
	}
	var result *episode.Score
	switch r, ok := outcomes[rn.instance]; {
	case ok:
		result = r
	case status == "LimitsExceeded" || status == "TimeExceeded":
		zero := episode.Score(0) // nothing submitted: the instance is not resolved
		result = &zero
	case outcomes == nil:
		ep.Notes = append(ep.Notes, "no SWE-bench evaluation given (--outcomes): the run's result, and so every stop on it, is unknown")
	default:
		ep.Notes = append(ep.Notes, fmt.Sprintf("instance %q is not in the evaluation given (--outcomes): its result is unknown", rn.instance))
	}
	ep.SetResult(result)
	switch status {
	case "Submitted":
		ep.End = episode.End{Reason: episode.EndGameOver, Turn: ep.N(), Detail: "the agent submitted"}
	case "LimitsExceeded":
		ep.End = episode.End{Reason: episode.EndCap, Turn: ep.N(), Detail: "mini-swe-agent's step_limit or cost_limit (LimitsExceeded)"}
	case "TimeExceeded":
		ep.End = episode.End{Reason: episode.EndCap, Turn: ep.N(), Detail: "mini-swe-agent's wall_time_limit_seconds (TimeExceeded)"}
	case "":
		ep.End = episode.End{Reason: episode.EndNone}
	default:
		ep.End = episode.End{Reason: episode.EndException, Turn: ep.N(), Detail: source.Text(status)}
	}
}

// Outcomes are the results of a SWE-bench evaluation by instance id: 1
// resolved, 0 not (an empty patch among them), nil an error (unknown).
type Outcomes map[string]*episode.Score

// LoadOutcomes reads a SWE-bench evaluation report (the harness's
// <model>.<run_id>.json: resolved_ids, unresolved_ids, empty_patch_ids,
// error_ids).
func LoadOutcomes(path string) (Outcomes, error) {
	data, err := filekind.ReadSmall(path, 256<<20)
	if err != nil {
		return nil, err
	}
	var rep struct {
		Resolved   []string `json:"resolved_ids"`
		Unresolved []string `json:"unresolved_ids"`
		Empty      []string `json:"empty_patch_ids"`
		Errors     []string `json:"error_ids"`
	}
	if _, err := jsonl.Decode(data, &rep); err != nil {
		return nil, fmt.Errorf("%s: not a SWE-bench evaluation report: %v", path, err)
	}
	if rep.Resolved == nil && rep.Unresolved == nil && rep.Empty == nil {
		return nil, fmt.Errorf("%s: not a SWE-bench evaluation report: no resolved_ids, unresolved_ids or empty_patch_ids", path)
	}
	one, zero := episode.Score(1), episode.Score(0)
	out := Outcomes{}
	for _, id := range rep.Errors {
		out[id] = nil
	}
	for _, ids := range [][]string{rep.Unresolved, rep.Empty} {
		for _, id := range ids {
			out[id] = &zero
		}
	}
	for _, id := range rep.Resolved {
		out[id] = &one
	}
	return out, nil
}
