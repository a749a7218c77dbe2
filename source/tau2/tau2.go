// Package tau2 is the source of τ²-bench's results files
// (sierra-research/tau2-bench): one JSON document of many simulations, each
// an episode judged by its reward (docs/sources.md, "tau2-bench").
package tau2

import (
	"bytes"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/cespare/xxhash/v2"
	"github.com/goccy/go-json/jsontext"

	"github.com/lbanalyze/lbanalyze/episode"
	"github.com/lbanalyze/lbanalyze/jsonl"
	"github.com/lbanalyze/lbanalyze/source"
)

// Format is the log_format of τ²-bench's results.
const Format = "tau2"

// Source reads τ²-bench's results files.
type Source struct{}

func (Source) Format() string { return Format }

// Opens takes a JSON file: τ²-bench names its results after the run
// (airline.json, <agent>_<domain>_<model>_<trials>trials.json); but the
// names other logs' layouts give the JSON beside them, which a walk would
// otherwise open and find no log in: BALROG's summary
// (<task>_run_NN.json), Terminal-Bench's results and metadata, Harbor's
// trial result, config and reward, and terminus's debug.json.
func (Source) Opens(name string) bool {
	return strings.HasSuffix(name, ".json") && !beside.MatchString(name)
}

var beside = regexp.MustCompile(`_run_[0-9]+\.json$|^(results|run_metadata|result|config|trajectory|reward|debug)\.json$|_results\.json$|\.traj\.json$`)

// Names are the names Opens takes.
func (Source) Names() []string { return []string{"*.json"} }

// Claims takes the three shapes of a results file: tau2's own, an object
// whose info has max_steps and the agent's or user's info; a bare list of
// simulations; or an object whose simulations list begins with one. A
// simulation is an object with a task_id and a reward_info or a
// termination_reason.
func (Source) Claims(head []byte) bool {
	if info := source.HeadObject(head, "info"); info["max_steps"] && (info["agent_info"] || info["user_info"]) {
		return true
	}
	return simulation(source.HeadObject(head, "[]")) || simulation(source.HeadObject(head, "simulations", "[]"))
}

func simulation(keys map[string]bool) bool {
	return keys["task_id"] && (keys["reward_info"] || keys["termination_reason"]) && !keys["steps"]
}

// maxSimulation bounds one simulation: the largest real one is some 300 KB,
// its provider responses (raw_data) included.
const maxSimulation = 64 << 20

// results is what a results file says of all its simulations.
type results struct {
	model, domain string
}

// info is the members of a results file's info that lbanalyze reads.
type info struct {
	AgentInfo *struct {
		LLM *string `json:"llm"`
	} `json:"agent_info"`
	EnvironmentInfo *struct {
		DomainName *string `json:"domain_name"`
	} `json:"environment_info"`
}

// Read streams the results file r: each simulation is read alone and handed
// over as one episode. A scan reads what it is sure of (scan.go); from the
// first value it is not, goccy/go-json reads the rest (readDocument).
func (Source) Read(r io.Reader, name string, _ source.Options, emit func(*episode.Episode)) *source.Result {
	res := &source.Result{}
	sc := newScan(r, name, res, emit)
	h := sc.read()
	if h == nil {
		return res
	}
	run := sc.run // the scan's buffer is let go once goccy/go-json has read what it holds
	d := source.ResumeDocument(h.rest, maxSimulation, h.prefix, h.at, h.lines)
	readDocument(d, h.from, &run, res, name, emit)
	return res
}

// resume is where in a document goccy/go-json takes over: the start, the
// outer object's members, the simulations (past a stand-in first element:
// a simulation the scan read), or what follows the document.
type resume uint8

const (
	fromStart resume = iota
	fromMembers
	fromSimulations
	fromPastSimulation
	fromEnd
)

