// Command benchgen writes the inputs of scripts/bench-compare.sh that synth
// does not: a log with one runaway reasoning line, a file of short turn
// lines, a file of very many two-step episodes (read with --fields
// episode=episode,turn=step,score=score), and a ZorkGPT2 Burr application
// directory of a long run (its log.jsonl grows with the square of the turns:
// 1,000 turns, about 1.5 GB).
//
//	go run ./scripts/benchgen longline -mb 50 -in LOG -out FILE
//	go run ./scripts/benchgen turns -n 2000000 -out FILE
//	go run ./scripts/benchgen tiny -n 50000 -out FILE
//	go run ./scripts/benchgen burr -turns 1000 -out DIR   # DIR/default/<app_id>/
//	go run ./scripts/benchgen steps -n 200000 [-unnumbered] -out FILE.csv
//	go run ./scripts/benchgen texts -n 200000 [-size 512] -out FILE.csv
package main

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"slices"

	"github.com/lbanalyze/lbanalyze/internal/benchdata"
	"github.com/lbanalyze/lbanalyze/source"
)

func main() {
	if len(os.Args) < 2 || !slices.Contains([]string{"longline", "turns", "tiny", "burr", "steps", "texts"}, os.Args[1]) {
		fmt.Fprintln(os.Stderr, "usage: benchgen longline|turns|tiny|burr|steps|texts [flags]")
		os.Exit(2)
	}
	fs := flag.NewFlagSet(os.Args[1], flag.ExitOnError)
	in := fs.String("in", "", "the log whose middle final_action_selection line gets the runaway reasoning")
	out := fs.String("out", "", "the file (burr: the directory) to write")
	mb := fs.Int("mb", 50, "the length of the runaway line, in MB")
	n := fs.Int("n", 2_000_000, "turn lines (tiny: episodes)")
	turns := fs.Int("turns", 1000, "the turns of the Burr run")
	unnumbered := fs.Bool("unnumbered", false, "steps: without the Step column")
	size := fs.Int("size", source.MaxText, "texts: the bytes of each action and response")
	fs.Parse(os.Args[2:])
	if os.Args[1] == "burr" {
		check(burr(*out, *turns))
		return
	}
	f, err := os.Create(*out)
	check(err)
	switch os.Args[1] {
	case "steps":
		check(benchdata.Steps(f, *n, !*unnumbered))
	case "texts":
		check(benchdata.DistinctTexts(f, *n, *size))
	case "longline":
		log, err := os.ReadFile(*in)
		check(err)
		check(benchdata.LongLine(f, log, *mb*1_000_000))
	case "tiny":
		check(benchdata.Tiny(f, *n))
	default:
		check(benchdata.Turns(f, *n))
	}
	check(f.Close())
}

// burr writes a Burr project directory holding one application: the run.
func burr(dir string, turns int) error {
	app := filepath.Join(dir, "default", benchdata.BurrAppID)
	if err := os.MkdirAll(app, 0o755); err != nil {
		return err
	}
	for name, text := range map[string]string{"metadata.json": benchdata.BurrMetadata, "graph.json": benchdata.BurrGraph} {
		if err := os.WriteFile(filepath.Join(app, name), []byte(text), 0o644); err != nil {
			return err
		}
	}
	f, err := os.Create(filepath.Join(app, "log.jsonl"))
	if err != nil {
		return err
	}
	if err := benchdata.BurrLog(f, turns); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

func check(err error) {
	if err != nil {
		fmt.Fprintln(os.Stderr, "benchgen:", err)
		os.Exit(1)
	}
}
