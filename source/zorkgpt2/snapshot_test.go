package zorkgpt2

import (
	"fmt"
	"strings"
	"testing"

	"github.com/lbanalyze/lbanalyze/episode"
	"github.com/lbanalyze/lbanalyze/source"
)

// A snapshot as extract_fixtures.py writes it (indent 2, ASCII escapes),
// before turn 4's evaluate_action: three entries, each with the room its
// action was taken in.
const snapshotDoc = `{
  "meta": {
    "app_id": "8e76",
    "episode_id": "ep7",
    "turn": 4
  },
  "action_type": "evaluate_action",
  "state": {
    "proposed_action": "take all",
    "game_response": "Taken.",
    "action_history": [
      {"turn": 1, "action": "north", "response": "North of House", "location_id": 180, "location_name": "West House",
       "score_before": 0, "score_after": 0, "reasoning": "long \u2014 text", "critic_score": 0.7, "rejection_count": 0},
      {"turn": 2, "action": "east", "response": "Behind House", "location_id": 81, "location_name": "North House",
       "score_before": 0, "score_after": 0, "critic_score": 0.2, "rejection_count": 3},
      {"turn": 3, "action": "open window", "response": "With great effort, you open the window.", "location_id": 79, "location_name": "Behind House",
       "score_before": 0, "score_after": 10, "critic_score": 0.9, "rejection_count": 1}
    ],
    "location_name": "Behind House",
    "rejection_count": 0
  },
  "original_output": {"critic_score": -1.0}
}
`

func TestSnapshot(t *testing.T) {
	if !(Snapshot{}).Claims([]byte(snapshotDoc[:300])) || (Snapshot{}).Claims([]byte(`{"type":"begin_entry","action":"x"}`+"\n"+`{"state":{"action_history":[]}}`)) {
		t.Fatal("claims: a snapshot, cut, is one; a Burr log is not")
	}
	eps, res := source.ReadAll(Snapshot{}, strings.NewReader(snapshotDoc), "ep7_t4_evaluate_action.json", source.Options{})
	if len(eps) != 1 || len(res.Rejected) > 0 {
		t.Fatalf("%d episodes, %v", len(eps), res.Rejected)
	}
	ep := eps[0]
	// The room after turn t is where turn t+1's action was taken; after turn
	// 3, the state's: named only, its id the one the history gives the name.
	want := []struct {
		id   int
		room string
	}{{81, "North House"}, {79, "Behind House"}, {79, "Behind House"}}
	for i, w := range want {
		if tu := ep.Turns[i]; tu.RoomID != w.id || tu.Location != w.room {
			t.Errorf("turn %d: room %d %q, want %d %q", i+1, tu.RoomID, tu.Location, w.id, w.room)
		}
	}
	if ep.ID != "ep7" || ep.InitialRoomID != 180 || ep.Score(3) != 10 || ep.Turns[1].Calls != 7 || ep.Turns[2].Calls != 5 ||
		ep.Fact("app_id") != "8e76" || ep.End.Reason != episode.EndNone || !ep.Signals.Has(episode.Critic, episode.Rejections, episode.Calls) {
		t.Errorf("%+v", ep)
	}
	var north turn
	north.setResponse("North of House")
	if ep.Turns[0].ResponseHash != north.response || ep.Turns[0].ResponseHash == 0 || ep.Turns[0].Response != "North of House" {
		t.Error("response hash and text")
	}
	// An older snapshot without critic scores records neither critic nor calls.
	old := strings.NewReplacer(`"critic_score": 0.7, `, "", `"critic_score": 0.2, `, "", `"critic_score": 0.9, `, "").Replace(snapshotDoc)
	eps, _ = source.ReadAll(Snapshot{}, strings.NewReader(old), "x.json", source.Options{})
	if s := eps[0].Signals; s.Has(episode.Critic) || s.Has(episode.Calls) || !s.Has(episode.Rejections) {
		t.Errorf("signals %b", s)
	}
}

