// Command benchgen writes the inputs of scripts/bench-compare.sh that synth
// does not: a log with one runaway reasoning line, and a file of short turn
// lines.
//
//	go run ./scripts/benchgen longline -mb 50 -in LOG -out FILE
//	go run ./scripts/benchgen turns -n 2000000 -out FILE
package main

import (
	"flag"
	"fmt"
	"os"

	"github.com/lbanalyze/lbanalyze/internal/benchdata"
)

func main() {
	if len(os.Args) < 2 || os.Args[1] != "longline" && os.Args[1] != "turns" {
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
	if os.Args[1] == "longline" {
		log, err := os.ReadFile(*in)
		check(err)
		check(benchdata.LongLine(f, log, *mb*1_000_000))
	} else {
		check(benchdata.Turns(f, *n))
	}
	check(f.Close())
}

func check(err error) {
	if err != nil {
		fmt.Fprintln(os.Stderr, "benchgen:", err)
		os.Exit(1)
	}
}
