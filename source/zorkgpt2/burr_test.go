package zorkgpt2

import (
	"bytes"
	"compress/gzip"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/klauspost/compress/zstd"

	"github.com/lbanalyze/lbanalyze/episode"
	"github.com/lbanalyze/lbanalyze/internal/benchdata"
	"github.com/lbanalyze/lbanalyze/policy"
	"github.com/lbanalyze/lbanalyze/replay"
	"github.com/lbanalyze/lbanalyze/source"
)

// readBurr reads a Burr log from memory, as a file named log.jsonl.
func readBurrBytes(t testing.TB, data []byte) ([]*episode.Episode, *source.Result) {
	t.Helper()
	if !(Burr{}).Claims(data[:min(len(data), source.HeadSize)]) {
		t.Fatalf("not claimed: %.80s", data)
	}
	return source.ReadAll(Burr{}, bytes.NewReader(data), "log.jsonl", source.Options{})
}

func generated(t testing.TB, turns int) []byte {
	t.Helper()
	var buf bytes.Buffer
	if err := benchdata.BurrLog(&buf, turns); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// TestBurrGenerated reads a generated run of 100 turns, whose facts follow
// from benchdata.BurrLog's plan: +5 at 97; one rejection on turns 7, 14, …
// (two proposals: 2×2 + 1 calls); three on 29, 58, 87 (forced through after
// the third: 2×3 + 1); none otherwise (3 calls).
func TestBurrGenerated(t *testing.T) {
	eps, res := readBurrBytes(t, generated(t, 100))
	if len(eps) != 1 || len(res.Rejected) > 0 {
		t.Fatalf("%d episodes, %v", len(eps), res.Rejected)
	}
	ep := eps[0]
	if ep.ID != "ep-bench" || ep.N() != 100 || ep.Score(96) != 0 || ep.Score(97) != 5 || ep.ProblemCount > 0 {
		t.Fatalf("%s: %d turns, score 96/97 %v/%v, problems %v", ep.ID, ep.N(), ep.Score(96), ep.Score(97), ep.ProblemMessages())
	}
	for _, c := range []struct {
		turn       int
		rejections int32
		calls      int32
		critic     float32
	}{{1, 0, 3, 0.7}, {7, 1, 5, 0.7}, {29, 3, 7, 0.2}, {58, 3, 7, 0.2}, {70, 1, 5, 0.7}, {100, 0, 3, 0.7}} {
		tu := ep.Turns[c.turn-1]
		if tu.Rejections != c.rejections || tu.Calls != c.calls || tu.Critic != c.critic {
			t.Errorf("turn %d: %d rejections, %d calls, critic %v; want %d, %d, %v", c.turn, tu.Rejections, tu.Calls, tu.Critic,
				c.rejections, c.calls, c.critic)
		}
	}
	// It ends after update_knowledge at turn 100, neither after an
	// execute_action nor with turn_complete: a kill.
	if ep.End.Reason != episode.EndKilled || !ep.CutByRecording() || len(ep.Notes) == 0 {
		t.Errorf("end %+v, notes %q: want killed", ep.End, ep.Notes)
	}
	if got := ep.Recorded.Turns(episode.ScoreChangeReset); !slices.Equal(got, []int{97}) || ep.Recorded.Through != 0 {
		t.Errorf("recorded resets %v through %d", got, ep.Recorded.Through)
	}
}

// burrLine is one log line as Burr's tracking client writes it: type first,
// then the entry's members in the order of its model, compact.
func burrLine(typ, action string, seq int, state map[string]any) string {
	if typ == "begin_entry" {
		return fmt.Sprintf(`{"type":"begin_entry","start_time":"2026-04-09T13:45:17","action":%q,"inputs":{},"sequence_id":%d}`, action, seq)
	}
	s, _ := json.Marshal(state)
	return fmt.Sprintf(`{"type":"end_entry","end_time":"2026-04-09T13:45:18","action":%q,"result":{},"exception":null,"state":%s,"sequence_id":%d}`, action, s, seq)
}

// turnLines are the lines of one turn up to and including what last
// names: execute_action or record_results; score is the score after it.
func turnLines(turn, pre, score int, last string, extra map[string]any) []string {
	st := map[string]any{"episode_id": "ep7", "turn_count": turn - 1, "score": pre}
	var l []string
	seq := 20 * turn
	for _, a := range []string{"assemble_context", "generate_action", "evaluate_action"} {
		l = append(l, burrLine("begin_entry", a, seq, nil), burrLine("end_entry", a, seq, st))
		seq++
	}
	ex := map[string]any{"episode_id": "ep7", "turn_count": turn, "score": score, "pre_score": pre, "location_id": 10 + turn, "location_name": "Room " + fmt.Sprint(turn),
		"pre_location_id": 9 + turn, "pre_location_name": "Room " + fmt.Sprint(turn-1), "critic_score": 0.6, "rejection_count": 0,
		"action_to_take": "north", "game_response": "You go north.", "game_over": false, "game_over_reason": ""}
	for k, v := range extra {
		ex[k] = v
	}
	l = append(l, burrLine("begin_entry", "execute_action", seq, nil), burrLine("end_entry", "execute_action", seq, ex))
	if last == "execute_action" {
		return l
	}
	stuck := turn
	if score != pre {
		stuck = 0
	}
	rr := map[string]any{"turn_count": turn, "score": score, "pre_score": pre, "turns_since_progress": stuck}
	return append(l, burrLine("begin_entry", "record_results", seq+1, nil), burrLine("end_entry", "record_results", seq+1, rr))
}

// TestBurrEnds: how a Burr log ends says how the run ended
// (docs/zorkgpt2.md, "How a Burr log ends").
func TestBurrEnds(t *testing.T) {
	two := append(turnLines(1, 0, 0, "record_results", nil), turnLines(2, 0, 5, "record_results", nil)...)
	for _, c := range []struct {
		name  string
		lines []string
		end   episode.EndReason
		stop  bool // a recorded stop: zorkburr/main.py's stuck check
		turns int
	}{
		{"killed mid-turn", append(slices.Clone(two), burrLine("begin_entry", "assemble_context", 99, nil)), episode.EndKilled, false, 2},
		{"killed, its last line cut", append(slices.Clone(two), `{"type":"end_entry","end_time":"x","action":"record_mem`), episode.EndKilled, false, 2},
		{"the turn budget", append(slices.Clone(two), turnLines(3, 5, 5, "execute_action", nil)...), episode.EndMaxTurns, false, 3},
		{"game over", append(slices.Clone(two), turnLines(3, 5, -5, "execute_action", map[string]any{"game_over": true, "game_over_reason": "death"})...),
			episode.EndGameOver, false, 3},
		{"main.py's stuck stop", two, episode.EndStuckTermination, true, 2},
		{"turn_complete", append(slices.Clone(two), burrLine("begin_entry", "turn_complete", 98, nil),
			burrLine("end_entry", "turn_complete", 98, map[string]any{"game_over": true, "game_over_reason": "victory"})), episode.EndGameOver, false, 2},
		{"a failed action", append(slices.Clone(two), burrLine("begin_entry", "extract_info", 97, nil),
			strings.Replace(burrLine("end_entry", "extract_info", 97, map[string]any{}), `"exception":null`, `"exception":"Traceback (most recent call last):\nValueError: boom"`, 1)),
			episode.EndException, false, 2},
	} {
		t.Run(c.name, func(t *testing.T) {
			eps, _ := readBurrBytes(t, []byte(strings.Join(c.lines, "\n")+"\n"))
			if len(eps) != 1 {
				t.Fatalf("%d episodes", len(eps))
			}
			ep := eps[0]
			if ep.End.Reason != c.end || ep.N() != c.turns || (ep.Recorded.Stop != nil) != c.stop || ep.Recorded.CounterOnly == c.stop {
				t.Errorf("end %+v, %d turns, stop %+v, counter only %v", ep.End, ep.N(), ep.Recorded.Stop, ep.Recorded.CounterOnly)
			}
			if c.end == episode.EndException && ep.End.Detail != "extract_info failed at line 22: ValueError: boom" {
				t.Errorf("detail %q", ep.End.Detail)
			}
			if ep.ID != "ep7" || ep.Score(2) != 5 || ep.InitialRoom != "Room 0" || ep.Turns[1].Location != "Room 2" {
				t.Errorf("%s: score %v, start %q, room after 2 %q", ep.ID, ep.Score(2), ep.InitialRoom, ep.Turns[1].Location)
			}
		})
	}
}

// The runner stops right after a turn's execute_action, so the counter of
// that turn is not recorded: the self-check compares the turns before it.
func TestBurrCounterThrough(t *testing.T) {
	lines := append(turnLines(1, 0, 0, "record_results", nil), turnLines(2, 0, 5, "execute_action", nil)...)
	eps, _ := readBurrBytes(t, []byte(strings.Join(lines, "\n")+"\n"))
	ep := eps[0]
	if ep.Recorded.Through != 1 || len(ep.Recorded.Resets) != 0 {
		t.Fatalf("through %d, resets %v", ep.Recorded.Through, ep.Recorded.Resets)
	}
	if sc := replay.Check(ep, policy.DefaultTimer(), zorkGPT2); sc == nil || sc.Policy != policy.Zorkburr {
		t.Errorf("self-check %+v: the score change at 2 has no recorded counter to compare", sc)
	}
}

// zorkburr/main.py stopped a run after record_results at turn 4, the score
// never moved: the counter was t after turn t, and the check before a stop
// at 4 saw max(c(t−1), c(t)) = t. The settings [tool.zorkburr] takes (any
// max_turns_stuck from 1) that stop it at 4 and not before, by hand: interval 1
// (checks at 1, 2, 3: W > 3) W = 4; interval 2 (check at 2: W > 2) W 3–4;
// interval 4 (no check before) W 1–4. ZorkGPT's bounds (W ≥ 6) would allow none.
// zorkGPT2 is what ZorkGPT2's recordings run (system.ZorkGPT2's Recorder):
// zorkburr, at any max_turns_stuck from 1 and any interval from 1.
var zorkGPT2 = replay.Recorder{Rules: []policy.Name{policy.Zorkburr}, Accepts: func(w, i int) bool { return w >= 1 && i >= 1 }}

func TestBurrSelfCheckSettings(t *testing.T) {
	var lines []string
	for turn := 1; turn <= 4; turn++ {
		lines = append(lines, turnLines(turn, 0, 0, "record_results", nil)...)
	}
	eps, _ := readBurrBytes(t, []byte(strings.Join(lines, "\n")+"\n"))
	ep := eps[0]
	if ep.End.Reason != episode.EndStuckTermination || ep.Recorded.Stop == nil || ep.Recorded.Stop.Turn != 4 {
		t.Fatalf("end %+v, stop %+v: want main.py's stop at 4", ep.End, ep.Recorded.Stop)
	}
	sc := replay.Check(ep, policy.DefaultTimer(), zorkGPT2)
	want := []replay.Consistent{{CheckInterval: 1, MaxTurnsStuckMin: 4, MaxTurnsStuckMax: 4}, {CheckInterval: 2, MaxTurnsStuckMin: 3, MaxTurnsStuckMax: 4},
		{CheckInterval: 4, MaxTurnsStuckMin: 1, MaxTurnsStuckMax: 4}}
	if sc == nil || sc.Policy != policy.Zorkburr || !slices.Equal(sc.Consistent, want) || sc.DefaultsConsistent {
		t.Errorf("self-check %+v, want %s reproducing the resets, consistent %+v", sc, policy.Zorkburr, want)
	}
}

// A bad line is a problem with its number, the rest is read.
func TestBurrBadLines(t *testing.T) {
	lines := append(turnLines(1, 0, 0, "record_results", nil), `{"type":"end_entry",`+"\t"+`"action":"execute_action","state":{"turn_count":}}`, "not json")
	lines = append(lines, turnLines(2, 0, 5, "execute_action", nil)...)
	eps, _ := readBurrBytes(t, []byte(strings.Join(lines, "\n")+"\n"))
	ep := eps[0]
	msgs := strings.Join(ep.ProblemMessages(), "|")
	if ep.N() != 2 || ep.ProblemCount != 2 || !strings.Contains(msgs, "log.jsonl:11: ") || !strings.Contains(msgs, "log.jsonl:12: ") {
		t.Errorf("%d turns, problems %q", ep.N(), msgs)
	}
}

// An application directory is claimed by its metadata.json and read from
// log.jsonl or log.jsonl.gz; its id is the state's episode_id.
func TestBurrDir(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "default", "app-1")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if (BurrDir{}).ClaimsDir(dir) {
		t.Error("an empty directory claimed")
	}
	write := func(name string, data []byte) {
		if err := os.WriteFile(filepath.Join(dir, name), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	var gz bytes.Buffer
	zw := gzip.NewWriter(&gz)
	zw.Write(generated(t, 30))
	zw.Close()
	write("log.jsonl.gz", gz.Bytes())
	write("metadata.json", []byte(`{"type": "not_burr"}`))
	if (BurrDir{}).ClaimsDir(dir) {
		t.Error("claimed with a metadata.json that is not Burr's")
	}
	write("metadata.json", []byte(benchdata.BurrMetadata))
	if !(BurrDir{}).ClaimsDir(dir) {
		t.Fatal("not claimed")
	}
	for _, log := range []string{"log.jsonl", "log.jsonl.gz", "log.jsonl.zst"} {
		if !(BurrDir{}).Marks(log) {
			t.Errorf("Marks does not take %s: a walk would not ask of a directory holding it", log)
		}
	}
	var eps []*episode.Episode
	res := BurrDir{}.ReadDir(dir, source.Options{}, func(ep *episode.Episode) { eps = append(eps, ep) })
	if len(eps) != 1 || eps[0].N() != 30 || eps[0].ID != "ep-bench" || eps[0].Fact("app_id") != "app-1" || eps[0].Fact("partition_key") != "ep-bench" {
		t.Fatalf("%v %v", eps, res)
	}
}

func BenchmarkBurrLog(b *testing.B) {
	data := generated(b, 200)
	b.SetBytes(int64(len(data)))
	for b.Loop() {
		eps, _ := source.ReadAll(Burr{}, bytes.NewReader(data), "log.jsonl", source.Options{})
		if len(eps) != 1 || eps[0].N() != 200 {
			b.Fatal(len(eps))
		}
	}
}

// A turn logged twice (a resumed application appends to its log, its
// sequence ids going on) keeps its first record.
func TestBurrTurnTwice(t *testing.T) {
	again := strings.ReplaceAll(strings.Join(turnLines(1, 0, 7, "record_results", nil), "\n"), `"sequence_id":2`, `"sequence_id":12`)
	lines := append(turnLines(1, 0, 0, "record_results", nil), again)
	eps, _ := readBurrBytes(t, []byte(strings.Join(lines, "\n")+"\n"))
	ep := eps[0]
	if ep.N() != 1 || ep.Score(1) != 0 || ep.ProblemCount != 1 || ep.Problems[0].Msg != "execute_action of turn 1 again: a repeat, skipped" {
		t.Errorf("%d turns, score %v, problems %q", ep.N(), ep.Score(1), ep.ProblemMessages())
	}
}

// Keys that differ from a state member's only by case are not it, as in
// Python's json.loads: each execute_action state carries "SCORE" and "Score"
// after its score, and "TURN_COUNT" after its turn count; the scores are 0,
// 5, 5 and the turns 1 to 3.
func TestBurrKeysByCase(t *testing.T) {
	var lines []string
	for turn, score := range []int{0, 5, 5} {
		for _, l := range turnLines(turn+1, []int{0, 0, 5}[turn], score, "record_results", nil) {
			if strings.Contains(l, `"action":"execute_action","result"`) {
				l = strings.Replace(l, fmt.Sprintf(`"score":%d,`, score), fmt.Sprintf(`"score":%d,"SCORE":99,"Score":98,`, score), 1)
				l = strings.Replace(l, fmt.Sprintf(`"turn_count":%d`, turn+1), fmt.Sprintf(`"turn_count":%d,"TURN_COUNT":40`, turn+1), 1)
				if !strings.Contains(l, `"SCORE":99`) || !strings.Contains(l, `"TURN_COUNT":40`) {
					t.Fatalf("no keys by case in %s", l)
				}
			}
			lines = append(lines, l)
		}
	}
	eps, _ := readBurrBytes(t, []byte(strings.Join(lines, "\n")+"\n"))
	ep := eps[0]
	if ep.N() != 3 || ep.Score(1) != 0 || ep.Score(2) != 5 || ep.Score(3) != 5 || ep.ProblemCount != 0 {
		t.Errorf("%d turns, scores %v %v %v, problems %q", ep.N(), ep.Score(1), ep.Score(2), ep.Score(3), ep.ProblemMessages())
	}
}

// A long entry (a state of thousands of turns) is slimmed to what the
// episode reads before it is decoded: the same run, the states it reads
// grown past source.SlimFrom by a long first action_history entry and a long
// member the reader does not name, gives the same episode.
func TestBurrLongLinesSlimmed(t *testing.T) {
	data := generated(t, 10)
	pad := strings.Repeat("x", source.SlimFrom/2)
	var long []string
	for _, l := range strings.Split(string(data), "\n") {
		if strings.Contains(l, `"action":"execute_action","result"`) || strings.Contains(l, `"action":"record_results","result"`) {
			l = strings.Replace(l, `"action_history":[`, `"action_history":[{"turn":0,"action":"`+pad+`"},`, 1)
			l = strings.Replace(l, `"state":{`, `"state":{"knowledge":"`+pad+`",`, 1)
			if len(l) <= source.SlimFrom {
				t.Fatalf("a line of %d bytes", len(l))
			}
		}
		long = append(long, l)
	}
	want, _ := readBurrBytes(t, data)
	got, res := readBurrBytes(t, []byte(strings.Join(long, "\n")))
	if len(got) != 1 {
		t.Fatalf("%d episodes: %+v", len(got), res)
	}
	if !reflect.DeepEqual(got[0].Turns, want[0].Turns) || !reflect.DeepEqual(got[0].Recorded, want[0].Recorded) ||
		got[0].End != want[0].End || got[0].ProblemCount != 0 || got[0].N() != 10 {
		t.Errorf("slimmed: %d turns, end %+v, problems %q; want %d turns, end %+v", got[0].N(), got[0].End, got[0].ProblemMessages(), want[0].N(), want[0].End)
	}
}

// A Burr log compressed is read whole, however well it compresses: each
// line repeats the whole state, and zstd's default level compresses a run
// of 260 turns (106 MB) hundreds of times, past 64 MiB, where a guard on the
// ratio alone would take it for a decompression bomb (jsonl.Limits).
func TestBurrZstdReadWhole(t *testing.T) {
	if testing.Short() {
		t.Skip("106 MB of log: not in -short")
	}
	plain := generated(t, 260)
	var zst bytes.Buffer
	zw, _ := zstd.NewWriter(&zst)
	zw.Write(plain)
	zw.Close()
	if ratio := len(plain) / zst.Len(); len(plain) < 64<<20 || ratio < 200 {
		t.Fatalf("%d bytes compressed %d times: not past 64 MiB at a ratio of 200 or more", len(plain), ratio)
	}
	dir := filepath.Join(t.TempDir(), "app")
	os.MkdirAll(dir, 0o755)
	os.WriteFile(filepath.Join(dir, "metadata.json"), []byte(benchdata.BurrMetadata), 0o644)
	os.WriteFile(filepath.Join(dir, "log.jsonl.zst"), zst.Bytes(), 0o644)
	if !(BurrDir{}).ClaimsDir(dir) {
		t.Fatal("log.jsonl.zst: not an application")
	}
	var eps []*episode.Episode
	res := BurrDir{}.ReadDir(dir, source.Options{}, func(ep *episode.Episode) { eps = append(eps, ep) })
	if res.Cut != nil || len(eps) != 1 || eps[0].N() != 260 || eps[0].ProblemCount != 0 {
		t.Errorf("cut %v, %d episodes", res.Cut, len(eps))
	}
}

// Burr's sequence ids tell its entries apart (docs/bad-input.md, "Runs in
// one file"): a repeated entry counts once, and an application's log
// appended to another's, its ids from 0 again, is a run of its own.
func TestBurrRunsBySequence(t *testing.T) {
	clean := append(turnLines(1, 0, 0, "record_results", nil), turnLines(2, 0, 5, "record_results", nil)...)
	want, _ := readBurrBytes(t, []byte(strings.Join(clean, "\n")+"\n"))
	var doubled []string
	for _, l := range clean {
		doubled = append(doubled, l)
		if strings.Contains(l, `"generate_action"`) || strings.Contains(l, `"action":"execute_action","result"`) {
			doubled = append(doubled, l)
		}
	}
	eps, _ := readBurrBytes(t, []byte(strings.Join(doubled, "\n")+"\n"))
	// Turn 1: the begin entry of generate_action (line 3) and its end entry
	// (line 5), then the end entry of execute_action (line 10) twice.
	msgs := eps[0].ProblemMessages()
	if len(eps) != 1 || !reflect.DeepEqual(eps[0].Turns, want[0].Turns) || eps[0].SkippedLines != 6 ||
		msgs[0] != "log.jsonl:4: sequence_id 21 again: a repeat, skipped" ||
		msgs[1] != "log.jsonl:6: end_entry of generate_action, sequence_id 21 again: a repeat, skipped" ||
		msgs[2] != "log.jsonl:11: end_entry of execute_action, sequence_id 23 again: a repeat, skipped" {
		t.Errorf("doubled: %d episodes, problems %q", len(eps), msgs)
	}
	// Two applications in one log: the second's ids from 0 again.
	second := strings.ReplaceAll(strings.Join(turnLines(1, 0, 3, "record_results", nil), "\n"), `"sequence_id":2`, `"sequence_id":`)
	second = strings.ReplaceAll(second, `"ep7"`, `"ep8"`)
	eps, res := readBurrBytes(t, []byte(strings.Join(clean, "\n")+"\n"+second+"\n"))
	if len(eps) != 2 || res.Segments != 2 || eps[0].ID != "ep7" || eps[0].N() != 2 || eps[1].ID != "ep8" || eps[1].N() != 1 ||
		eps[1].Score(1) != 3 || eps[0].ProblemCount+eps[1].ProblemCount != 0 || eps[1].Segment != 2 {
		t.Errorf("appended: %d episodes, %d segments, %+v", len(eps), res.Segments, eps)
	}
}
