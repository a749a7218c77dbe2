package zorkgpt

import (
	"bytes"
	"io"
	"os"
	"reflect"
	"strings"
	"testing"

	"github.com/lbanalyze/lbanalyze/episode"
	"github.com/lbanalyze/lbanalyze/internal/synth"
	"github.com/lbanalyze/lbanalyze/internal/testlogs"
	"github.com/lbanalyze/lbanalyze/policy"
	"github.com/lbanalyze/lbanalyze/replay"
)

// The sample of era E3a (testdata/samples/README.md, worked by hand there)
// reads as one E3a episode of 5 turns that no policy stops (docs/log-format.md,
// "8. The sample").
func TestSample(t *testing.T) {
	lg, err := readFile("../../testdata/samples/episode-e3a.jsonl", nil, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(lg.Episodes) != 1 || lg.Lines != 39 {
		t.Fatalf("%d episodes from %d lines, want 1 from 39", len(lg.Episodes), lg.Lines)
	}
	ep := lg.Episodes[0]
	if ep.ID != "2025-06-09T15:27:03" || ep.N() != 5 || eraOf(ep) != "E3a" || loopBreakOf(ep) != "" || ep.End.Reason != episode.EndNone ||
		ep.MaxTurns != 5000 || ep.FinalScore() != 10 || ep.ProblemCount != 0 || ep.MissingTurns != 0 || ep.SkippedLines != 0 {
		t.Errorf("got id %s, %v turns, era %s, loop break %s, end %s, max_turns %v, score %v, %v problems (%s), %v missing, %v skipped",
			ep.ID, ep.N(), eraOf(ep), loopBreakOf(ep), ep.End.Reason, ep.MaxTurns, ep.FinalScore(), ep.ProblemCount, problems(ep), ep.MissingTurns, ep.SkippedLines)
	}
	if ep.InitialRoom != "West of House" || ep.InitialRoomID != 0 {
		t.Errorf("initial room %q (id %d), want West of House without an id", ep.InitialRoom, ep.InitialRoomID)
	}
	want := []episode.Turn{
		{Action: "north", Location: "North of House", Score: 0},
		{Action: "east", Location: "Behind House", Score: 0},
		{Action: "open window", Location: "Behind House", Score: 0},
		{Action: "west", Location: "Kitchen", Score: 10},
		{Action: "west", Location: "Living Room", Score: 10},
	}
	for i, w := range want {
		if got := ep.Turns[i]; got.Action != w.Action || got.Location != w.Location || got.Score != w.Score || got.RoomID != 0 {
			t.Errorf("turn %d: %q to %q (id %d), score %v; want %q to %q, score %v", i+1, got.Action, got.Location, got.RoomID, got.Score, w.Action, w.Location, w.Score)
		}
	}
	// The log just stops, 5 turns into a budget of 5000, before the first
	// check turn (10): cut, so a policy that does not stop by then is censored
	// (docs/semantics.md, "6.2 Outcome of one policy on one episode").
	for _, p := range []policy.Policy{v1, v2, {Name: policy.Window}} {
		if o := replay.Run(ep, p); o.Terminated() || o.Length != 5 || !o.Censored {
			t.Errorf("%s: %+v, want no termination over 5 turns, censored", p, o)
		}
	}
}

func TestEndReasons(t *testing.T) {
	for _, c := range []struct {
		name string
		p    plan
		want episode.EndReason
		n    int
	}{
		{"max turns", plan{N: 50, MaxTurns: 50}, episode.EndMaxTurns, 50},
		{"game over", plan{N: 60, GameOver: 37}, episode.EndGameOver, 37},
		{"recorded loop break", plan{N: 100, LoopBreak: &v1}, episode.EndStuckTermination, 40},
		{"exception", plan{N: 12, Ending: 1}, episode.EndException, 12},
		{"interrupted", plan{N: 12, Ending: 2}, episode.EndInterrupted, 12},
		{"truncated", plan{N: 12}, episode.EndNone, 12},
	} {
		t.Run(c.name, func(t *testing.T) {
			ep := one(t, testlogs.Write(t, c.p.Episode()))
			if ep.End.Reason != c.want || ep.N() != c.n {
				t.Errorf("end %s after %d turns, want %s after %d", ep.End.Reason, ep.N(), c.want, c.n)
			}
		})
	}
}

func TestRecordedEvents(t *testing.T) {
	p := plan{N: 100, Changes: map[int]int{12: 5, 30: 15}, Objectives: map[int][]string{50: {"Open the trap door"}}, LoopBreak: &v2}
	ep := one(t, testlogs.Write(t, p.Episode()))
	r := ep.Recorded
	// By hand: changes at 12 and 30 (anchor 30), the objective at 50 resets at 50 and 51,
	// the check at 90 sees 90-51 = 39, at 100 sees 49.
	changes, resets := r.Turns(episode.ScoreChangeReset), r.Turns(episode.ObjectiveReset)
	if !reflect.DeepEqual(changes, []int{12, 30}) || r.Resets[1] != (episode.Reset{Turn: 30, Kind: episode.ScoreChangeReset, Old: 5, New: 15}) ||
		!reflect.DeepEqual(resets, []int{50, 51}) || r.Stop == nil ||
		*r.Stop != (episode.Stop{Turn: 100, Score: 15, TurnsStuck: 49}) || loopBreakOf(ep) != "v2" || eraOf(ep) != "E3c" ||
		!reflect.DeepEqual(r.Rules, []string{"score-or-objective", "score"}) {
		t.Errorf("recorded %+v (stuck %+v), loop break %q, era %s", r, r.Stop, loopBreakOf(ep), eraOf(ep))
	}
	if ep.End.Reason != episode.EndStuckTermination || ep.End.TurnsStuck != 49 {
		t.Errorf("end %+v", ep.End)
	}
}

func TestRoomsAndObjectives(t *testing.T) {
	p := plan{N: 20, Objectives: map[int][]string{3: {"Open the mailbox", "Read the leaflet"}, 7: {"Go north"}}}
	ep := one(t, testlogs.Write(t, p.Episode()))
	if ep.InitialRoomID != 180 || ep.Turns[0].RoomID != 81 || ep.Turns[1].RoomID != 180 || ep.Turns[0].Location != "North of House" {
		t.Errorf("rooms: initial %d, turn 1 %d %q, turn 2 %d", ep.InitialRoomID, ep.Turns[0].RoomID, ep.Turns[0].Location, ep.Turns[1].RoomID)
	}
	if len(ep.Objectives) != 3 || ep.Objectives[1] != (episode.Completion{Turn: 3, Objective: "Read the leaflet"}) || ep.Turns[2].Objectives != 2 || ep.Turns[6].Objectives != 1 {
		t.Errorf("objectives %+v", ep.Objectives)
	}
}

func TestSegments(t *testing.T) {
	// Monolithic file: two episodes one after the other.
	a := plan{N: 30, Changes: map[int]int{25: 5}}.Episode()
	b := plan{N: 45, ID: "2025-11-12T11:00:00"}.Episode()
	lg := read(t, testlogs.Write(t, a, b))
	if len(lg.Episodes) != 2 || lg.Episodes[0].ID != a.ID || lg.Episodes[1].ID != b.ID ||
		lg.Episodes[0].N() != 30 || lg.Episodes[1].N() != 45 || lg.Episodes[1].Segment != 2 {
		t.Fatalf("got %d episodes: %+v", len(lg.Episodes), lg.Episodes)
	}
	if name := lg.Episodes[1].Name(); name != "2025-11-12T11:00:00 (segment 2)" {
		t.Errorf("name %q", name)
	}

	// Restore path: the same id again, a new orchestrator_init, turns restarting at 1.
	lg = read(t, testlogs.Write(t, a, plan{N: 10, ID: a.ID}.Episode()))
	if len(lg.Episodes) != 2 || lg.Episodes[1].ID != a.ID || lg.Episodes[1].N() != 10 {
		t.Fatalf("restore: got %d episodes", len(lg.Episodes))
	}

	// Turns restarting at 1 with no init line at all still start a new segment, with a warning.
	second := testlogs.Write(t, plan{N: 10, ID: a.ID}.Episode())
	second = second[bytes.Index(second, []byte(`"turn_1_objective_generation_skipped"`)):]
	second = second[bytes.IndexByte(second, '\n')+1:]
	lg = read(t, append(testlogs.Write(t, a), second...))
	if len(lg.Episodes) != 2 || lg.Episodes[1].N() != 10 || !strings.Contains(problems(lg.Episodes[1]), "restart at 1") {
		t.Errorf("restart without init: %d episodes", len(lg.Episodes))
	}
}

func TestRejectedSegments(t *testing.T) {
	e2 := `{"timestamp": "2025-05-30T10:00:00.000001", "level": "INFO", "message": "Starting episode", "event_type": "episode_start", "episode_id": "2025-05-30T10:00:00", "agent_model": "x", "critic_model": "y", "info_ext_model": "z", "timestamp": "2025-05-30T10:00:00.000002", "max_turns": 5000}
{"timestamp": "2025-05-30T10:00:01.000001", "level": "INFO", "message": "Turn 1", "event_type": "turn_start", "episode_id": "2025-05-30T10:00:00", "turn": 1, "turn_start_time": 1748599201.5}
{"timestamp": "2025-05-30T10:00:02.000001", "level": "INFO", "message": "Score increased", "event_type": "score_increase", "episode_id": "2025-05-30T10:00:00", "score_change": 5, "new_score": 5}
`
	for _, c := range []struct {
		name, data, reason string
	}{
		{"E2", e2, "unsupported era"},
		{"no turns", string(testlogs.Write(t, plan{N: 0}.Episode())), "no turns"},
		{"empty file", "", "empty file"},
		{"blank lines only", "\n\n  \n", "only blank lines (3)"},
	} {
		t.Run(c.name, func(t *testing.T) {
			lg := read(t, []byte(c.data))
			if len(lg.Episodes) != 0 || len(lg.Rejected) != 1 || !strings.Contains(lg.Rejected[0].Reason, c.reason) {
				t.Errorf("episodes %d, rejected %+v; want one rejection about %q", len(lg.Episodes), lg.Rejected, c.reason)
			}
		})
	}
}

// Every bad line of the issue yields a message naming its line, and the rest
// of the file is analysed.
func TestBadLines(t *testing.T) {
	good := testlogs.Write(t, plan{N: 45, Changes: map[int]int{20: 5}}.Episode())
	lines := bytes.SplitAfter(good, []byte("\n"))
	lineOf := func(sub string) int {
		for i, l := range lines {
			if bytes.Contains(l, []byte(sub)) {
				return i
			}
		}
		t.Fatalf("no line with %s", sub)
		return 0
	}
	edit := func(i int, f func([]byte) []byte) []byte {
		var out []byte
		for j, l := range lines {
			if j == i {
				l = f(l)
			}
			out = append(out, l...)
		}
		return out
	}
	tc20 := lineOf(`"event_type": "turn_completed", "episode_id": "2025-11-12T10:00:00", "turn": 20,`)
	for _, c := range []struct {
		name    string
		data    []byte
		skipped int
		msg     string // in the problems, with the 1-based line number
		score20 int    // the score the replay sees at turn 20
	}{
		{"clean", good, 0, "", 5},
		{"truncated last line", append(append([]byte{}, good...), `{"timestamp": "2025-11-12T11:00:00", "level": "INFO", "mess`...), 1, "truncated last line", 5},
		{"invalid JSON", edit(tc20, func(l []byte) []byte { return bytes.Replace(l, []byte(`"score": 5`), []byte(`"score": 5,,`), 1) }), 1, "invalid JSON", 0},
		{"invalid UTF-8", edit(tc20, func(l []byte) []byte { return bytes.Replace(l, []byte("action 20"), []byte("action \xff20"), 1) }), 0, "invalid UTF-8", 5},
		{"NaN confidence", edit(tc20, func(l []byte) []byte {
			return bytes.Replace(l, []byte(`"confidence": 0.9`), []byte(`"confidence": NaN`), 1)
		}), 0, "", 5},
		{"Infinity critic score", bytes.ReplaceAll(good, []byte(`"critic_score": 0.8`), []byte(`"critic_score": -Infinity`)), 0, "", 5},
		{"string turn", edit(tc20, func(l []byte) []byte { return bytes.Replace(l, []byte(`"turn": 20`), []byte(`"turn": "20"`), 1) }), 1, "cannot decode turn_completed", 0},
		{"two records on one line", edit(tc20-1, func(l []byte) []byte { return l[:len(l)/2] }), 1, "runs into a complete one", 5},
		{"a 2 MB reasoning line", edit(lineOf(`"turn": 20, "agent_action"`), func(l []byte) []byte {
			return bytes.Replace(l, []byte("Try something."), bytes.Repeat([]byte("Think \\\"hard\\\". "), 1<<17), 1)
		}), 0, "", 5},
	} {
		t.Run(c.name, func(t *testing.T) {
			lg := read(t, c.data)
			if len(lg.Episodes) != 1 {
				t.Fatalf("%d episodes", len(lg.Episodes))
			}
			ep := lg.Episodes[0]
			if ep.SkippedLines != c.skipped || ep.N() != 45 || ep.Score(20) != episode.Score(c.score20) {
				t.Errorf("skipped %d, %d turns, score at 20 %v; want %d, 45, %d; problems:\n%s", ep.SkippedLines, ep.N(), ep.Score(20), c.skipped, c.score20, problems(ep))
			}
			if c.msg != "" && !strings.Contains(problems(ep), c.msg) {
				t.Errorf("problems %q, want one about %q", problems(ep), c.msg)
			}
			for _, p := range ep.Problems {
				if p.Line < 1 {
					t.Errorf("problem without a line: %s", p)
				}
			}
		})
	}
}

// Lines written by an old-style caller nest the event under "extras"
// (docs/log-format.md, "1.1 Lines"): their fields are read all the same.
func TestNestedExtras(t *testing.T) {
	data := testlogs.Write(t, plan{N: 12}.Episode())
	nested := `{"timestamp": "2025-11-12T10:05:00.000001", "level": "INFO", "message": "Objective completed", "extras": {"event_type": "objective_completed", "episode_id": "2025-11-12T10:00:00", "turn": 5, "objective": "Open the window", "completion_action": "open window", "completion_signals": [], "completion_score": 0}}
{"timestamp": "2025-11-12T10:05:00.000002", "level": "INFO", "message": "Reasoning model response", "extras": {"event_type": "reasoning_model_response", "model": "x", "content_length": 10}}
`
	ep := one(t, append(data, nested...))
	if len(ep.Objectives) != 1 || ep.Objectives[0] != (episode.Completion{Turn: 5, Objective: "Open the window"}) || ep.Turns[4].Objectives != 1 || ep.ProblemCount != 0 {
		t.Errorf("objectives %+v, problems %s", ep.Objectives, problems(ep))
	}
}

// taskName: null (Python 3.12+) changes nothing.
func TestTaskName(t *testing.T) {
	e := plan{N: 50, Changes: map[int]int{7: 10}}.Episode()
	e.TaskName = true
	data := testlogs.Write(t, e)
	if !bytes.Contains(data, []byte(`"message": "Turn 7 completed", "taskName": null, "event_type"`)) {
		t.Fatal("no taskName in the lines")
	}
	ep := one(t, data)
	if ep.N() != 50 || ep.Score(7) != 10 || ep.ProblemCount != 0 {
		t.Errorf("%v turns, score %v", ep.N(), ep.Score(7))
	}
}

func TestReadFileErrors(t *testing.T) {
	if _, err := readFile("testdata/does-not-exist.jsonl", nil, Options{}); err == nil || !os.IsNotExist(err) {
		t.Errorf("missing file: %v", err)
	}
}

// chunkReader gives data 256 bytes a read, noting at each read, the last
// (io.EOF) too, how many episodes had been handed over by then.
type chunkReader struct {
	data   []byte
	off    int
	handed *int
	seen   [][2]int // offset read from, episodes handed over
}

func (r *chunkReader) Read(p []byte) (int, error) {
	r.seen = append(r.seen, [2]int{r.off, *r.handed})
	if r.off == len(r.data) {
		return 0, io.EOF
	}
	n := copy(p[:min(len(p), 256)], r.data[r.off:])
	r.off += n
	return n, nil
}

// Each episode is handed over as soon as its segment ends, while the file is
// still being read, and the episodes are those ReadAll gives.
func TestOnEpisodeHandsOverEachSegment(t *testing.T) {
	var parts [][]byte
	for _, e := range []*synth.Episode{plan{N: 30}.Episode(), plan{N: 45, ID: "2025-11-12T11:00:00"}.Episode(), plan{N: 20, ID: "2025-11-12T12:00:00"}.Episode()} {
		parts = append(parts, testlogs.Write(t, e))
	}
	data := bytes.Join(parts, nil)
	var got []*episode.Episode
	handed := 0
	r := &chunkReader{data: data, handed: &handed}
	res := Source{}.Read(r, "test.jsonl", Options{}, func(ep *episode.Episode) {
		got = append(got, ep)
		handed++
	})
	// The first episode ends where the second begins, the second where the
	// third does: before the third is read, and before the end is.
	for _, s := range r.seen {
		if s[0] >= len(parts[0])+len(parts[1]) && s[1] < 1 || s[0] == len(data) && s[1] < 2 {
			t.Errorf("at byte %d of %d, %d episodes handed over (segments end at %d and %d)", s[0], len(data), s[1], len(parts[0]), len(parts[0])+len(parts[1]))
		}
	}
	if res.Segments != 3 || len(got) != 3 {
		t.Fatalf("Segments %d, handed over %d; want 3, 3", res.Segments, len(got))
	}
	want := read(t, data).Episodes
	for i, ep := range got {
		if !reflect.DeepEqual(ep, want[i]) {
			t.Errorf("episode %d differs from Log.Episodes's", i+1)
		}
	}
}
