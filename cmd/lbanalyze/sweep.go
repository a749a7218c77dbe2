package main

import (
	"io"
	"math"
	"runtime"
	"slices"
	"strings"

	"github.com/spf13/cobra"

	"github.com/lbanalyze/lbanalyze/episode"
	"github.com/lbanalyze/lbanalyze/internal/group"
	"github.com/lbanalyze/lbanalyze/internal/sweep"
	"github.com/lbanalyze/lbanalyze/internal/textout"
	"github.com/lbanalyze/lbanalyze/policy"
	"github.com/lbanalyze/lbanalyze/report"
	"github.com/lbanalyze/lbanalyze/system"
)

type sweepFlags struct {
	policyFlags
	maxFalse, maxCensored float64
	ftMargin              float64
	valuePerPoint         float64
	folds, jobs           int
	plots, html           string
	top                   int
	all                   bool
	analysis              analysisFlags
	rank                  string
	by                    byFlag
}

func newSweepCmd(e *env) *cobra.Command {
	f := sweepFlags{policyFlags: policyFlags{configIsNow: true}}
	cmd := &cobra.Command{
		Use:   "sweep DIR|FILE...",
		Short: "Search the settings over a dataset and answer which to ship",
		Long: `Replay every config of a grid — policies × max_turns_stuck × check_interval (× the
parameters of the variants) — over every episode found, as batch finds them, and answer
first, against the current setting (--config's, else ZorkGPT's defaults; the grid stays the
flags'): ship a change, with the [tool.zorkgpt.loop_break] block to paste; keep your
current setting; or no clear winner, naming the change that leads and how many episodes
would settle it (a range, from the episodes that differ).

A change ships only if, out of sample (k-fold cross-validation: each episode judged by the
config chosen on the other folds), its false-termination rate is not significantly higher
than now's and at most --ft-margin percentage points above it (the upper bound of Tango's
paired 95% interval), it saves significantly more turns, and the choice is stable over
bootstrap resamples and folds; a safer change ships when its false-termination rate is
significantly lower, whatever it costs in turns. The answer says the named change's own
comparison with now on all the episodes, the rule's held out on its own line, and the
break-even: what a lost solve must be worth to you for the change to pay (--value-per-point
gives the trade-off's verdict beside the rule's). The false-termination rate counts every
stop a cut log cannot judge and every censored outcome as premature (its high bound), so
that no cut log hides a miss; --max-false-rate is an advisory target, said beside the
answer, which it does not change; no config censored beyond --max-censored is chosen.
Configs with the same outcome on every episode are one row and one choice. When ZorkGPT
cannot run the best config overall, that one follows, with the change it needs and what it
would add. Fewer than 20 episodes, or too few stops to tell the configs apart, get a
description and no answer. Then the Pareto front of turns saved against false terminations
and score forgone, best first (--top rows, --all); every metric of batch for every config
is in the CSV and JSON. --rank tokens ranks by the tokens saved instead, where the logs
record them.

Logs of harnesses with no stop rule of their own (TALES, BALROG, logs read with --fields) are
swept over score and increase unless --policy says otherwise and compared with no stop
rule unless --config says otherwise; the answer is then a config the harness can run on
its score alone, as Python for its step loop (the rule in a sentence first). ZorkGPT2's
logs are swept over score, supervisor, zorkburr and increase, against no stop rule (its
runner enforces none) unless --config names its [tool.zorkburr]; the answer is then a
zorkburr config and its [tool.zorkburr] block. A policy that needs a signal some log does
not record (objectives, rooms) is left out of the grid before anything is chosen, and a
setting that reads one (the supervisor's triggers) is off; each is said so.

Logs of several systems are never given one answer: each system's are swept on their own,
in a group of their own. --by KEY groups the episodes of each system further (dir:N, the
N-th directory below the one given, such as a model's submission; run or game, TALES's; a
member of the logs' steps): each group gets its own answer, then a line says whether one
setting serves every group.
`,
		Example: `  lbanalyze sweep testdata/episodes
  lbanalyze sweep --config pyproject.toml --format markdown game_files/episodes
  lbanalyze sweep --max-turns-stuck 20:120:5 --check-interval 1:10 game_files
  lbanalyze sweep --format csv testdata/episodes > sweep.csv
  lbanalyze sweep --plots plots --html sweep.html testdata/episodes
  lbanalyze sweep --by game testdata/tales/logs`,
		Args: needsArgs("sweep needs at least one directory or log file"),
		RunE: func(cmd *cobra.Command, args []string) error {
			s, err := f.resolve(cmd, e, true)
			if err != nil {
				return err
			}
			if err := f.check(); err != nil {
				return err
			}
			opts, err := f.analysis.options()
			if err != nil {
				return err
			}
			f.jobs = workers(f.jobs)
			if err := f.by.parse(); err != nil {
				return err
			}
			c := e.readForSweep(args, &f, s)
			if len(c.Episodes) == 0 {
				return failure("no episode could be analysed")
			}
			groups, grouped, err := f.by.split(c)
			if err != nil {
				return err
			}
			if err := f.checkGroups(cmd, groups, grouped); err != nil {
				return err
			}
			layout := sweep.Layout{Rows: f.top, Fit: e.fit}
			if f.all {
				layout.Rows = 0
			}
			several := group.Systems(groups) > 1
			if !grouped {
				r, err := f.run(e, s, groups[0], opts, several)
				if err != nil {
					return err
				}
				if err := e.writeOutput(f.format, func(w io.Writer) error { return sweep.Write(w, f.format, r, layout) }); err != nil {
					return err
				}
				return f.writeCharts(e, r, -1, "")
			}
			out, err := eachGroup(e, groups, "no config of the grid can be replayed on these logs", func(g group.Group) (sweep.Group, error) {
				r, err := f.run(e, s, g, opts, several)
				return sweep.Group{Name: g.Name, Result: r}, err
			}, func(g sweep.Group, i int, name string) error { return f.writeCharts(e, g.Result, i, name) })
			if err != nil {
				return err
			}
			return e.writeOutput(f.format, func(w io.Writer) error { return sweep.WriteGroups(w, f.format, f.by.name(), out, layout) })
		},
	}
	fs := cmd.Flags()
	f.register(fs, []policy.Name{policy.Score, policy.ScoreOrObjective, policy.Window},
		map[string][]int{"max_turns_stuck": seq(10, 150, 5), "check_interval": {1, 5, 10}})
	fs.Float64Var(&f.maxFalse, "max-false-rate", 5, "the false-termination rate, in % (its high bound: unknown stops and censored outcomes as premature), a config should keep within (the loop-break design's target)")
	fs.Float64Var(&f.maxCensored, "max-censored", 10, "the highest share of censored outcomes, in %, of a config to ship")
	fs.Float64Var(&f.valuePerPoint, "value-per-point", 0, "what an episode stopped before a later gain (a lost solve) is worth to you, in turns (tokens with --rank tokens): the answer prints the trade-off's verdict at it beside the rule's, which it does not change")
	fs.Float64Var(&f.ftMargin, "ft-margin", 2, "ship a change only if the upper bound of its false-termination rate's paired 95% interval against now's is at most this many percentage points above it")
	fs.IntVar(&f.folds, "folds", 5, "k of the k-fold cross-validation (0: none; at most the number of episodes)")
	fs.IntVar(&f.top, "top", sweep.DefaultRows, "rows of the Pareto front the table and markdown show, best first (the answer's and now are always shown)")
	fs.BoolVar(&f.all, "all", false, "show every row of the Pareto front")
	fs.IntVar(&f.jobs, "jobs", runtime.GOMAXPROCS(0), "how many files to read (at most 4 a core) and episodes to replay (at most 1 a core) at once")
	coresDefault(fs.Lookup("jobs"))
	fs.StringVar(&f.plots, "plots", "", "write into this directory the trade-off chart (tradeoff.png, .svg) and the heat map of the recommended policy (heatmap.png, .svg)")
	fs.StringVar(&f.html, "html", "", "write a self-contained HTML report (recommendation, TOML block, charts, Pareto front) to this file")
	f.analysis.register(fs)
	fs.StringVar(&f.rank, "rank", "turns", "what the answer and the front rank configs by: turns (saved) or tokens (saved, from logs that record them)")
	f.by.register(fs)
	return cmd
}

