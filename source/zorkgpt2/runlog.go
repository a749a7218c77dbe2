package zorkgpt2

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"math"
	"regexp"
	"strconv"
	"strings"

	"github.com/lbanalyze/lbanalyze/episode"
	"github.com/lbanalyze/lbanalyze/jsonl"
	"github.com/lbanalyze/lbanalyze/source"
)

// RunLog reads what run_episode.py prints (docs/zorkgpt2.md, "The run
// log"): a TURN line after every execute_action, EPISODE_END at a clean end,
// and whatever else the process writes (library logging, LLM_ERROR lines),
// which is passed over without a word. A log without EPISODE_END is a run
// killed from outside.
type RunLog struct{}

func (RunLog) Format() string { return RunLogFormat }

// Opens takes a run log as the supervisor names it: run_log_ep96.txt.
// Names are the names Opens takes.
func (RunLog) Names() []string { return []string{"run_log_*.txt"} }

func (RunLog) Opens(name string) bool {
	return strings.HasPrefix(name, "run_log_") && strings.HasSuffix(name, ".txt")
}

var runLogLine = regexp.MustCompile(`(?m)^(TURN [0-9]+ \| loc=|EPISODE_END \| turns=[0-9]+ \|)`)

// Claims takes a file one of whose first lines is a TURN or EPISODE_END line.
func (RunLog) Claims(head []byte) bool { return runLogLine.Match(head) }

// Read streams the run log r into its episodes: one, or one a run when a
// log holds several (source.Runs: the turn numbers restart, or a run ends
// with EPISODE_END).
func (RunLog) Read(r io.Reader, name string, opt source.Options, emit func(*episode.Episode)) *source.Result {
	rl := &runLog{logRead: newLogRead(name, opt, emit)}
	rd := jsonl.NewReader(r, jsonl.LineOptions{MaxLine: rl.opt.MaxLine})
	defer rd.Close()
	rl.runs = source.Runs[*run]{Numbering: source.Numbering{Min: 1, Noun: "TURN"}, New: rl.newRun, End: rl.close,
		Problem: func(r *run, n int, skipped bool, msg string) { r.problem(n, skipped, "%s", msg) }}
	for {
		line, n, err := rd.Next()
		if errors.Is(err, jsonl.ErrLineTooLong) {
			continue // not a TURN line: those are short
		}
		if err != nil {
			if !errors.Is(err, io.EOF) {
				rl.res.Cut = &episode.Problem{Line: n, Msg: "read error: " + err.Error()}
			}
			break
		}
		switch {
		case bytes.HasPrefix(line, []byte("TURN ")):
			rl.turnLine(string(line), n)
		case bytes.HasPrefix(line, []byte("EPISODE_END |")):
			rl.endLine(string(line), n)
		}
	}
	rl.runs.Close()
	res := rl.result(rd.Line())
	if res.Segments == 0 {
		res.Segments = 1
		res.Rejected = []source.Rejected{{Segment: 1, Reason: "no turns: no TURN line"}}
	}
	return res
}

type runLog struct {
	logRead
	runs source.Runs[*run]
}

func (rl *runLog) newRun(string) *run {
	r := newRun(rl.name, RunLogFormat, rl.opt)
	if rl.name != jsonl.StdinName {
		r.ep.ID = idOf(rl.name)
	}
	return r
}