func TestSnapshotBad(t *testing.T) {
	broken := strings.Replace(snapshotDoc, `{"turn": 2,`, `{"turn": 2,,`, 1)
	if !(Snapshot{}).Claims([]byte(broken)) {
		t.Error("a snapshot broken inside its history is not claimed, and so not named by its line")
	}
	for _, c := range []struct{ doc, want string }{
		{snapshotDoc[:400], "not a state snapshot: line 13: the object is cut"},
		{broken, "not a state snapshot: line 14: expected a key in quotes, found ','"},
		{`{"state": {"action_history": []}}`, "no turns"},
		{`{"state": {"action_history": [{"action": "x"}]}}`, "no turns"},
	} {
		_, res := source.ReadAll(Snapshot{}, strings.NewReader(c.doc), "x.json", source.Options{})
		if len(res.Rejected) != 1 || !strings.HasPrefix(res.Rejected[0].Reason, c.want) {
			t.Errorf("%.30q: %v, want %q", c.doc, res.Rejected, c.want)
		}
	}
}

// An entry of the history that cannot be used is skipped by itself, named
// by its line and place and counted, whatever is wrong with it: not an
// object, a member of the wrong type, no turn or score (docs/bad-input.md,
// "Every case"). Turn 2's entry has no score_after, turn 3's a string turn:
// both made up from turn 1's, turn 4 read.
func TestSnapshotEntriesSkipped(t *testing.T) {
	doc := `{"state": {"action_history": [
{"turn": 1, "action": "a", "score_after": 5},
7,
{"turn": 2, "action": "b"},
{"turn": "3", "action": "c", "score_after": 9},
{"turn": 4, "action": "d", "score_after": 10}
]}}
`
	eps, _ := source.ReadAll(Snapshot{}, strings.NewReader(doc), "x.json", source.Options{})
	want := []string{"x.json:3: state.action_history.1: not an object: entry skipped",
		"x.json:4: state.action_history.2 has no turn or score_after: entry skipped",
		"x.json:5: state.action_history.3.turn: string, not a whole number: entry skipped"}
	if len(eps) != 1 {
		t.Fatalf("%d episodes", len(eps))
	}
	ep := eps[0]
	var scores []episode.Score
	for i := 1; i <= ep.N(); i++ {
		scores = append(scores, ep.Score(i))
	}
	if got := ep.ProblemMessages(); fmt.Sprint(got) != fmt.Sprint(want) || ep.SkippedLines != 3 || fmt.Sprint(scores) != "[5 5 5 10]" {
		t.Errorf("problems %q, %d skipped, scores %v", got, ep.SkippedLines, scores)
	}
}

// A response is identified by its first 500 characters, as the action
// history keeps it: the Burr log's whole response and the snapshot's cut one
// hash alike.
func TestResponseHash(t *testing.T) {
	long := strings.Repeat("é", 600)
	var whole, cut, shorter turn
	whole.setResponse(long)
	cut.setResponse(long[:1000])
	shorter.setResponse(long[:998])
	if whole.response != cut.response || whole.response == shorter.response || whole.text != cut.text || whole.text == shorter.text {
		t.Error("the first 500 characters (runes, not bytes) identify a response")
	}
}

// Keys that differ from a history entry's only by case are not it, as in
// Python's json.loads: each entry carries "SCORE_AFTER" and "Score_After"
// after its score_after, and "TURN" after its turn; the scores stay 0, 0, 10.
func TestSnapshotKeysByCase(t *testing.T) {
	doc := strings.ReplaceAll(snapshotDoc, `"score_after": 0`, `"score_after": 0, "SCORE_AFTER": 99, "Score_After": 98`)
	doc = strings.ReplaceAll(doc, `"score_after": 10`, `"score_after": 10, "SCORE_AFTER": 99, "Score_After": 98`)
	doc = strings.ReplaceAll(doc, `{"turn": 1,`, `{"turn": 1, "TURN": 7,`)
	if strings.Count(doc, `"SCORE_AFTER"`) != 3 || !strings.Contains(doc, `"TURN": 7`) {
		t.Fatal("no keys by case")
	}
	eps, res := source.ReadAll(Snapshot{}, strings.NewReader(doc), "ep7_t4_evaluate_action.json", source.Options{})
	if len(eps) != 1 {
		t.Fatalf("%+v", res)
	}
	if ep := eps[0]; ep.N() != 3 || ep.Score(1) != 0 || ep.Score(2) != 0 || ep.Score(3) != 10 || ep.ProblemCount != 0 {
		t.Errorf("%d turns, scores %v %v %v, problems %q", ep.N(), ep.Score(1), ep.Score(2), ep.Score(3), ep.ProblemMessages())
	}
}