// checkGroups refuses what cannot be done for a group, before any replay:
// more folds than its episodes, or ranking by tokens where its logs record
// none.
func (f *sweepFlags) checkGroups(cmd *cobra.Command, groups []group.Group, grouped bool) error {
	of := func(g group.Group) string {
		if grouped {
			return " of group " + g.Name
		}
		return ""
	}
	for _, g := range groups {
		// The default of 5 folds on fewer episodes is no error: so few
		// get no answer, and so no cross-validation, anyway.
		if n := len(g.Episodes); f.folds > n && cmd.Flags().Changed("folds") && (!grouped || n >= sweep.MinEpisodes) {
			return usageError("--folds %d: more folds than the %s read%s, so some would hold none; give at most %d, or 0 for none",
				f.folds, textout.Count(n, "episode"), of(g), n)
		}
		if f.rank == "tokens" && !slices.ContainsFunc(g.Episodes, func(ep *episode.Episode) bool { return ep.Signals.Has(episode.Tokens) }) {
			if !grouped {
				return usageError("--rank tokens: no log read records tokens")
			}
			return usageError("--rank tokens: no log%s records tokens", of(g))
		}
	}
	return nil
}

// run sweeps the episodes of one group (of one system); several says the
// logs read are of several systems, so that --config sets the current
// setting of its own system's groups only.
func (f *sweepFlags) run(e *env, s settings, g group.Group, opts report.Options, several bool) (*sweep.Result, error) {
	sys := g.System
	configs, current := f.grid(s, sys, several)
	if !several {
		e.tellOnce(s.config.mismatch(sys)...)
	}
	costs := opts.Costs
	costs.CallsPerTurn = f.calls.of(sys)
	r := sweep.Run(g.Episodes, configs, current, sweep.Options{MaxFalseRate: f.maxFalse / 100,
		MaxCensored: f.maxCensored / 100, FTMargin: f.ftMargin / 100, GainHorizon: opts.GainHorizon, Folds: f.folds,
		Jobs: replayers(f.jobs), Costs: costs, ByTokens: f.rank == "tokens",
		ValuePerPoint: f.valuePerPoint, System: system.OfAll(g.Episodes) /* as its block words it for these logs: real scores */, Progress: e.progress})
	if len(r.Configs) == 0 { // said with why, so that a group left out says it too (time caps on untimed trials)
		why := ""
		if len(r.LeftOut) > 0 {
			why = " (" + strings.Join(r.LeftOut, "; ") + ")"
		}
		return nil, failure("no config of the grid can be replayed on these logs%s", why)
	}
	e.tellOnce(r.LeftOut...)
	return r, nil
}

