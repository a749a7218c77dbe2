package zorkgpt

import (
	"bytes"
	"fmt"
	"strings"
	"testing"

	"github.com/lbanalyze/lbanalyze/internal/benchdata"
	"github.com/lbanalyze/lbanalyze/internal/testlogs"
	"github.com/lbanalyze/lbanalyze/policy"
)

// largeLog is a realistic E3c log: 500 turns whose agent reasoning runs to a
// few KB (every 50th turn to 200 KB, as reasoning models write), multi-line
// game text, objectives and a recorded loop break's location penalties.
func largeLog(b *testing.B) []byte {
	loopBreak := policy.Policy{Name: policy.ScoreOrObjective}.With(policy.MaxTurnsStuck, 1000)
	p := plan{N: 500, MaxTurns: 500, Changes: map[int]int{}, Objectives: map[int][]string{}, LoopBreak: &loopBreak}
	for t := 7; t <= 500; t += 23 {
		p.Changes[t] = t / 5
		p.Objectives[t+3] = []string{fmt.Sprintf("Explore the passage north of room %d", t)}
	}
	p.ID = "2025-11-04T09:35:24"
	e := p.Episode()
	para := "I'm in the Cellar and the trap door slammed shut above me. The \"lantern\" is on \u2192 I should explore east toward the Troll Room, but first check the inventory; the sword glows faintly, which means danger nearby.\n"
	for i := range e.Turns {
		n := 6 + i%9
		if i%50 == 49 {
			n = 900
		}
		e.Turns[i].Reasoning = strings.Repeat(para, n)
		e.Turns[i].Response = "Cellar\nYou are in a dark and damp cellar with a narrow passageway leading north, and a crawlway to the south. On the west is the bottom of a steep metal ramp which is unclimbable."
	}
	return testlogs.Write(b, e)
}

// BenchmarkRead is the reader's throughput on a large realistic log; compare
// `wc -l` over the same bytes (docs/PERFORMANCE.md).
func BenchmarkRead(b *testing.B) {
	data := largeLog(b)
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	stop := benchdata.CPU(b)
	for b.Loop() {
		lg := Read(bytes.NewReader(data), "bench.jsonl", Options{})
		if len(lg.Episodes) != 1 || lg.Episodes[0].N() != 500 {
			b.Fatal("wrong episode")
		}
	}
	stop()
}

// turnLines is n short turn_completed lines (the cheapest lines that matter),
// in episodes of 5000 turns each opened by episode_initialized.
func turnLines(n int) []byte {
	var buf bytes.Buffer
	for i := 0; i < n; i++ {
		t := i%5000 + 1
		if t == 1 {
			fmt.Fprintf(&buf, `{"timestamp": "2025-11-04T09:35:24.000001", "level": "INFO", "message": "Episode initialized", "event_type": "episode_initialized", "episode_id": "2025-11-04T09:35:24", "max_turns": 5000}`+"\n")
		}
		fmt.Fprintf(&buf, `{"timestamp": "2025-11-04T09:35:25.123456", "level": "INFO", "message": "Turn %d completed", "event_type": "turn_completed", "episode_id": "2025-11-04T09:35:24", "turn": %d, "action": "go north", "score": %d, "location": "West of House", "confidence": 0.9}`+"\n", t, t, t/100)
	}
	return buf.Bytes()
}

// BenchmarkReadTurns reads 2,000,000 short turn_completed lines: the cost of
// the reader per decoded line, with nothing to pass over.
func BenchmarkReadTurns(b *testing.B) {
	data := turnLines(2_000_000)
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	stop := benchdata.CPU(b)
	for b.Loop() {
		if lg := Read(bytes.NewReader(data), "bench.jsonl", Options{}); len(lg.Episodes) != 400 {
			b.Fatalf("%d episodes", len(lg.Episodes))
		}
	}
	stop()
}

// shapes are a turn's lines as synth writes them (synth --seed 1): the three
// decoded ones and the longest one, which is not.
var shapes = []struct{ name, line string }{
	{"zork_response", `{"timestamp": "2025-11-13T08:33:15.671825", "level": "INFO", "message": "ZORK RESPONSE for 'south':\nSouth of House\nYou are facing the south side of a white house. There is no door here, and all the windows are boarded.\n", "event_type": "zork_response", "episode_id": "2025-11-13T08:32:52", "turn": 1, "action": "south", "zork_response": "South of House\nYou are facing the south side of a white house. There is no door here, and all the windows are boarded.", "raw_zork_response": "South of House\nYou are facing the south side of a white house. There is no door here, and all the windows are boarded.\n\n>"}`},
	{"turn_completed", `{"timestamp": "2025-11-13T08:33:25.358228", "level": "INFO", "message": "Turn 1 completed", "event_type": "turn_completed", "episode_id": "2025-11-13T08:32:52", "turn": 1, "action": "south", "score": 0, "location": "South of House", "confidence": 0.8}`},
	{"map_movement_update", `{"timestamp": "2025-11-13T08:33:18.900626", "level": "INFO", "message": "Map updated from movement", "event_type": "map_movement_update", "episode_id": "2025-11-13T08:32:52", "turn": 1, "action": "south", "from_room_id": 180, "from_room": "West of House", "to_room_id": 80, "to_room": "South of House"}`},
	{"final_action_selection", `{"timestamp": "2025-11-13T08:35:24.121917", "level": "INFO", "message": "SELECTED ACTION: east (Score: 0.75, Confidence: 0.60, Override: False, Critic: enabled)", "event_type": "final_action_selection", "episode_id": "2025-11-13T08:32:52", "turn": 5, "agent_action": "east", "agent_reasoning": "Current location: Behind House. The last command ('examine window') gave: \"The window is slightly ajar, but not enough to allow entry.\". Heading east toward the Clearing. The critic tends to reject repeated actions, so I should not loop on the same command. Repeating a failed command verbatim never helps in Zork; vary the verb or the object. Action: east", "critic_score": 0.75, "critic_confidence": 0.6000000000000001, "was_overridden": false, "critic_enabled": true}`},
}

// BenchmarkDecodeLine reads each shape of line the general way (readAny:
// its event type, then goccy/go-json) and quickly.
func BenchmarkDecodeLine(b *testing.B) {
	for _, s := range shapes {
		line := []byte(s.line)
		for _, way := range []struct {
			name string
			read func(d *decoded) bool
		}{
			{"general", func(d *decoded) bool { return d.readAny(line, false) == nil }},
			{"quick", func(d *decoded) bool { return d.quick(line) }},
		} {
			b.Run(s.name+"/"+way.name, func(b *testing.B) {
				var d decoded
				b.ReportAllocs()
				stop := benchdata.CPU(b)
				for b.Loop() {
					if !way.read(&d) {
						b.Fatal("not read")
					}
				}
				stop()
			})
		}
	}
}
