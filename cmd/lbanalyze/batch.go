package main

import (
	"fmt"
	"io"
	"runtime"
	"slices"
	"strings"

	"github.com/spf13/cobra"

	"github.com/lbanalyze/lbanalyze/internal/group"
	"github.com/lbanalyze/lbanalyze/internal/textout"
	"github.com/lbanalyze/lbanalyze/policy"
	"github.com/lbanalyze/lbanalyze/report"
	"github.com/lbanalyze/lbanalyze/system"
)

type batchFlags struct {
	baseline, after string
	settings        settingFlags // one value each
	config          configFlag
	calls           callsFlag
	format          string
	jobs            int
	plots, html     string
	timelines       string
	summary         bool
	analysis        analysisFlags
	fields          fieldsFlags
	by              byFlag
}

func newBatchCmd(e *env) *cobra.Command {
	var f batchFlags
	cmd := &cobra.Command{
		Use:   "batch DIR|FILE...",
		Short: "Compare a baseline and an after policy over a dataset of episodes",
		Long: `Find every episode log under the given directories (episode_log.jsonl, *.jsonl, *.csv,
*.tsv, each also .gz or .zst; test_*, test-*, unknown and *_error directories are passed
over), replay a baseline and an after policy over each episode, and report per episode, the
specification's success metrics with paired intervals, and the episodes to
review first.

A policy is NAME or NAME:MAX_TURNS_STUCK[/CHECK_INTERVAL[/WARNING_THRESHOLD]], e.g.
score-or-objective:60/10. Settings a policy does not give come from --max-turns-stuck,
--check-interval and --warning-threshold, or for the after side from --config. Logs of
systems that stop no run on a rule of their own are compared, unless --baseline or
--after say otherwise, as none (the run as logged) against the rule they would add:
increase for harnesses (TALES, BALROG, logs read with --fields), zorkburr for ZorkGPT2.

Logs of several systems are compared each on its own, in a group of their own; --by KEY
groups the episodes of each system further (dir:N, the N-th directory below the one given;
run or game, TALES's; a member of the logs' steps), each group in its own section, then a
line on whether the after policy serves every group.`,
		Example: `  lbanalyze batch testdata/episodes
  lbanalyze batch --after score-or-objective:60 --format markdown game_files
  lbanalyze batch --config pyproject.toml --format json game_files/episodes
  lbanalyze batch --plots plots --html report.html testdata/episodes
  lbanalyze batch --by dir:1 submissions/LLM`,
		Args: needsArgs("batch needs at least one directory or log file"),
		RunE: func(cmd *cobra.Command, args []string) error {
			baseline, after, recording, err := f.resolve(cmd, e)
			if err != nil {
				return err
			}
			opts, err := f.analysis.options()
			if err != nil {
				return err
			}
			if f.summary && f.format == "csv" {
				return usageError("--summary: csv is one row per episode and has no summary")
			}
			if !slices.Contains(timelineChoices, f.timelines) {
				return usageError("--timelines %q: want %s", f.timelines, strings.Join(timelineChoices, ", "))
			}
			if f.plots != "" {
				if err := checkDirPath("--plots", f.plots); err != nil {
					return err
				}
			}
			if f.html != "" {
				if err := checkFilePath("--html", f.html); err != nil {
					return err
				}
			}
			srcs, err := f.fields.sources()
			if err != nil {
				return err
			}
			if err := f.by.parse(); err != nil {
				return err
			}
			b := &batchRead{f: &f, cmd: cmd, sides: sides{baseline, after, recording, opts},
				whole: f.html != "" || f.plots != ""}
			c := b.read(e, args, srcs)
			if b.n == 0 {
				return failure("no episode could be analysed")
			}
			groups, grouped, err := b.split()
			if err != nil {
				return err
			}
			if !grouped {
				d, err := f.compare(e, b, groups[0], skips(c.Skipped), c.Passed)
				if err != nil {
					return err
				}
				return f.write(e, d)
			}
			out, err := eachGroup(e, groups, "no episode can be compared", func(g group.Group) (report.Group, error) {
				d, err := f.compare(e, b, g, nil, nil)
				return report.Group{Name: g.Name, System: g.System.Name, Dataset: d}, err
			}, func(g report.Group, i int, name string) error { return f.writeCharts(e, g.Dataset, i, name) })
			if err != nil {
				return err
			}
			return e.writeOutput(f.format, func(w io.Writer) error {
				return report.WriteGroups(w, f.format, f.by.name(), out, inputs(c), f.summary, e.fit)
			})
		},
	}
	fs := cmd.Flags()
	// Their defaults are the system's (sides), said in the usage.
	fs.StringVar(&f.baseline, "baseline", string(policy.Score), "the baseline policy, NAME[:W[/I[/T]]], W max_turns_stuck, I check_interval, T the warning threshold (default: "+
		bySystem(func(s *system.System) string { return string(side(s, policy.Score, s.Now.Name)) })+")")
	fs.StringVar(&f.after, "after", string(policy.ScoreOrObjective), "the after policy, in the same form (default: "+
		bySystem(func(s *system.System) string { return string(side(s, policy.ScoreOrObjective, s.Adds)) })+")")
	fs.Lookup("baseline").DefValue, fs.Lookup("after").DefValue = "", ""
	f.settings.register(fs, true, nil, func(s *policy.Setting) string {
		return s.Usage + "; for both policies where --baseline or --after does not give it"
	})
	fs.StringVar(&f.config.path, "config", "", "a pyproject.toml whose "+system.Tables()+" sets the after policy (flags override it)")
	f.calls.register(fs)
	fs.StringVar(&f.format, "format", "table", "output format: "+strings.Join(textout.Formats, ", "))
	fs.IntVar(&f.jobs, "jobs", runtime.GOMAXPROCS(0), "how many files to read (and charts to draw) at once; at most 4 a core")
	coresDefault(fs.Lookup("jobs"))
	fs.StringVar(&f.plots, "plots", "", "write into this directory the dataset charts and score timelines (timeline-ID.png; --timelines says whose)")
	fs.StringVar(&f.timelines, "timelines", "auto", "whose timelines --plots draws: all, review (the episodes of the review list), none, or auto: all up to 100 episodes, none past that (the HTML report holds them)")
	fs.StringVar(&f.html, "html", "", "write a self-contained HTML report (tables, review list, charts, timelines) to this file")
	fs.BoolVar(&f.summary, "summary", false, "print the metrics and the review list only, not the per-episode table (table, markdown, json)")
	f.analysis.register(fs)
	f.fields.register(fs)
	f.by.register(fs)
	return cmd
}

