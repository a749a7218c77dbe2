package zorkgpt2

import (
	"bytes"
	"compress/gzip"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/lbanalyze/lbanalyze/episode"
	"github.com/lbanalyze/lbanalyze/source"
)

var update = flag.Bool("update", false, "rewrite the sample run of testdata/zorkgpt2 from its plan")

// sampleDir holds a short ZorkGPT2 run of lbanalyze's own making, in two of
// the forms ZorkGPT2 records a run: the runner's log and a Burr tracker
// application directory (its README says what it is). The documentation's
// examples read it; a real run's trajectory stays out of the repository.
const sampleDir = "../../testdata/zorkgpt2/ep7"

// sampleAppID names the sample's Burr application directory.
const sampleAppID = "7d0c1a52-4e1f-4b6e-9c3a-000000000007"

// sampleTurn is a turn of the sample's plan: the room after it, the score
// after it, the critic's score of the action taken and the proposals
// rejected before it (3: forced through after the third).
type sampleTurn struct {
	room, action string
	score        int
	critic       float64
	rejections   int
}

// samplePlan is the sample run, turn by turn: 80 turns of Zork I, +10 at
// turn 5, +25 at 12, +5 at 16, then flat at 40 for 61 turns (16 to 77)
// before +4 at 78; a proposal rejected at turns 6 and 45, two at 30, three
// (the third forced through, its critic score below 0.3) at 10 and 60; never
// more than 8 turns in a row in one room.
func samplePlan() []sampleTurn {
	plan := make([]sampleTurn, 80)
	rooms := []struct {
		from int
		room string
	}{{1, "West of House"}, {3, "North of House"}, {4, "Behind House"}, {5, "Kitchen"}, {8, "Living Room"}, {12, "Cellar"},
		{16, "Troll Room"}, {24, "East-West Passage"}, {31, "Round Room"}, {38, "Loud Room"}, {44, "Round Room"}, {50, "East-West Passage"},
		{57, "Troll Room"}, {63, "East-West Passage"}, {70, "Round Room"}, {78, "Loud Room"}}
	actions := []string{"look", "north", "east", "open window", "enter window", "take sack", "west", "move rug", "open trap door", "down",
		"light lamp", "attack troll with sword", "east", "south", "west", "examine walls"}
	score := 0
	for t := 1; t <= 80; t++ {
		switch t {
		case 5:
			score = 10
		case 12:
			score = 35
		case 16:
			score = 40
		case 78:
			score = 44
		}
		p := sampleTurn{score: score, critic: 0.7, action: actions[t%len(actions)]}
		for _, r := range rooms {
			if t >= r.from {
				p.room = r.room
			}
		}
		switch t {
		case 6, 45:
			p.rejections, p.critic = 1, 0.6
		case 30:
			p.rejections, p.critic = 2, 0.5
		case 10:
			p.rejections, p.critic = 3, -0.8
		case 60:
			p.rejections, p.critic = 3, 0.1
		}
		plan[t-1] = p
	}
	return plan
}

// sampleRunLog is the plan as run_episode.py prints it (docs/zorkgpt2.md,
// "The run log"), with a line of library logging between turns as a real
// log has, and its end.
func sampleRunLog(plan []sampleTurn) []byte {
	var b bytes.Buffer
	b.WriteString("INFO:zorkburr:starting episode ep7 (max_turns=80)\n")
	for i, p := range plan {
		fmt.Fprintf(&b, "TURN %d | loc=%s | score=%d/350 | critic=%.2f | rejections=%d | action=%s\n",
			i+1, strings.ReplaceAll(p.room, " ", "_"), p.score, p.critic, p.rejections, p.action)
	}
	fmt.Fprintf(&b, "EPISODE_END | turns=80 | score=44/350 | locations=10 | objectives_found=0 | reason=max_turns\n")
	return b.Bytes()
}