// turnLine reads TURN {n} | loc={room} | score={s}/{max} | critic={c:.2f} |
// rejections={k} | action={action} (run_episode.py, format_turn_line).
func (rl *runLog) turnLine(line string, n int) {
	f := strings.SplitN(strings.TrimPrefix(line, "TURN "), " | ", 6)
	bad := func(what string) { rl.runs.Current("", n).problem(n, true, "TURN line: %s", what) }
	if len(f) < 6 {
		bad("fewer than six fields")
		return
	}
	t, err := strconv.Atoi(f[0])
	if err != nil {
		bad(fmt.Sprintf("turn %q is not a whole number", f[0]))
		return
	}
	var val [5]string
	for i, key := range []string{"loc=", "score=", "critic=", "rejections=", "action="} {
		v, ok := strings.CutPrefix(f[i+1], key)
		if !ok {
			bad(fmt.Sprintf("field %d is not %s…", i+2, key))
			return
		}
		val[i] = v
	}
	score, _, ok := strings.Cut(val[1], "/")
	s, err1 := strconv.Atoi(score)
	c, err2 := strconv.ParseFloat(val[2], 32)
	k, err3 := strconv.Atoi(val[3])
	switch {
	case !ok || err1 != nil || s < -1<<40 || s > 1<<40:
		bad(fmt.Sprintf("score %q is not SCORE/MAX", val[1]))
		return
	case err2 != nil || math.IsNaN(c) || math.IsInf(c, 0):
		bad(fmt.Sprintf("critic %q is not a number", val[2]))
		return
	case err3 != nil || k < 0 || k > math.MaxInt32:
		bad(fmt.Sprintf("rejections %q is not a count", val[3]))
		return
	}
	r, ok := rl.runs.Line("", int64(t), n)
	if !ok {
		return
	}
	tu := r.at(t)
	// The runner writes spaces as underscores, and "unknown" for no name.
	room := strings.ReplaceAll(val[0], "_", " ")
	if room == "unknown" {
		room = ""
	}
	*tu = turn{score: s, room: r.texts.Text(room), action: r.texts.Text(val[4]), critic: float32(c), rejections: int32(k)}
}

// endLine reads EPISODE_END | turns=… | score=…/… | … | reason=…
// (run_episode.py, format_episode_end).
func (rl *runLog) endLine(line string, n int) {
	r := rl.runs.Current("", n)
	fields := map[string]string{}
	for _, f := range strings.Split(line, " | ")[1:] {
		if k, v, ok := strings.Cut(f, "="); ok {
			fields[k] = v
		}
	}
	turns, err := strconv.Atoi(fields["turns"])
	if err != nil || turns != len(r.turns) {
		r.problem(n, false, "EPISODE_END says turns=%s, but the log has %d TURN lines", fields["turns"], len(r.turns))
	}
	if score, _, _ := strings.Cut(fields["score"], "/"); len(r.turns) > 0 && score != strconv.Itoa(r.turns[len(r.turns)-1].score) {
		r.problem(n, false, "EPISODE_END says score=%s, but the last TURN line has %d", fields["score"], r.turns[len(r.turns)-1].score)
	}
	reason := fields["reason"]
	end := episode.End{Reason: episode.EndGameOver, Turn: len(r.turns)}
	switch {
	case reason == "max_turns":
		// Also what the runner prints when it fails or is interrupted: its
		// finally block writes EPISODE_END with the reason it began with.
		end.Reason = episode.EndMaxTurns
	case reason == "game_over_death":
		end.Detail = "death"
		r.ep.Deaths = append(r.ep.Deaths, episode.Death{Turn: len(r.turns), Reason: "death"})
	case reason == "game_over_win":
		end.Detail = "victory"
	case strings.HasPrefix(reason, "game_over_unknown:"):
		end.Detail = source.Text(strings.TrimPrefix(reason, "game_over_unknown:"))
	case reason == "llm_circuit_breaker":
		end = episode.End{Reason: episode.EndException, Turn: len(r.turns), Detail: "the agent's LLM failed too often in a row (circuit breaker)"}
	default:
		r.problem(n, false, "EPISODE_END with an unknown reason %q", reason)
		end = episode.End{Reason: episode.EndNone, Detail: source.Text(reason), Truncated: true}
	}
	r.ep.End = end
	r.ended = true
	rl.runs.EndRun("")
}

// close hands over a run that has ended.
func (rl *runLog) close(r *run) {
	if len(r.turns) == 0 {
		reason := "no turns: no TURN line could be read"
		if r.ended {
			reason = "no turns: EPISODE_END without a TURN line"
		}
		rl.handOver(&r.ep, &r.problems, reason)
		return
	}
	if !r.ended {
		r.killed("the run log has no EPISODE_END")
	}
	rl.handOver(r.build(episode.Signals(0).With(episode.Rooms, episode.Critic, episode.Rejections)), nil, "")
}