// readDocument reads the document d with goccy/go-json from where from
// says, each simulation decoded alone.
func readDocument(d *source.Document, from resume, run *results, res *source.Result, name string, emit func(*episode.Episode)) {
	sims := func() error {
		return d.Array(func() error {
			if from == fromPastSimulation {
				from = fromSimulations
				return d.Skip()
			}
			res.Segments++
			line := d.Line()
			var s sim
			err := d.Decode(&s)
			var bad *source.BadValue
			if errors.As(err, &bad) {
				res.Rejected = append(res.Rejected, source.Rejected{Segment: res.Segments, Reason: fmt.Sprintf("line %d: not a simulation: %v", line, bad.Err)})
				return nil
			} else if err != nil {
				return err
			}
			hand(&s, *run, name, res, line, emit)
			return nil
		})
	}
	var err error
	switch k := d.Kind(); {
	case from == fromEnd:
	case k == '[':
		err = sims()
	case k == '{':
		err = d.Object(func(key string) error {
			switch key {
			case "simulations":
				return sims()
			case "info", "model", "domain":
				raw, err := d.Value()
				if err == nil {
					run.member(key, raw)
				}
				return err
			}
			return d.Skip()
		})
	default:
		err = fmt.Errorf("line 1: not a JSON object or array")
	}
	d.Close(err, res, "")
}

// hand hands over the episode of simulation s, which begins on line
// line, or says why there is none.
func hand(s *sim, run results, name string, res *source.Result, line int, emit func(*episode.Episode)) {
	ep, why := read(s, run, name)
	if ep == nil {
		res.Rejected = append(res.Rejected, source.Rejected{Segment: res.Segments, Reason: fmt.Sprintf("line %d: %s", line, why)})
		return
	}
	ep.Segment = res.Segments
	emit(ep)
}

// member takes what the results file's member key (info, model or domain),
// raw, says of all its simulations.
func (run *results) member(key string, raw []byte) {
	if key == "info" {
		run.info(raw)
	} else {
		run.text(raw, key)
	}
}

// info takes the model and domain from a results file's info, raw.
func (run *results) info(raw []byte) {
	var in info
	if _, err := jsonl.Decode(raw, &in); err == nil {
		if in.AgentInfo != nil && in.AgentInfo.LLM != nil {
			run.model = source.Text(*in.AgentInfo.LLM)
		}
		if in.EnvironmentInfo != nil && in.EnvironmentInfo.DomainName != nil {
			run.domain = source.Text(*in.EnvironmentInfo.DomainName)
		}
	}
}

// text takes the model or domain (key) a results file gives at its top, raw.
func (run *results) text(raw []byte, key string) {
	var s *string
	if _, err := jsonl.Decode(raw, &s); err == nil && s != nil {
		if key == "model" {
			run.model = source.Text(*s)
		} else {
			run.domain = source.Text(*s)
		}
	}
}

// sim is what lbanalyze reads of a simulation.
type sim struct {
	ID                *string     `json:"id"`
	TaskID            any         `json:"task_id"`
	Trial             *int64      `json:"trial"`
	StartTime         *string     `json:"start_time"`
	TerminationReason *string     `json:"termination_reason"`
	RewardInfo        *rewardInfo `json:"reward_info"`
	Messages          []message   `json:"messages"`
}

type rewardInfo struct {
	Reward *float64 `json:"reward"`
}

type message struct {
	Role      string     `json:"role"`
	Content   content    `json:"content"`
	ToolCalls []toolCall `json:"tool_calls"`
	Cost      *float64   `json:"cost"`
	Usage     *usage     `json:"usage"`
	Timestamp *string    `json:"timestamp"`
	Error     *bool      `json:"error"`
}

type toolCall struct {
	Name      string         `json:"name"`
	Arguments jsontext.Value `json:"arguments"`
}

type usage struct {
	PromptTokens     *int64 `json:"prompt_tokens"`
	CompletionTokens *int64 `json:"completion_tokens"`
}

// content is a message's content as the decoder passes it: the hash of its
// JSON as written (a response is hashed so, never unescaped: most of a
// results file's bytes are tool results), and, up to maxKept bytes, the JSON
// itself, to be unescaped where it is an action.
type content struct {
	hash uint64
	raw  []byte
	size int
}

