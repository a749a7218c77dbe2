package zorkgpt

import (
	"fmt"
	"strings"
	"testing"

	"github.com/lbanalyze/lbanalyze/episode"
	"github.com/lbanalyze/lbanalyze/internal/testlogs"
	"github.com/lbanalyze/lbanalyze/replay"
	"github.com/lbanalyze/lbanalyze/source"
)

func tc(turn int, score any) string {
	return fmt.Sprintf(`{"timestamp": "2025-11-12T10:00:01", "level": "INFO", "message": "Turn %d completed", "event_type": "turn_completed", "episode_id": "2025-11-12T10:00:00", "turn": %d, "action": "look", "score": %v, "location": "West of House"}`+"\n", turn, turn, score)
}

func turnsLog(n int) string {
	var b strings.Builder
	for t := 1; t <= n; t++ {
		b.WriteString(tc(t, 0))
	}
	return b.String()
}

func rejectedReasons(lg *Log) string {
	var s []string
	for _, r := range lg.Rejected {
		s = append(s, r.Reason)
	}
	return strings.Join(s, "\n")
}

func logProblems(lg *Log) string {
	var s []string
	for _, p := range lg.Problems {
		s = append(s, p.String())
	}
	return strings.Join(s, "\n")
}

func TestBOMStripped(t *testing.T) {
	ep := one(t, []byte("\ufeff"+turnsLog(3)))
	if ep.N() != 3 || ep.ProblemCount != 0 {
		t.Errorf("%d turns, problems %s", ep.N(), problems(ep))
	}
}

// A line that matters but is longer than MaxLine is skipped with a problem
// naming its line; the rest of the file is read.
func TestLongLineSkipped(t *testing.T) {
	long := strings.Replace(tc(2, 0), `"look"`, `"`+strings.Repeat("x", 2<<20)+`"`, 1)
	data := tc(1, 0) + long + tc(3, 5)
	lg := Read(strings.NewReader(data), "test.jsonl", Options{MaxLine: 1 << 20})
	ep := lg.Episodes[0]
	if ep.N() != 3 || ep.SkippedLines != 1 || problems(ep) != "2: line longer than 1 MiB, skipped" || !ep.Turns[1].Missing {
		t.Errorf("%d turns, %d skipped, problems %q", ep.N(), ep.SkippedLines, problems(ep))
	}
}

// A long line that does not matter is passed over, but what its event type
// says of the era is kept.
func TestLongIrrelevantLineNotHeld(t *testing.T) {
	fas := `{"timestamp": "2025-11-12T10:00:01", "level": "INFO", "message": "x", "event_type": "final_action_selection", "turn": 1, "agent_reasoning": "` + strings.Repeat("why ", 1<<20) + `"}` + "\n"
	ep := one(t, []byte(fas+turnsLog(2)))
	if ep.N() != 2 || eraOf(ep) != "E3b" || ep.ProblemCount != 0 {
		t.Errorf("%d turns, era %s, problems %s", ep.N(), eraOf(ep), problems(ep))
	}
}

// A million bad lines keep ten messages and a count.
func TestProblemsCapped(t *testing.T) {
	data := turnsLog(2) + strings.Repeat("{\"a\": 1,,}\n", 100_000)
	ep := one(t, []byte(data))
	if len(ep.Problems) != 10 || ep.ProblemCount != 100_000 || ep.SkippedLines != 100_000 {
		t.Errorf("%d problems kept of %d, %d skipped", len(ep.Problems), ep.ProblemCount, ep.SkippedLines)
	}
}

// Segments that cannot be replayed keep ten problems between them, then a
// count, however many there are; alike rejections one after the other are
// counted in one.
func TestEmptySegmentsMerged(t *testing.T) {
	init := `{"timestamp": "2025-11-12T10:00:00", "level": "INFO", "message": "Episode initialized", "event_type": "episode_initialized", "episode_id": "2025-11-12T10:00:00", "max_turns": 500}` + "\n"
	var b strings.Builder
	for range 200_000 {
		b.WriteString(init)
		b.WriteString("{\"a\": 1,,}\n")
	}
	b.WriteString(turnsLog(3))
	lg := read(t, []byte(b.String()))
	if len(lg.Rejected) != 1 || lg.Rejected[0].Alike != 199_998 || !strings.Contains(lg.Rejected[0].Reason, "as are the 199998 segments after it") {
		t.Fatalf("rejected %d entries: %+v", len(lg.Rejected), lg.Rejected[:min(3, len(lg.Rejected))])
	}
	if len(lg.Problems) != 11 || !strings.Contains(lg.Problems[10].Msg, "and 199989 more problems") {
		t.Errorf("%d problems: %s", len(lg.Problems), logProblems(lg))
	}
	if len(lg.Episodes) != 1 || lg.Episodes[0].Segment != 200_000 || lg.Segments != 200_000 {
		t.Errorf("episodes %d", len(lg.Episodes))
	}
}

