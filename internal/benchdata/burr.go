package benchdata

import (
	"bufio"
	"fmt"
	"io"
	"strings"
)

// BurrLog writes a Burr tracker log (log.jsonl) of a ZorkGPT2 run of turns
// turns with the shape of a real one (docs/zorkgpt2.md, "The Burr tracker
// log"): a begin_entry and an end_entry line for every action of the turn
// graph, rejected proposals as generate/evaluate loops, and in every
// end_entry the whole state, whose action_history grows by one entry a turn
// — so the file grows with the square of the turns, as real ones do (1,000
// turns: about 1.5 GB). The score rises by 5 every 97 turns; every 7th turn
// has a rejected proposal, every 29th is forced through after 3.
func BurrLog(w io.Writer, turns int) error {
	bw := bufio.NewWriterSize(w, 1<<20)
	g := &burrGen{w: bw}
	for t := 0; t < turns; t++ {
		g.turn(t)
	}
	return bw.Flush() // a write error stays in bw, and Flush returns it
}

// BurrMetadata is an application directory's metadata.json.
const BurrMetadata = `{"type": "application_metadata", "partition_key": "ep-bench", "parent_pointer": null, "spawning_parent_pointer": null}`

type burrGen struct {
	w       *bufio.Writer
	seq     int
	score   int
	stuck   int
	lastHit int
	history []byte // the action_history array's entries, comma-separated
	// per turn, as the state holds it
	turnCount, rejections, preScore int
	critic                          string
	room, preRoom                   int
}

var rooms = []string{"West House", "North House", "Behind House", "Kitchen", "Living ", "Cellar", "Troll ", "East-West Passage", "Round ", "Loud "}

// turn writes the actions of turn t+1.
func (g *burrGen) turn(t int) {
	rejected := 0
	switch {
	case (t+1)%29 == 0:
		rejected = 3
	case (t+1)%7 == 0:
		rejected = 1
	}
	g.rejections, g.critic = 0, "0.7"
	g.step("assemble_context")
	for k := 0; ; k++ {
		g.step("generate_action")
		if k < rejected {
			g.rejections++
			g.critic = "0.2"
		} else {
			g.critic = "0.7"
		}
		g.step("evaluate_action")
		if k >= rejected || g.rejections >= 3 {
			if g.rejections >= 3 {
				g.critic = "0.2"
			}
			break
		}
	}
	// execute_action: the turn happens.
	g.preRoom = g.room
	g.room = (t * 7 / 3) % len(rooms)
	pre := g.score
	if (t+1)%97 == 0 {
		g.score += 5
	}
	g.turnCount, g.preScore = t+1, pre
	if g.score != pre {
		g.lastHit = t + 1
	}
	if len(g.history) > 0 {
		g.history = append(g.history, ',')
	}
	g.history = fmt.Appendf(g.history, `{"turn":%d,"action":"go north and look around","response":"You are in a maze of twisty little passages, all alike. There is a small mailbox here. Passages lead off in every direction, and the walls are damp; somewhere a dripping sound echoes. It is pitch dark beyond the lamp.","location_id":%d,"location_name":%q,"score_before":%d,"score_after":%d}`,
		t+1, 100+g.preRoom, rooms[g.preRoom], pre, g.score)
	g.step("execute_action")
	g.step("extract_info")
	if g.score != pre {
		g.stuck = 0
	} else {
		g.stuck++
	}
	g.step("record_results")
	g.rejections = 0
	g.step("record_memory")
	g.step("check_objective_completion")
	if g.turnCount%10 == 0 {
		g.step("update_objectives")
		if g.turnCount%50 == 0 {
			g.step("update_knowledge")
		}
	}
}

// step writes one action's begin_entry and end_entry.
func (g *burrGen) step(action string) {
	w := g.w
	fmt.Fprintf(w, `{"type":"begin_entry","start_time":"2026-04-09T13:45:17.%06d","action":%q,"inputs":{},"sequence_id":%d}`+"\n", g.seq%1000000, action, g.seq)
	fmt.Fprintf(w, `{"type":"end_entry","end_time":"2026-04-09T13:45:17.%06d","action":%q,"result":{},"exception":null,"state":{`, g.seq%1000000, action)
	fmt.Fprintf(w, `"episode_id":"ep-bench","turn_count":%d,"game_response":"You are in a maze of twisty little passages, all alike.","location_id":%d,"location_name":%q,`,
		g.turnCount, 100+g.room, rooms[g.room])
	fmt.Fprintf(w, `"inventory":["brass lantern","sword"],"score":%d,"max_score":350,"game_over":false,"game_over_reason":"",`, g.score)
	w.WriteString(`"formatted_context":"` + strings.Repeat("context ", 40) + `","proposed_action":"north","agent_reasoning":"I should explore north.",`)
	fmt.Fprintf(w, `"new_objective":"","action_to_take":"go north and look around","critic_score":%s,"critic_justification":"A fine move.","critic_confidence":0.8,`, g.critic)
	fmt.Fprintf(w, `"rejection_count":%d,"was_overridden":false,"action_history":[`, g.rejections)
	w.Write(g.history)
	fmt.Fprintf(w, `],"reasoning_history":[],"exits":["north","south"],"in_combat":false,"visible_objects":[],"memories_by_location":{},"map_data":{},"visited_locations":[],`)
	fmt.Fprintf(w, `"discovered_objectives":[],"completed_objectives":[],"knowledge_base":"","turns_since_progress":%d,"last_score_change_turn":%d,`, g.stuck, g.lastHit)
	fmt.Fprintf(w, `"pre_location_id":%d,"pre_location_name":%q,"pre_score":%d,"pre_inventory":[],"__SEQUENCE_ID":%d,"__PRIOR_STEP":%q},"sequence_id":%d}`+"\n",
		100+g.preRoom, rooms[g.preRoom], g.preScore, g.seq, action, g.seq)
	g.seq++
}

// BurrGraph is a minimal graph.json (lbanalyze does not read it).
const BurrGraph = `{"type": "application", "entrypoint": "assemble_context", "actions": [], "transitions": []}`

// BurrAppID is the application id BurrLog's runs are filed under.
const BurrAppID = "0b5e2f6a-1000-4000-8000-000000000000"