// maxKept bounds the content kept for an action: an agent's text is a few
// hundred bytes, a tool's result up to megabytes.
const maxKept = 16 << 10

func (c *content) UnmarshalJSONFrom(d *jsontext.Decoder) error {
	v, err := d.ReadValue()
	if err == nil {
		c.hold(v)
		c.raw = bytes.Clone(c.raw)
	}
	return err
}

// hold takes the content v, as written, holding v where it is kept.
func (c *content) hold(v []byte) {
	*c = content{hash: xxhash.Sum64(v), size: len(v)}
	if len(v) <= maxKept {
		c.raw = v
	}
}

// text is the content unescaped, where kept; else a text that stands for it,
// its length and hash.
func (c *content) text() string {
	if c.raw == nil && c.size > 0 {
		return fmt.Sprintf("(%d bytes of JSON, xxh64 %016x)", c.size, c.hash)
	}
	var t string
	jsonl.Decode(c.raw, &t)
	return t
}

// ends are how a simulation ends, by its termination_reason: the user or
// the agent ended the conversation; tau2's own caps (max_steps counts the
// orchestrator's steps, agent, user and tool results alike; too_many_errors
// its tool errors) ended it; or the run failed.
var ends = map[string]episode.End{
	"user_stop":            {Reason: episode.EndGameOver, Detail: "the user ended the conversation"},
	"agent_stop":           {Reason: episode.EndGameOver, Detail: "the agent ended the conversation"},
	"max_steps":            {Reason: episode.EndCap, Detail: "tau2's step cap (max_steps, counting agent, user and tool steps)"},
	"too_many_errors":      {Reason: episode.EndCap, Detail: "tau2's error cap (max_errors tool errors)"},
	"infrastructure_error": {Reason: episode.EndException, Detail: "an infrastructure error"},
}

// stampLayout is how tau2 writes a time: local, without a zone.
const stampLayout = "2006-01-02T15:04:05.999999999"

// read is the episode of simulation s, or nil and why it cannot be read.
func read(s *sim, run results, name string) (*episode.Episode, string) {
	if s.ID == nil || *s.ID == "" {
		return nil, "a simulation without an id"
	}
	ep := &episode.Episode{ID: source.Text(*s.ID), Source: name, Format: Format}
	source.AddFact(ep, "model", run.model)
	source.AddFact(ep, "domain", run.domain)
	source.AddFact(ep, "task", taskID(s.TaskID))
	if s.Trial != nil {
		source.AddFact(ep, "trial", strconv.FormatInt(*s.Trial, 10))
	}
	steps(ep, s)
	if ep.N() == 0 {
		return nil, fmt.Sprintf("simulation %s has no agent step (termination_reason %s): nothing to replay", ep.ID, orNone(s.TerminationReason))
	}
	var result *episode.Score
	if s.RewardInfo != nil && s.RewardInfo.Reward != nil {
		r := episode.Score(*s.RewardInfo.Reward)
		result = &r
	}
	ep.SetResult(result)
	end(ep, s)
	return ep, ""
}

// taskID is a task id as written, a string or a number.
func taskID(v any) string {
	switch t := v.(type) {
	case string:
		return source.Text(t)
	case float64:
		return strconv.FormatFloat(t, 'f', -1, 64)
	}
	return ""
}