// Gaps of 999 turns again and again across restarted segments do not make
// up millions of turns from a small file: no more than 10,000 and the turns
// the file completes.
func TestGapTurnsBounded(t *testing.T) {
	var b strings.Builder
	for range 5000 {
		b.WriteString(tc(1, 0))
		b.WriteString(tc(999, 0))
	}
	lg := read(t, []byte(b.String()))
	turns := 0
	for _, ep := range lg.Episodes {
		turns += ep.N()
	}
	// 10,000 lines complete a turn: 10,000 made up at most, besides.
	if turns > 20_000 {
		t.Errorf("%d turns from 10,000 turn lines", turns)
	}
	last := lg.Episodes[len(lg.Episodes)-1]
	if !strings.Contains(problems(last), "more than its turns allow") {
		t.Errorf("no word of the budget: %s", problems(last))
	}
}

// An event type written with an escape, or under extras behind an empty
// top-level one, is read like any other.
func TestEscapedEventType(t *testing.T) {
	line := strings.Replace(tc(3, 7), `"turn_completed"`, `"turn\u005fcompleted"`, 1)
	ep := one(t, []byte(turnsLog(2)+line))
	if ep.N() != 3 || ep.Score(3) != 7 {
		t.Errorf("%v turns, score %v", ep.N(), ep.Score(3))
	}
}

func TestEmptyEventTypeUsesExtras(t *testing.T) {
	line := `{"timestamp": "2025-11-12T10:00:03", "level": "INFO", "message": "", "event_type": "", "extras": {"event_type": "turn_completed", "turn": 3, "score": 9}}` + "\n"
	ep := one(t, []byte(turnsLog(2)+line))
	if ep.N() != 3 || ep.Score(3) != 9 {
		t.Errorf("%v turns, score %v", ep.N(), ep.Score(3))
	}
}

// Scores beyond ±2^53 are refused with their line: differences of scores
// would overflow.
func TestAbsurdScore(t *testing.T) {
	for _, v := range []string{"2000000000000000000", "-9007199254740993"} {
		ep := one(t, []byte(turnsLog(2)+tc(3, v)+tc(4, 5)))
		if ep.Score(3) != 0 || ep.Score(4) != 5 || ep.SkippedLines != 1 || !strings.Contains(problems(ep), "3: score "+v+" is absurd") {
			t.Errorf("%s: score 3 %v, problems %s", v, ep.Score(3), problems(ep))
		}
	}
}

// A death read from zork_response text has its turn checked like
// game_over_detected's.
func TestZorkResponseDeathTurnChecked(t *testing.T) {
	death := `{"timestamp": "2025-11-12T10:00:03", "level": "INFO", "message": "ZORK RESPONSE", "event_type": "zork_response", "turn": 150000, "zork_response": "You have died"}` + "\n"
	ep := one(t, []byte(turnsLog(3)+death))
	if len(ep.Deaths) != 0 || ep.SkippedLines != 1 {
		t.Errorf("deaths %+v, problems %s", ep.Deaths, problems(ep))
	}
}

// objectives_updated is counted, whatever its list holds, nested under
// extras too.
func TestObjectiveUpdatesCounted(t *testing.T) {
	upd := `{"timestamp": "2025-11-12T10:00:03", "level": "INFO", "message": "x", "event_type": "objectives_updated", "turn": 2, "objectives": ["Open the [mailbox], \"now\"", "Go north", {"x": [1, 2]}]}` + "\n" +
		`{"timestamp": "2025-11-12T10:00:03", "level": "INFO", "message": "x", "extras": {"event_type": "objectives_updated", "turn": 3, "objectives": []}}` + "\n"
	ep := one(t, []byte(turnsLog(3)+upd))
	if ep.ObjectiveUpdates != 2 || ep.SkippedLines != 0 {
		t.Errorf("%d updates, problems %s", ep.ObjectiveUpdates, problems(ep))
	}
}

