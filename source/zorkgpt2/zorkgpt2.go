// Package zorkgpt2 is the source of ZorkGPT2's runs ("zorkburr", a Burr
// application playing Zork), in the three forms a run is recorded in
// (docs/zorkgpt2.md, "Where a run is recorded"): the Burr tracker's
// application directory (log.jsonl, metadata.json, graph.json), the run log
// the runner prints (TURN lines, EPISODE_END), and a state snapshot (a JSON
// object whose state holds the action history). The three give the same
// turns, as far as each records them.
package zorkgpt2

import (
	"fmt"
	"path/filepath"
	"strings"

	"github.com/cespare/xxhash/v2"

	"github.com/lbanalyze/lbanalyze/episode"
	"github.com/lbanalyze/lbanalyze/source"
)

// The log_format of each form.
const (
	BurrFormat     = "zorkgpt2-burr"
	RunLogFormat   = "zorkgpt2-runlog"
	SnapshotFormat = "zorkgpt2-snapshot"
)

// Rule is the stuck rule ZorkGPT2 keeps the counter of (policy zorkburr).
const Rule = "zorkburr"

// criticThreshold is ZorkGPT2's critic_rejection_threshold: an accepted
// action scored at least this; one scored below was forced through after
// max_rejections_per_turn rejections.
const criticThreshold = float32(0.3)

// turn is one turn as a form records it.
type turn struct {
	score      int
	roomID     int
	room       string // Jericho's name, as it is ("Living " cut short included)
	action     string
	response   uint64
	text       string // the response as kept (source.Text of its first 500 characters)
	critic     float32
	rejections int32
	// proposals is how many actions the agent proposed (the Burr log counts
	// them); 0 when the form does not say, and calls reckons them.
	proposals int
	missing   bool
}

// calls is the LLM calls of a turn as ZorkGPT2's graph makes them
// (docs/zorkgpt2.md, "LLM calls"): one agent and one critic call a proposal,
// and one extractor call. A turn whose critic score is below the rejection
// threshold was forced through after its rejections, so it proposed as many
// actions as were rejected; otherwise one more.
func (t *turn) calls() int32 {
	p := t.proposals
	if p == 0 {
		p = int(t.rejections) + 1
		if t.critic < criticThreshold && t.rejections > 0 {
			p = int(t.rejections)
		}
	}
	return int32(2*p + 1)
}

// setResponse gives tu a game response by its first 500 characters, as
// ZorkGPT2's action history keeps it (response[:500]), so that the Burr log's
// full response and the snapshot's cut one hash alike: its hash (0 is
// "none") and its text as kept.
func (tu *turn) setResponse(text string) {
	n := 0
	for i := range text {
		if n == 500 {
			text = text[:i]
			break
		}
		n++
	}
	tu.response = max(xxhash.Sum64String(text), 1)
	tu.text = source.Text(text)
}

// run is an episode being read, whichever the form.
type run struct {
	ep       episode.Episode
	turns    []turn
	problems source.Problems
	ended    bool // the log recorded the run's end (the run log's EPISODE_END)
}

func newRun(name, format string, opt source.Options) *run {
	return &run{ep: episode.Episode{Source: name, Format: format, Segment: 1},
		problems: source.Problems{Max: opt.WithDefaults().MaxProblems}}
}

func (r *run) problem(line int, skipped bool, format string, args ...any) {
	r.problems.Add(line, skipped, format, args...)
}

// at is turn t, made (with the missing turns before it) if need be: t is
// past the turns so far, and within bounds (source.Runs, source.Sequence).
func (r *run) at(t int) *turn {
	for len(r.turns) < t {
		r.turns = append(r.turns, turn{missing: true})
	}
	return &r.turns[t-1]
}

// build makes the Episode; signals are the optional ones the form records
// (Calls follows from Critic and Rejections, or counted proposals).
func (r *run) build(signals episode.Signals) *episode.Episode {
	ep := &r.ep
	if ep.ID == "" {
		ep.ID = "(no episode id)"
	}
	// Every ZorkGPT2 run kept the rule's counter and showed its countdown in
	// the prompt, whichever form records it (the Burr log also the counter).
	ep.Recorded.Rules = []string{Rule}
	ep.Signals = signals.With(episode.Actions)
	if signals.Has(episode.Critic, episode.Rejections) {
		ep.Signals = ep.Signals.With(episode.Calls)
	}
	ep.Turns = make([]episode.Turn, len(r.turns))
	score, roomID, room := episode.Score(0), ep.InitialRoomID, ep.InitialRoom
	for i := range r.turns {
		t, tu := &r.turns[i], &ep.Turns[i]
		if t.missing {
			ep.MissingTurns++
			*tu = episode.Turn{Score: score, RoomID: roomID, Location: room, Missing: true}
			continue
		}
		*tu = episode.Turn{Score: episode.Score(t.score), RoomID: t.roomID, Location: t.room, Action: t.action, ResponseHash: t.response, Response: t.text,
			Critic: t.critic, Rejections: t.rejections}
		if ep.Signals.Has(episode.Calls) {
			tu.Calls = t.calls()
		}
		score, roomID, room = episode.Score(t.score), t.roomID, t.room
	}
	if ep.MissingTurns > 0 {
		ep.Notes = append(ep.Notes, fmt.Sprintf("%d turns are missing from the log: the score and room are carried forward", ep.MissingTurns))
	}
	r.problems.Set(ep)
	return ep
}

// logRead is what the reading of a log that may hold several runs (the run
// log, the Burr log) keeps across them: what it hands over, and what it says
// of the runs that cannot be replayed.
type logRead struct {
	name       string
	opt        source.Options
	res        *source.Result
	emit       func(*episode.Episode)
	rooms      source.Interner // rooms and actions
	rejections source.Rejections
	left       source.Leftovers // problems of the runs without a turn
}

func newLogRead(name string, opt source.Options, emit func(*episode.Episode)) logRead {
	opt = opt.WithDefaults()
	return logRead{name: name, opt: opt, res: &source.Result{}, emit: emit, rooms: source.Interner{},
		left: source.Leftovers{Max: opt.MaxProblems}}
}

// handOver hands over a run once it is over: its episode, or, when why says
// why it cannot be replayed, its rejection and its problems.
func (l *logRead) handOver(ep *episode.Episode, problems *source.Problems, why string) {
	l.res.Segments++
	if why != "" {
		l.left.Keep(problems)
		l.rejections.Add(l.res.Segments, ep.ID, why)
		return
	}
	ep.Segment = l.res.Segments
	l.emit(ep)
}

// result is what the log held, once every run is handed over.
func (l *logRead) result(lines int) *source.Result {
	l.res.Lines = lines
	l.rejections.AddTo(l.res)
	l.left.AddTo(l.res)
	return l.res
}

// killed ends the episode as a run cut off from outside at its last turn.
func (r *run) killed(what string) {
	n := len(r.turns)
	r.ep.End = episode.End{Reason: episode.EndKilled, Turn: n}
	r.ep.Notes = append(r.ep.Notes, fmt.Sprintf("%s: the run was killed from outside after turn %d (the supervisor's kill), so what a policy that has not stopped by then would have done is unknown", what, n))
}

// idOf is an episode id from a file name: run_log_ep96.txt gives ep96.
func idOf(name string) string {
	base := filepath.Base(name)
	base = strings.TrimSuffix(strings.TrimSuffix(base, filepath.Ext(base)), ".jsonl")
	return strings.TrimPrefix(base, "run_log_")
}