// writeCharts writes the charts and the HTML page of r, of the group i (from
// 0) named name, or of all the logs when i < 0 (groupPath).
func (f *sweepFlags) writeCharts(e *env, r *sweep.Result, i int, name string) error {
	if plots := groupPath(f.plots, i, name, true); plots != "" {
		if err := e.writeSweepPlots(plots, r); err != nil {
			return err
		}
	}
	if html := groupPath(f.html, i, name, false); html != "" {
		return e.writeSweepHTML(html, r)
	}
	return nil
}

// grid is what the sweep compares over the logs of sys: with no policy asked
// for, the policies they are offered (system.System.Offered), and what it
// runs now unless --config names it (system.System.Now: for a system that
// stops no run on a rule of its own, no stop rule; docs/sources.md, "Which
// system ran a log"). sweep.Run leaves out what the logs cannot replay.
//
// When the logs are of several systems, --config is the current setting of
// its own system's logs only.
func (f *sweepFlags) grid(s settings, sys *system.System, several bool) (configs []policy.Policy, current policy.Policy) {
	configs, current = s.policiesFor(sys).Policies(), sys.Now
	if s.current != nil && (!several || s.config.System == sys) {
		current = *s.current
	}
	return configs, current
}

// minFTMargin is the least --ft-margin, in percentage points: far above the
// tolerance of the comparisons against it (internal/sweep, 1e-7 pp), below
// which a margin would act as that tolerance and be said as another.
const minFTMargin = 0.01

// ftMarginError refuses an --ft-margin no answer can be judged by (sweep's
// and check's alike): NaN, below minFTMargin, above 100.
func ftMarginError(pp float64) error {
	if !inRange(pp, minFTMargin, 100) {
		return usageError("--ft-margin is a number of percentage points, from %g to 100, not %g", minFTMargin, pp)
	}
	return nil
}

// check refuses settings that cannot give an answer, before any work.
func (f *sweepFlags) check() error {
	switch {
	case !inRange(f.maxFalse, 0, 100):
		return usageError("--max-false-rate is a percentage, from 0 to 100, not %g", f.maxFalse)
	case !inRange(f.maxCensored, 0, 100):
		return usageError("--max-censored is a percentage, from 0 to 100, not %g", f.maxCensored)
	case ftMarginError(f.ftMargin) != nil:
		return ftMarginError(f.ftMargin)
	case !(f.valuePerPoint >= 0) || math.IsInf(f.valuePerPoint, 0):
		return usageError("--value-per-point is a number of turns, 0 (none) or above, not %g", f.valuePerPoint)
	case f.folds < 0 || f.folds == 1 || f.folds > 100:
		return usageError("--folds must be 0 (none) or from 2 to 100, not %d", f.folds)
	case f.jobs < 1:
		return usageError("--jobs must be at least 1")
	case f.top < 1:
		return usageError("--top must be at least 1 (--all shows every row), not %d", f.top)
	case f.rank != "turns" && f.rank != "tokens":
		return usageError("--rank must be turns or tokens, not %q", f.rank)
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