// sampleBurrLog is the plan as Burr's tracking client writes a run of the
// turn graph (docs/zorkgpt2.md, "The Burr tracker log"): a begin_entry and an
// end_entry a Burr action, a rejected proposal a generate/evaluate loop, the
// run ended after the execute_action of the last turn, as both runners end it
// at the turn budget. Each state holds the keys lbanalyze reads and a few
// more, not the whole of a real one.
func sampleBurrLog(plan []sampleTurn) []byte {
	var b bytes.Buffer
	seq := 0
	state := map[string]any{"episode_id": "ep7", "turn_count": 0, "score": 0, "max_score": 350, "location_id": 180,
		"location_name": "West of House", "game_over": false, "game_over_reason": "", "turns_since_progress": 0, "completed_objectives": []any{}}
	step := func(action string) {
		fmt.Fprintf(&b, `{"type":"begin_entry","start_time":"2026-05-02T09:00:%02d.%06d","action":%q,"inputs":{},"sequence_id":%d}`+"\n",
			seq/1000%60, seq%1000000, action, seq)
		s, _ := json.Marshal(state) // map keys in order: the same bytes every time
		fmt.Fprintf(&b, `{"type":"end_entry","end_time":"2026-05-02T09:00:%02d.%06d","action":%q,"result":{},"exception":null,"state":%s,"sequence_id":%d}`+"\n",
			seq/1000%60, seq%1000000, action, s, seq)
		seq++
	}
	roomID := map[string]int{}
	stuck := 0
	for i, p := range plan {
		t := i + 1
		step("assemble_context")
		proposals := p.rejections + 1
		if p.rejections >= 3 {
			proposals = 3 // the third is forced through
		}
		for k := range proposals {
			state["critic_score"], state["rejection_count"] = 0.2, k
			step("generate_action")
			step("evaluate_action")
		}
		if _, ok := roomID[p.room]; !ok {
			roomID[p.room] = 180 + len(roomID)
		}
		pre := state["score"].(int)
		state["pre_location_id"], state["pre_location_name"], state["pre_score"] = state["location_id"], state["location_name"], pre
		state["turn_count"], state["score"], state["location_id"], state["location_name"] = t, p.score, roomID[p.room], p.room
		state["critic_score"], state["rejection_count"], state["action_to_take"] = p.critic, p.rejections, p.action
		state["game_response"] = fmt.Sprintf("%s. (turn %d)", p.room, t)
		step("execute_action")
		if t == len(plan) {
			break // the turn budget: the runner stops here
		}
		step("extract_info")
		if p.score != pre {
			stuck = 0
		} else {
			stuck++
		}
		state["turns_since_progress"] = stuck
		step("record_results")
		step("record_memory")
		step("check_objective_completion")
		if t%10 == 0 {
			step("update_objectives")
		}
	}
	return b.Bytes()
}

const sampleMetadata = `{"type": "application_metadata", "partition_key": "ep7", "parent_pointer": null, "spawning_parent_pointer": null}` + "\n"

// TestSampleRun writes the sample run from its plan with -update, and
// otherwise checks that the files are what the plan writes; then that both
// forms read as the plan says, turn by turn, ended by the turn budget.
func TestSampleRun(t *testing.T) {
	plan := samplePlan()
	app := filepath.Join(sampleDir, "burr", "default", sampleAppID)
	// The Burr log is kept gzipped (log.jsonl.gz, which Burr's directory
	// may hold too): compared once unzipped, as gzip's bytes may change
	// with the compressor.
	files := map[string][]byte{
		filepath.Join(sampleDir, "run_log_ep7.txt"): sampleRunLog(plan),
		filepath.Join(app, "log.jsonl.gz"):          sampleBurrLog(plan),
		filepath.Join(app, "metadata.json"):         []byte(sampleMetadata),
	}
	for path, want := range files {
		if *update {
			if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
				t.Fatal(err)
			}
			data := want
			if strings.HasSuffix(path, ".gz") {
				var b bytes.Buffer
				zw, _ := gzip.NewWriterLevel(&b, gzip.BestCompression)
				zw.Write(want)
				zw.Close()
				data = b.Bytes()
			}
			if err := os.WriteFile(path, data, 0o644); err != nil {
				t.Fatal(err)
			}
			continue
		}
		got, err := os.ReadFile(path)
		if err == nil && strings.HasSuffix(path, ".gz") {
			var zr *gzip.Reader
			if zr, err = gzip.NewReader(bytes.NewReader(got)); err == nil {
				got, err = io.ReadAll(zr)
			}
		}
		if err != nil || !bytes.Equal(got, want) {
			t.Errorf("%s is not what its plan writes (go test -update rewrites it): %v", path, err)
		}
	}
	eps, res := readFile(t, RunLog{}, filepath.Join(sampleDir, "run_log_ep7.txt"))
	var burr []*episode.Episode
	bres := BurrDir{}.ReadDir(app, source.Options{}, func(ep *episode.Episode) { burr = append(burr, ep) })
	if len(eps) != 1 || len(burr) != 1 || len(res.Rejected)+len(bres.Rejected) > 0 {
		t.Fatalf("run log %d episodes %v, Burr %d episodes %v", len(eps), res.Rejected, len(burr), bres.Rejected)
	}
	for _, ep := range []*episode.Episode{eps[0], burr[0]} {
		if ep.ID != "ep7" || ep.N() != 80 || ep.End.Reason != episode.EndMaxTurns || ep.ProblemCount > 0 {
			t.Errorf("%s: %s, %d turns, end %v, problems %q", ep.Format, ep.ID, ep.N(), ep.End.Reason, ep.ProblemMessages())
		}
		for i, p := range plan {
			tu := ep.Turns[i]
			// Calls: an agent and a critic call a proposal, and the extractor:
			// a forced turn proposes as many as it rejected.
			calls := 2*(p.rejections+1) + 1
			if p.rejections >= 3 {
				calls = 2*3 + 1
			}
			if tu.Score != episode.Score(p.score) || tu.Location != p.room || tu.Rejections != int32(p.rejections) ||
				fmt.Sprintf("%.2f", tu.Critic) != fmt.Sprintf("%.2f", p.critic) || tu.Calls != int32(calls) {
				t.Errorf("%s turn %d: score %v, room %q, rejections %d, critic %.2f, calls %d; want %d, %q, %d, %.2f, %d", ep.Format, i+1,
					tu.Score, tu.Location, tu.Rejections, tu.Critic, tu.Calls, p.score, p.room, p.rejections, p.critic, calls)
			}
		}
	}
}
