// Package benchdata writes the inputs of the benchmarks and memory tests that
// synth does not: a log with one runaway reasoning line, a file of short turn
// lines, a file of very many two-step episodes, tables of steps at the turn
// cap (steps.go) and a τ²-bench results file (tau2.go); scripts/benchgen
// writes them to files for scripts/bench-compare.sh.
package benchdata

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
)

// LongLine writes log with the agent reasoning of its middle
// final_action_selection line grown to size bytes (a reasoning model that
// does not stop: the same paragraph over and over).
func LongLine(w io.Writer, log []byte, size int) error {
	bw := bufio.NewWriterSize(w, 1<<20)
	lines := bytes.SplitAfter(log, []byte("\n"))
	var sel []int
	for i, l := range lines {
		if bytes.Contains(l, []byte(`"event_type": "final_action_selection"`)) {
			sel = append(sel, i)
		}
	}
	if len(sel) == 0 {
		return fmt.Errorf("no final_action_selection line")
	}
	key := []byte(`"agent_reasoning": "`)
	para := `I'm still in the Maze and every passage looks alike. The \"lantern\" is dimming \u2192 I should drop an item to mark this room, then try north again; if that fails, west. Let me think about this more carefully. `
	for i, l := range lines {
		j := bytes.Index(l, key)
		if i != sel[len(sel)/2] || j < 0 {
			bw.Write(l)
			continue
		}
		j += len(key)
		bw.Write(l[:j])
		for k := len(l); k < size; k += len(para) {
			bw.WriteString(para)
		}
		bw.Write(l[j:])
	}
	return bw.Flush()
}

// Turns writes n short turn_completed lines in episodes of 5000 turns, each
// opened by episode_initialized.
func Turns(w io.Writer, n int) error {
	bw := bufio.NewWriterSize(w, 1<<20)
	for i := range n {
		t := i%5000 + 1
		if t == 1 {
			bw.WriteString(`{"timestamp": "2025-11-04T09:35:24.000001", "level": "INFO", "message": "Episode initialized", "event_type": "episode_initialized", "episode_id": "2025-11-04T09:35:24", "max_turns": 5000}` + "\n")
		}
		fmt.Fprintf(bw, `{"timestamp": "2025-11-04T09:35:25.123456", "level": "INFO", "message": "Turn %d completed", "event_type": "turn_completed", "episode_id": "2025-11-04T09:35:24", "turn": %d, "action": "go north", "score": %d, "location": "West of House", "confidence": 0.9}`+"\n", t, t, t/100)
	}
	return bw.Flush()
}

// TinyFields is the field map that reads Tiny's lines (--fields).
const TinyFields = "episode=episode,turn=step,score=score"

// Tiny writes n two-step episodes to one per-step JSONL file, a line a step
// (about 40 bytes): a release of very many short runs, where what is done
// per episode, not per turn, dominates. Every third episode scores on its
// second step.
func Tiny(w io.Writer, n int) error {
	bw := bufio.NewWriterSize(w, 1<<20)
	for i := 1; i <= n; i++ {
		gain := 0
		if i%3 == 0 {
			gain = 1
		}
		fmt.Fprintf(bw, "{\"episode\":\"e%05d\",\"step\":1,\"score\":0}\n{\"episode\":\"e%05d\",\"step\":2,\"score\":%d}\n", i, i, gain)
	}
	return bw.Flush()
}
