package main

import (
	"bufio"
	"fmt"
	"os"

	"github.com/spf13/cobra"

	"github.com/lbanalyze/lbanalyze/internal/synth/dataset"
)

// maxSynthEpisodes bounds --episodes: episode ids are start times to the
// second, spread over the weeks of ZorkGPT's loop-break history.
const maxSynthEpisodes = 10_000

func newSynthCmd(e *env) *cobra.Command {
	var (
		opt dataset.Options
		out string
	)
	cmd := &cobra.Command{
		Use:   "synth --out DIR",
		Short: "Write synthetic ZorkGPT logs (the bundled testdata/episodes)",
		Long: `Write synthetic ZorkGPT episodes: an LLM agent playing Zork I, logged line for line as
ZorkGPT (era E3c) writes episode_log.jsonl, in ZorkGPT's layout DIR/<id>/episode_log.jsonl
(the directory is the id with ':' replaced by '-'), with the test_* and unknown directories
that ZorkGPT's game_files holds, and DIR/README.md describing the set's make-up.

The default set is the bundled one: 75 episodes, most recorded with no loop break (every
policy replays them exactly), the rest cut by a recorded loop break (score-only or
score-or-objective at 40/10). The same seed writes the same bytes on any machine.
--large makes every episode 10-20 MB (about 1.1 GB for 75) by longer reasoning texts,
for benchmarks; the episodes are otherwise the same.`,
		Example: `  lbanalyze synth --seed 1 --out testdata/episodes
  lbanalyze synth --seed 1 --large --out /tmp/lbanalyze-large
  lbanalyze synth --episodes 1 --out - | lbanalyze episode -`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			if out == "" {
				return usageError("synth needs --out DIR (or --out - for standard output)")
			}
			if opt.Episodes < 1 || opt.Episodes > maxSynthEpisodes {
				return usageError("--episodes must be from 1 to %d, not %d", maxSynthEpisodes, opt.Episodes)
			}
			if out == "-" {
				w := bufio.NewWriterSize(e.stdout, 1<<16)
				if err := dataset.Stream(w, opt); err != nil {
					return failure("%v", err)
				}
				if err := w.Flush(); err != nil {
					return failure("%v", err)
				}
				return nil
			}
			if entries, err := os.ReadDir(out); err == nil && len(entries) > 0 {
				e.warnf("%s is not empty: files of the set are overwritten, others are left as they are", out)
			}
			set, err := dataset.Write(out, opt)
			if err != nil {
				return failure("%v", err)
			}
			fmt.Fprintf(e.stdout, "wrote %d episodes, %d test directories and README.md to %s (%.1f MB)\n",
				len(set.Episodes), len(set.Tests), out, float64(set.Bytes)/1e6)
			return nil
		},
	}
	fs := cmd.Flags()
	fs.Uint64Var(&opt.Seed, "seed", 1, "the seed: the same seed writes the same bytes")
	fs.StringVar(&out, "out", "", "the directory to write the set to, or - to write the episodes one after another to standard output")
	fs.IntVar(&opt.Episodes, "episodes", dataset.Size, "how many episodes (the kinds in the bundled set's proportions)")
	fs.BoolVar(&opt.Large, "large", false, "make every episode 10-20 MB (a benchmark set; never commit it)")
	return cmd
}