// sides are the policies batch compares, as the flags resolve them, and the
// options of the analysis.
type sides struct {
	baseline, after policy.Policy
	recording       policy.Timer
	opts            report.Options
}

// compare compares the episodes of one group (of one system), analysed as
// they were read (batchRead): the baseline against the after policy, as the
// flags and the system's defaults say.
func (f *batchFlags) compare(e *env, b *batchRead, g group.Group, skipped []report.Skip, passed []string) (*report.Dataset, error) {
	s := b.sidesOf(g.System)
	baseline, after := s.pair[0], s.pair[1]
	e.tellOnce(f.config.loaded.mismatch(g.System)...)
	e.tellOnce(refusalWarnings(g.System, slices.Values(s.pair))...)
	e.tellOnce(f.noteShared(baseline, after)...)
	eps, unreplayed := b.episodes(g, "left out of the comparison")
	e.tell(unreplayed...)
	if len(eps) == 0 {
		return nil, failure("no episode can be compared")
	}
	_, end := e.progress("computing the intervals", 0)
	d := report.NewDataset(baseline, after, s.opts, eps, skipped, passed)
	end()
	d.Unreplayed = unreplayed
	return d, nil
}

// write writes the report of d, and its charts and HTML page when asked for.
func (f *batchFlags) write(e *env, d *report.Dataset) error {
	if err := e.writeOutput(f.format, func(w io.Writer) error { return report.WriteDataset(w, f.format, d, f.summary, e.fit) }); err != nil {
		return err
	}
	return f.writeCharts(e, d, -1, "")
}

