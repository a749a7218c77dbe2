// Command benchgen writes the inputs of scripts/bench-compare.sh that synth
// does not: a log with one runaway reasoning line, and a file of short turn
// lines.
//
//	go run ./scripts/benchgen longline -mb 50 -in LOG -out FILE
//	go run ./scripts/benchgen turns -n 2000000 -out FILE
package main

import (
	"bufio"
	"bytes"
	"flag"
	"fmt"
	"os"
)

func main() {
	if len(os.Args) < 2 {
		fmt.Fprintln(os.Stderr, "usage: benchgen longline|turns [flags]")
		os.Exit(2)
	}
	fs := flag.NewFlagSet(os.Args[1], flag.ExitOnError)
	in := fs.String("in", "", "the log whose middle final_action_selection line gets the runaway reasoning")
	out := fs.String("out", "", "the file to write")
	mb := fs.Int("mb", 50, "the length of the runaway line, in MB")
	n := fs.Int("n", 2_000_000, "turn lines")
	fs.Parse(os.Args[2:])
	f, err := os.Create(*out)
	check(err)
	w := bufio.NewWriterSize(f, 1<<20)
	switch os.Args[1] {
	case "longline":
		check(longLine(w, *in, *mb*1_000_000))
	case "turns":
		turns(w, *n)
	default:
		fmt.Fprintln(os.Stderr, "usage: benchgen longline|turns [flags]")
		os.Exit(2)
	}
	check(w.Flush())
	check(f.Close())
}

func check(err error) {
	if err != nil {
		fmt.Fprintln(os.Stderr, "benchgen:", err)
		os.Exit(1)
	}
}

// longLine copies the log at in, with the agent reasoning of its middle
// final_action_selection line grown to size bytes (a reasoning model that
// does not stop: the same paragraph over and over).
func longLine(w *bufio.Writer, in string, size int) error {
	data, err := os.ReadFile(in)
	if err != nil {
		return err
	}
	lines := bytes.SplitAfter(data, []byte("\n"))
	var sel []int
	for i, l := range lines {
		if bytes.Contains(l, []byte(`"event_type": "final_action_selection"`)) {
			sel = append(sel, i)
		}
	}
	if len(sel) == 0 {
		return fmt.Errorf("%s: no final_action_selection line", in)
	}
	key := []byte(`"agent_reasoning": "`)
	para := `I'm still in the Maze and every passage looks alike. The \"lantern\" is dimming \u2192 I should drop an item to mark this room, then try north again; if that fails, west. Let me think about this more carefully. `
	for i, l := range lines {
		j := bytes.Index(l, key)
		if i != sel[len(sel)/2] || j < 0 {
			w.Write(l)
			continue
		}
		j += len(key)
		w.Write(l[:j])
		for k := len(l); k < size; k += len(para) {
			w.WriteString(para)
		}
		w.Write(l[j:])
	}
	return nil
}

// turns writes n short turn_completed lines in episodes of 5000 turns, each
// opened by episode_initialized (replay's BenchmarkReadTurns).
func turns(w *bufio.Writer, n int) {
	for i := range n {
		t := i%5000 + 1
		if t == 1 {
			w.WriteString(`{"timestamp": "2025-11-04T09:35:24.000001", "level": "INFO", "message": "Episode initialized", "event_type": "episode_initialized", "episode_id": "2025-11-04T09:35:24", "max_turns": 5000}` + "\n")
		}
		fmt.Fprintf(w, `{"timestamp": "2025-11-04T09:35:25.123456", "level": "INFO", "message": "Turn %d completed", "event_type": "turn_completed", "episode_id": "2025-11-04T09:35:24", "turn": %d, "action": "go north", "score": %d, "location": "West of House", "confidence": 0.9}`+"\n", t, t, t/100)
	}
}