// A JSON file that is not a log says so after a few lines, instead of a
// message for every line.
func TestNotAZorkGPTLog(t *testing.T) {
	for _, data := range []string{
		"{\n  \"score\": 5,\n  \"rooms\": [1, 2],\n  \"inventory\": []\n}\n",
		"[tool.zorkgpt.loop_break]\nmax_turns_stuck = 40\nstuck_check_interval = 10\n\n[tool.zorkgpt.files]\nx = 1\n",
		strings.Repeat("{\"score\": 5}\n", 1000),
	} {
		lg := read(t, []byte(data))
		if len(lg.Rejected) != 1 || !strings.Contains(lg.Rejected[0].Reason, "does not look like a ZorkGPT episode log") || len(lg.Problems) != 0 {
			t.Errorf("%.20q: rejected %q, problems %s", data, rejectedReasons(lg), logProblems(lg))
		}
	}
}

// Segments that cannot be replayed, each with an id of its own so that none
// merge, are listed up to source.MaxRejected and counted beyond: a file of
// init lines alone must not cost a message and an entry a line.
func TestRejectedSegmentsBounded(t *testing.T) {
	var b strings.Builder
	for i := range 1000 {
		fmt.Fprintf(&b, `{"timestamp": "2025-11-12T10:00:00", "level": "INFO", "event_type": "episode_initialized", "episode_id": "x%d"}`+"\n", i)
	}
	b.WriteString(strings.ReplaceAll(turnsLog(3), "2025-11-12T10:00:00", "x999")) // turns for the last one: an episode, kept
	lg := read(t, []byte(b.String()))
	if len(lg.Episodes) != 1 || lg.Segments != 1000 {
		t.Fatalf("%d episodes of %d segments, want 1 of 1000", len(lg.Episodes), lg.Segments)
	}
	if len(lg.Rejected) != source.MaxRejected+1 {
		t.Fatalf("%d rejections listed, want %d and a count", len(lg.Rejected), source.MaxRejected+1)
	}
	for i, r := range lg.Rejected[:source.MaxRejected] {
		if r.Segment != i+1 || r.ID != fmt.Sprintf("x%d", i) || !strings.Contains(r.Reason, "no turns") {
			t.Errorf("rejection %d: %+v", i, r)
		}
	}
	// Segments 21 to 999 are not listed: the 21st, and 978 after it.
	last := lg.Rejected[source.MaxRejected]
	if last.Segment != source.MaxRejected+1 || !strings.Contains(last.Reason, "nor can 978 of the segments after it") {
		t.Errorf("the count: %+v", last)
	}
}

// A member too long to be a name or an action is left out with a word, the
// rest of its line used; a long game response is still hashed, to the same
// hash as a short copy of it would give.
func TestLongValuesNotKept(t *testing.T) {
	big := strings.Repeat("n", maxValue+1)
	line := strings.Replace(tc(2, 5), `"look"`, `"`+big+`"`, 1)
	resp := func(turn int, text string) string {
		return fmt.Sprintf(`{"timestamp": "2025-11-12T10:00:02", "level": "INFO", "message": "ZORK RESPONSE", "event_type": "zork_response", "turn": %d, "zork_response": %q}`+"\n", turn, text)
	}
	ep := one(t, []byte(tc(1, 0)+resp(1, big)+line+resp(2, big)+tc(3, 5)))
	if ep.N() != 3 || ep.Score(2) != 5 || ep.Turns[1].Action != "" || ep.SkippedLines != 0 ||
		!strings.Contains(problems(ep), "3: action of turn_completed is 65539 bytes, longer than 64 KiB: not kept") {
		t.Errorf("%v turns, score %v, action %v bytes, problems %s", ep.N(), ep.Score(2), len(ep.Turns[1].Action), problems(ep))
	}
	short := one(t, []byte(tc(1, 0)+resp(1, big[:100])+tc(2, 0)+resp(2, big[:100])))
	if h := ep.Turns[0].ResponseHash; h == 0 || h != ep.Turns[1].ResponseHash || h == short.Turns[0].ResponseHash {
		t.Errorf("hashes %x %x (short %x)", h, ep.Turns[1].ResponseHash, short.Turns[0].ResponseHash)
	}
}