// writeCharts writes the charts and the HTML page of d, of the group i (from
// 0) named name, or of the whole dataset when i < 0 (groupPath).
func (f *batchFlags) writeCharts(e *env, d *report.Dataset, i int, name string) error {
	if plots := groupPath(f.plots, i, name, true); plots != "" {
		if err := e.writePlots(plots, d, f.jobs, f.timelines); err != nil {
			return err
		}
	}
	if html := groupPath(f.html, i, name, false); html != "" {
		return e.writeHTML(html, d)
	}
	return nil
}

// sides gives the sides a dataset is compared on where no flag sets them,
// when the system sys that ran it stops no run on a rule of its own: the run
// as logged (none, or its own cap as it ran: system.System.Now) against the
// rule it would add (system.System.Adds; docs/sources.md, "Which system ran
// a log").
func (f *batchFlags) sides(cmd *cobra.Command, sys *system.System, baseline, after policy.Policy) (policy.Policy, policy.Policy) {
	if sys.Stops() {
		return baseline, after
	}
	if !cmd.Flags().Changed("baseline") {
		baseline = sys.Now
	}
	if !cmd.Flags().Changed("after") && (f.config.loaded == nil || f.config.loaded.System != sys) {
		after = policy.New(sys.Adds, f.settings.given()) // as --after NAME would
	}
	return baseline, after
}

// side is the default of a side for the logs of s: the flag's for a system
// that stops its runs on a rule of its own, else its own (sides).
func side(s *system.System, flag, own policy.Name) policy.Name {
	if s.Stops() {
		return flag
	}
	return own
}

// resolve gives the baseline and after policies and the settings recordings
// are assumed to have run with (for the self-check).
func (f *batchFlags) resolve(cmd *cobra.Command, e *env) (baseline, after policy.Policy, recording policy.Timer, err error) {
	if err = checkOutput(f.format, f.calls); err != nil {
		return
	}
	if f.jobs < 1 {
		err = usageError("--jobs must be at least 1")
		return
	}
	f.jobs = workers(f.jobs)
	given := f.settings.given()
	if err = given.Usable(); err != nil {
		err = usageError("%v", err)
		return
	}
	recording, afterGiven, err := f.config.resolve(e, given)
	if err != nil {
		return
	}
	afterSpec := f.after
	if cfg := f.config.loaded; cfg != nil && !cmd.Flags().Changed("after") {
		afterSpec = string(cfg.Policy.Name)
	}
	if baseline, err = policy.Parse(f.baseline, given); err != nil {
		err = usageError("--baseline: %v", err)
		return
	}
	if after, err = policy.Parse(afterSpec, afterGiven); err != nil {
		err = usageError("--after: %v", err)
		return
	}
	return
}

// noteShared says what a bare parameter flag applied to: both sides, unless
// --config set the after policy (then the baseline only and the after side).
func (f *batchFlags) noteShared(baseline, after policy.Policy) []string {
	var set []string
	for _, l := range f.settings {
		if l.set {
			set = append(set, fmt.Sprintf("--%s %s", l.setting.Flag, l))
		}
	}
	if len(set) == 0 {
		return nil
	}
	return []string{fmt.Sprintf("note: %s applies to the baseline and the after policy where --baseline or --after does not set it: baseline %s, after %s. To change one side only, write NAME:MAX_TURNS_STUCK/CHECK_INTERVAL in --baseline or --after.",
		strings.Join(set, ", "), baseline, after)}
}