// steps makes a turn of each assistant message: its tool calls, else its
// text, is the action; what answers it (the tool results after it, else the
// user's reply) the response, an error among the tool results its error;
// its cost and usage what it spent; its timestamp, less the simulation's
// start, when it ended.
func steps(ep *episode.Episode, s *sim) {
	start, startErr := time.Parse(stampLayout, deref(s.StartTime))
	costs, tokens, times := false, false, startErr == nil
	var costless, untimed, badTokens int
	var early int         // agent steps timed before start_time
	var firstEarly string // where the first is
	for i := range s.Messages {
		m := &s.Messages[i]
		if m.Role != "assistant" {
			continue
		}
		if ep.N() == source.MaxTurn {
			ep.Notes = append(ep.Notes, fmt.Sprintf("agent steps past the %d-th are not read", source.MaxTurn))
			break
		}
		t := episode.Turn{Action: action(m)}
		reply := xxhash.New()
		var sum [8]byte
		line := make([]byte, 0, 17)
		for j := i + 1; j < len(s.Messages) && s.Messages[j].Role != "assistant"; j++ {
			r := &s.Messages[j]
			if r.Role == "tool" || j == i+1 {
				// each hash a line, as %016x writes it
				binary.BigEndian.PutUint64(sum[:], r.Content.hash)
				line = append(hex.AppendEncode(line[:0], sum[:]), '\n')
				reply.Write(line)
				t.Errored = t.Errored || r.Error != nil && *r.Error
			}
			if r.Role != "tool" {
				break
			}
		}
		t.ResponseHash = reply.Sum64()
		if m.Cost != nil {
			t.Cost = *m.Cost
			costs = costs || *m.Cost > 0
		} else {
			costless++
		}
		if u := m.Usage; u != nil && u.PromptTokens != nil && u.CompletionTokens != nil {
			if n, ok := source.TokenSum(*u.PromptTokens, *u.CompletionTokens); ok {
				t.Tokens, tokens = n, true
			} else {
				badTokens++
			}
		}
		at, err := time.Parse(stampLayout, deref(m.Timestamp))
		switch {
		case err != nil || !times:
			untimed++
		case at.Before(start): // a bad value: said, not used (docs/bad-input.md, "Every case")
			untimed, early = untimed+1, early+1
			if early == 1 {
				firstEarly = fmt.Sprintf("step %d (messages[%d], at %s)", ep.N()+1, i, source.Text(*m.Timestamp))
			}
		default:
			t.Elapsed = at.Sub(start).Seconds()
		}
		ep.Turns = append(ep.Turns, t)
	}
	ep.Signals = ep.Signals.With(episode.Actions, episode.Responses, episode.Errors)
	if costs && costless <= 1 { // the fixed greeting may have none
		ep.Signals = ep.Signals.With(episode.Costs)
	}
	if tokens {
		ep.Signals = ep.Signals.With(episode.Tokens)
	}
	if badTokens > 0 {
		ep.Notes = append(ep.Notes, fmt.Sprintf("%d messages give a negative token count or one past %d: their tokens are not counted", badTokens, int64(source.MaxTokens)))
	}
	if early > 0 {
		ep.Notes = append(ep.Notes, fmt.Sprintf("agent steps timed before the simulation's start_time %s: %d, the first %s; their times are not used, so the simulation's step times are not known",
			source.Text(*s.StartTime), early, firstEarly))
	}
	if times && untimed == 0 && ep.N() > 0 {
		ep.Signals = ep.Signals.With(episode.Times)
	}
}

// action is what an assistant message did: its tool calls, one a line, else
// its text.
func action(m *message) string {
	if len(m.ToolCalls) == 0 {
		return source.Text(strings.TrimSpace(m.Content.text()))
	}
	calls := make([]string, len(m.ToolCalls))
	for i, c := range m.ToolCalls {
		calls[i] = source.ToolCall(c.Name, c.Arguments)
	}
	return source.Text(strings.Join(calls, "\n"))
}

// end says how the simulation ended.
func end(ep *episode.Episode, s *sim) {
	why := deref(s.TerminationReason)
	e, ok := ends[why]
	switch {
	case s.TerminationReason == nil:
		ep.End = episode.End{Reason: episode.EndNone}
		ep.Notes = append(ep.Notes, "the simulation does not say how it ended (no termination_reason: results written before tau2 recorded it)")
		return
	case !ok:
		e = episode.End{Reason: episode.EndNone, Detail: "termination_reason " + source.Text(why)}
	}
	e.Turn = ep.N()
	ep.End = e
}

func orNone(s *string) string {
	if s == nil {
		return "none"
	}
	return source.Text(*s)
}

func deref(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}
