package main

import (
	"io"
	"runtime"

	"github.com/spf13/cobra"

	"github.com/lbanalyze/lbanalyze/policy"
	"github.com/lbanalyze/lbanalyze/sweep"
)

type sweepFlags struct {
	policyFlags
	maxFalse, maxCensored float64
	folds, jobs           int
	plots, html           string
}

func newSweepCmd(e *env) *cobra.Command {
	var f sweepFlags
	cmd := &cobra.Command{
		Use:   "sweep DIR|FILE...",
		Short: "Search the loop-break settings over a dataset and recommend the one to ship",
		Long: `Replay every config of a grid — policies × max_turns_stuck × check_interval (× the
parameters of the variants) — over every episode found, as batch finds them, and report
every metric of batch for each config, the Pareto front of turns saved against the
false-termination rate and the score forgone, and the config that saves the most turns
with a false-termination rate within --max-false-rate.

The recommendation comes with what is known of its error: 95% bootstrap intervals,
how often the same config is chosen on bootstrap resamples, and its false-termination
rate and turns saved out of sample, by k-fold cross-validation (chosen on k-1 folds,
measured on the fold held out). The held-out figures are the ones to expect on new
episodes. A config whose outcomes are censored in more than --max-censored of the
episodes (the recording's own loop break cut the log before it would stop) has only a
lower bound on its length; it is marked and not recommended.

Where ZorkGPT can run the config, the [tool.zorkgpt.loop_break] block to paste is
printed; otherwise the change ZorkGPT would need, and the best config it can run as is.
It is compared with the current setting: --config's, else ZorkGPT's defaults.`,
		Example: `  lbanalyze sweep testdata/episodes
  lbanalyze sweep --config pyproject.toml --format markdown game_files/episodes
  lbanalyze sweep --policy score-or-objective --max-turns-stuck 20:120:5 --check-interval 1:10 game_files/episodes
  lbanalyze sweep --format csv testdata/episodes > sweep.csv
  lbanalyze sweep --plots plots --html sweep.html testdata/episodes`,
		Args: func(_ *cobra.Command, args []string) error {
			if len(args) == 0 {
				return usageError("sweep needs at least one directory or log file")
			}
			return nil
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			s, err := f.resolve(cmd, e, true)
			if err != nil {
				return err
			}
			if err := f.check(); err != nil {
				return err
			}
			c := e.readCorpus(args, f.jobs, false)
			if len(c.Episodes) == 0 {
				return failure("no episode could be analysed")
			}
			r := sweep.Run(c.Episodes, s.policies, s.current, sweep.Options{MaxFalseRate: f.maxFalse / 100,
				MaxCensored: f.maxCensored / 100, Folds: f.folds, CallsPerTurn: f.callsPerTurn, Jobs: f.jobs})
			if err := e.writeOutput(f.format, func(w io.Writer) error { return sweep.Write(w, f.format, r) }); err != nil {
				return err
			}
			if f.plots != "" {
				if err := e.writeSweepPlots(f.plots, r); err != nil {
					return err
				}
			}
			if f.html != "" {
				return e.writeSweepHTML(f.html, r)
			}
			return nil
		},
	}
	fs := cmd.Flags()
	f.register(fs, []policy.Name{policy.Score, policy.ScoreOrObjective, policy.Window},
		map[string][]int{"max_turns_stuck": seq(10, 150, 5), "check_interval": {1, 5, 10}})
	fs.Float64Var(&f.maxFalse, "max-false-rate", 5, "the highest false-termination rate to recommend, in % (the loop-break design's target)")
	fs.Float64Var(&f.maxCensored, "max-censored", 10, "the highest share of censored outcomes, in %, of a config to recommend")
	fs.IntVar(&f.folds, "folds", 5, "k of the k-fold cross-validation (0: none)")
	fs.IntVar(&f.jobs, "jobs", runtime.GOMAXPROCS(0), "how many files to read (and episodes to replay) at once")
	fs.StringVar(&f.plots, "plots", "", "write into this directory the trade-off chart (tradeoff.png, .svg) and the heat map of the recommended policy (heatmap.png, .svg)")
	fs.StringVar(&f.html, "html", "", "write a self-contained HTML report (recommendation, TOML block, charts, Pareto front) to this file")
	return cmd
}

// check refuses settings that cannot give an answer, before any work.
func (f *sweepFlags) check() error {
	switch {
	case f.maxFalse < 0 || f.maxFalse > 100:
		return usageError("--max-false-rate is a percentage, from 0 to 100, not %g", f.maxFalse)
	case f.maxCensored < 0 || f.maxCensored > 100:
		return usageError("--max-censored is a percentage, from 0 to 100, not %g", f.maxCensored)
	case f.folds < 0 || f.folds == 1 || f.folds > 100:
		return usageError("--folds must be 0 (none) or from 2 to 100, not %d", f.folds)
	case f.jobs < 1:
		return usageError("--jobs must be at least 1")
	}
	if f.plots != "" {
		if err := checkDirPath("--plots", f.plots); err != nil {
			return err
		}
	}
	if f.html != "" {
		return checkFilePath("--html", f.html)
	}
	return nil
}

// seq is from, from+step, … up to to.
func seq(from, to, step int) []int {
	var s []int
	for v := from; v <= to; v += step {
		s = append(s, v)
	}
	return s
}
