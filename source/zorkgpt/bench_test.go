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