// One bad line must not change the rest of its episode (docs/log-format.md,
// "9. Bad lines and other problems lbanalyze reports"): each case is a clean
// log with one bad line; the episode it gives equals the clean one, but for
// the one skipped line.
func TestOneBadLineChangesNothingElse(t *testing.T) {
	// Worked by hand: 120 turns, one score change at 30; score 40/10 stops
	// at 70 (the first check turn 40 after 30), saving 50.
	clean := testlogs.Write(t, plan{N: 120, Changes: map[int]int{30: 5}}.Episode())
	for _, c := range []struct {
		name string
		bad  func(string) string
	}{
		// A corrupt turn number, 162 for 102, which the 18 turns after it
		// contradict: taken for a jump, it would make 162 turns, 102 saved.
		{"corrupt turn number", func(l string) string {
			if strings.Contains(l, `"event_type": "turn_completed"`) && strings.Contains(l, `"turn": 102,`) {
				return strings.Replace(l, `"turn": 102,`, `"turn": 162,`, 1)
			}
			return l
		}},
		// A line of another run's episode, for the same turn 51 with its
		// own score: merged, it would be a later turn_completed of turn 51.
		{"foreign episode id", func(l string) string {
			if strings.Contains(l, `"event_type": "turn_completed"`) && strings.Contains(l, `"turn": 51,`) {
				other := strings.Replace(l, `"episode_id": "2025-11-12T10:00:00"`, `"episode_id": "2025-11-12T11:00:00"`, 1)
				return l + strings.Replace(other, `"score": 5`, `"score": 99`, 1)
			}
			return l
		}},
		// Keys that only fold to a field's: Python's json.loads and
		// ZorkGPT's own tools would not read them as the score.
		{"keys by case", func(l string) string {
			if strings.Contains(l, `"event_type": "turn_completed"`) && strings.Contains(l, `"turn": 80,`) {
				return strings.TrimSuffix(l, "}\n") + `, "SCORE": 99, "Score": 98, "ſcore": 97}` + "\n"
			}
			return l
		}},
	} {
		t.Run(c.name, func(t *testing.T) {
			var b strings.Builder
			for _, l := range strings.SplitAfter(string(clean), "\n") {
				b.WriteString(c.bad(l))
			}
			ep, want := one(t, []byte(b.String())), one(t, clean)
			o, w := replay.Run(ep, v1), replay.Run(want, v1)
			if ep.N() != 120 || o.TerminationTurn != 70 || o.TurnsSaved != 50 || ep.FinalScore() != 5 || !replay.SameResult(&o, &w) {
				t.Errorf("%v turns, stop %v, saved %v, final score %v; want 120, 70, 50, 5 (problems %s)",
					ep.N(), o.TerminationTurn, o.TurnsSaved, ep.FinalScore(), problems(ep))
			}
			for i := range ep.Turns {
				if ep.Turns[i].Score != want.Turns[i].Score {
					t.Fatalf("turn %v: score %v, want %v", i+1, ep.Turns[i].Score, want.Turns[i].Score)
				}
			}
		})
	}
}

// A key is a field's once its escapes are undone, as in Python: "sco\u0072e"
// is the score.
func TestEscapedKeyIsTheField(t *testing.T) {
	line := strings.Replace(tc(2, 0), `"score": 0`, `"sco\u0072e": 7`, 1)
	ep := one(t, []byte(tc(1, 0)+line))
	if ep.Score(2) != 7 || ep.ProblemCount != 0 {
		t.Errorf("score %v, problems %s", ep.Score(2), problems(ep))
	}
}

// Two runs writing to one file, their lines alternating: the episode the
// segment began with is read as it would be alone, the other run's lines are
// skipped with a word each (counted past the first few), never merged.
func TestInterleavedRunsNeverMerge(t *testing.T) {
	a := testlogs.Write(t, plan{N: 60, Changes: map[int]int{20: 5}}.Episode())
	b := strings.ReplaceAll(string(testlogs.Write(t, plan{N: 60, Changes: map[int]int{10: 50}}.Episode())), "2025-11-12T10:00:00", "2025-11-12T11:00:00")
	var turnsB []string
	for _, l := range strings.SplitAfter(b, "\n") {
		if strings.Contains(l, `"event_type": "turn_completed"`) {
			turnsB = append(turnsB, l)
		}
	}
	var mixed strings.Builder
	k := 0
	for _, l := range strings.SplitAfter(string(a), "\n") {
		mixed.WriteString(l)
		if strings.Contains(l, `"event_type": "turn_completed"`) && k < len(turnsB) {
			mixed.WriteString(turnsB[k])
			k++
		}
	}
	ep, want := one(t, []byte(mixed.String())), one(t, a)
	// Worked by hand: A changes score at 20 only, so score 40/10 stops at 60
	// (the first check turn 40 after 20), its last turn; B's +50 is not A's.
	o, w := replay.Run(ep, v1), replay.Run(want, v1)
	if ep.ID != "2025-11-12T10:00:00" || ep.N() != 60 || ep.FinalScore() != 5 || o.TerminationTurn != 60 || !replay.SameResult(&o, &w) ||
		ep.SkippedLines != 60 || !strings.Contains(problems(ep), "turn_completed of episode 2025-11-12T11:00:00 in episode 2025-11-12T10:00:00: skipped") {
		t.Errorf("%s: %v turns, final %v, stop %v, %v skipped; problems %s", ep.ID, ep.N(), ep.FinalScore(), o.TerminationTurn, ep.SkippedLines, problems(ep))
	}
}

