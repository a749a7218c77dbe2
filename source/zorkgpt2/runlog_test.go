package zorkgpt2

import (
	"strings"
	"testing"

	"github.com/lbanalyze/lbanalyze/episode"
	"github.com/lbanalyze/lbanalyze/source"
)

func readRunLog(t *testing.T, text string) ([]*episode.Episode, *source.Result) {
	t.Helper()
	return source.ReadAll(RunLog{}, strings.NewReader(text), "docs/orchestrator/run_log_ep7.txt", source.Options{})
}

// The run log as run_episode.py prints it, library logging between.
const runLogText = `2026-04-09 13:40:01 | zorkburr | INFO | llama-server ready
TURN 1 | loc=West_of_House | score=0/350 | critic=0.70 | rejections=0 | action=open mailbox
httpx | INFO | HTTP Request: POST http://localhost:8887/v1/chat/completions "HTTP/1.1 200 OK"
TURN 2 | loc=unknown | score=0/350 | critic=0.20 | rejections=3 | action=north | then south
LLM_ERROR | turn=3 | consecutive=1 | error=timeout
TURN 3 | loc=Behind_House | score=-10/350 | critic=0.45 | rejections=2 | action=look
EPISODE_END | turns=3 | score=-10/350 | locations=3 | objectives_found=0 | reason=game_over_death | mem_total=4 | mem_new=1
`

func TestRunLog(t *testing.T) {
	if !(RunLog{}).Claims([]byte(runLogText)) || (RunLog{}).Claims([]byte("TURN: nothing\nturns=3\n")) {
		t.Fatal("claims")
	}
	eps, res := readRunLog(t, runLogText)
	if len(eps) != 1 || len(res.Rejected) > 0 || res.Lines != 7 {
		t.Fatalf("%d episodes, %v, %d lines", len(eps), res.Rejected, res.Lines)
	}
	ep := eps[0]
	if ep.ID != "ep7" || ep.N() != 3 || ep.ProblemCount != 0 || ep.End.Reason != episode.EndGameOver || ep.End.Detail != "death" ||
		len(ep.Deaths) != 1 || ep.Deaths[0].Turn != 3 || ep.CutByRecording() {
		t.Fatalf("%+v", ep)
	}
	// Underscores are the runner's spaces; "unknown" is no name; the action
	// is the rest of the line; the calls follow from critic and rejections:
	// 1 proposal (3 calls), 3 forced (7), 3 accepted after 2 (7).
	want := []episode.Turn{
		{Score: 0, Location: "West of House", Action: "open mailbox", Critic: 0.7, Rejections: 0, Calls: 3},
		{Score: 0, Location: "", Action: "north | then south", Critic: 0.2, Rejections: 3, Calls: 7},
		{Score: -10, Location: "Behind House", Action: "look", Critic: 0.45, Rejections: 2, Calls: 7},
	}
	for i, w := range want {
		if ep.Turns[i] != w {
			t.Errorf("turn %d: %+v, want %+v", i+1, ep.Turns[i], w)
		}
	}
}

func TestRunLogKilledAndBad(t *testing.T) {
	text := "TURN 1 | loc=A | score=0/350 | critic=0.70 | rejections=0 | action=x\n" +
		"TURN 2 | loc=A | score=zero/350 | critic=0.70 | rejections=0 | action=x\n" +
		"TURN 3 | loc=B | score=5/350 | critic=nan | rejections=0 | action=x\n" +
		"TURN 4 | loc=B | score=5/350 | critic=0.70 | rejections=1 | action=y\n"
	eps, _ := readRunLog(t, text)
	ep := eps[0]
	msgs := strings.Join(ep.ProblemMessages(), "|")
	// Turns 2 and 3 are problems: carried forward as missing; no
	// EPISODE_END: a kill, which cuts the log.
	if ep.N() != 4 || ep.MissingTurns != 2 || ep.Score(3) != 0 || ep.Score(4) != 5 || !strings.Contains(msgs, ":2: TURN line: score") ||
		!strings.Contains(msgs, ":3: TURN line: critic") || ep.End.Reason != episode.EndKilled || !ep.CutByRecording() {
		t.Errorf("%d turns, %d missing, problems %q, end %+v", ep.N(), ep.MissingTurns, msgs, ep.End)
	}
}

// Two runs in one file: the turn numbers start again.
func TestRunLogTwoRuns(t *testing.T) {
	one := "TURN 1 | loc=A | score=0/350 | critic=0.70 | rejections=0 | action=x\nEPISODE_END | turns=1 | score=0/350 | locations=1 | objectives_found=0 | reason=max_turns\n"
	eps, res := readRunLog(t, one+one+"TURN 1 | loc=A | score=0/350 | critic=0.70 | rejections=0 | action=x\n")
	if len(eps) != 3 || res.Segments != 3 || eps[0].End.Reason != episode.EndMaxTurns || eps[2].End.Reason != episode.EndKilled || eps[2].Segment != 3 {
		t.Fatalf("%d episodes, %d segments", len(eps), res.Segments)
	}
	if _, res := readRunLog(t, "EPISODE_END | turns=0 | score=0/350 | locations=0 | objectives_found=0 | reason=max_turns\n"); len(res.Rejected) != 1 {
		t.Errorf("no turns: %v", res.Rejected)
	}
}