// Members whose keys differ from a field's only by case, or by a Unicode
// folding, are not the field, as in Python's json.loads: each turn_completed
// line carries "SCORE", "Score" and "ſcore" after its score (and "TURN"
// after its turn), at the top level or under extras; the scores are those of
// the score members, 1 to 6.
func TestKeysByCase(t *testing.T) {
	var b strings.Builder
	for turn := 1; turn <= 5; turn++ {
		l := strings.Replace(tc(turn, turn), `, "location"`, `, "SCORE": 99, "Score": 98, "ſcore": 97, "location"`, 1)
		b.WriteString(strings.Replace(l, `, "action"`, `, "TURN": 40, "action"`, 1))
	}
	b.WriteString(`{"timestamp": "2025-11-12T10:00:06", "level": "INFO", "message": "x", "extras": {"event_type": "turn_completed", "turn": 6, "score": 6, "SCORE": 99, "Turn": 50}}` + "\n")
	ep := one(t, []byte(b.String()))
	if ep.N() != 6 || ep.ProblemCount != 0 {
		t.Fatalf("%d turns, problems %s", ep.N(), problems(ep))
	}
	for turn := 1; turn <= 6; turn++ {
		if ep.Score(turn) != episode.Score(turn) {
			t.Errorf("turn %d: score %v, want %d", turn, ep.Score(turn), turn)
		}
	}
}

// A line that holds event_type twice is the event of the last one, as
// Python's json.loads reads it: turn 2's line says final_action_selection,
// then turn_completed (a turn, score 7); turn 3's the other way round (no
// turn: its score is carried forward from turn 2).
func TestRepeatedEventType(t *testing.T) {
	two := strings.Replace(tc(2, 7), `"event_type": "turn_completed"`, `"event_type": "final_action_selection", "event_type": "turn_completed"`, 1)
	three := strings.Replace(tc(3, 9), `"event_type": "turn_completed"`, `"event_type": "turn_completed", "event_type": "final_action_selection"`, 1)
	ep := one(t, []byte(tc(1, 0)+two+three+tc(4, 9)))
	if ep.N() != 4 || ep.Score(2) != 7 || ep.Score(3) != 7 || !ep.Turns[2].Missing || ep.Score(4) != 9 {
		t.Errorf("%v turns, scores %v %v %v, turn 3 missing %v", ep.N(), ep.Score(2), ep.Score(3), ep.Score(4), ep.Turns[2].Missing)
	}
}

// A line is read up to its event type first: one whose event lbanalyze does
// not read is passed over unchecked past it (its event type still dates the
// era: E3b), while one it reads is decoded whole, and skipped for a control
// character in any of its strings, as Python's json.loads refuses it too.
func TestLinesByKind(t *testing.T) {
	fas := `{"timestamp": "2025-11-12T10:00:01", "level": "INFO", "message": "x", "event_type": "final_action_selection", "turn": 2,, "agent_reasoning": "why"}` + "\n"
	ctl := strings.Replace(tc(3, 5), "Turn 3 completed", "Turn 3\x01completed", 1)
	ep := one(t, []byte(tc(1, 0)+fas+tc(2, 0)+ctl+tc(4, 5)))
	if ep.N() != 4 || eraOf(ep) != "E3b" || ep.SkippedLines != 1 || !ep.Turns[2].Missing ||
		!strings.Contains(problems(ep), `4: invalid JSON: column 73: invalid character '\x01' in string`) {
		t.Errorf("%d turns, era %s, %d skipped, problems %s", ep.N(), eraOf(ep), ep.SkippedLines, problems(ep))
	}
}
