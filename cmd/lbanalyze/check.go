package main

import (
	"errors"
	"fmt"
	"io"
	"runtime"
	"slices"
	"strings"

	"github.com/spf13/cobra"

	"github.com/lbanalyze/lbanalyze/episode"
	"github.com/lbanalyze/lbanalyze/internal/metrics"
	"github.com/lbanalyze/lbanalyze/internal/sweep"
	"github.com/lbanalyze/lbanalyze/internal/textout"
	"github.com/lbanalyze/lbanalyze/policy"
	"github.com/lbanalyze/lbanalyze/replay"
	"github.com/lbanalyze/lbanalyze/system"
)

// checkFlags are check's: a rule and how many premature stops it may make,
// or a change of rule and the margin its false terminations may grow by.
type checkFlags struct {
	rule, from, to string
	maxPremature   int
	margin         float64 // percentage points
	gainHorizon    int
	format         string
	fields         fieldsFlags
	// policy, before and after are the rules read from --policy, --from
	// and --to.
	policy, before, after policy.Policy
}

func newCheckCmd(e *env) *cobra.Command {
	var f checkFlags
	cmd := &cobra.Command{
		Use:   "check (--policy RULE [--max-premature N] | --from A --to B) PATH...",
		Short: "A gate for CI: exit 1 when a stop rule stops too many runs prematurely",
		Long: `Replay one stop rule over the logs and exit 1 when it stops more runs prematurely (a later
score gain, or an objective just completed: the episode report's "premature?") than
--max-premature allows, 0 otherwise; or judge a change of rule, --from A --to B, as sweep judges
the change it would ship: exit 1 unless the upper bound of the 95% interval of the change of
the false-termination rate (high bound) is within --ft-margin and, unless A is none, its lower
bound is at most 0 (not significantly worse). One line says why, or JSON with
--format json. Exit 2 on a usage error (docs/commands.md, "check: a gate for CI").`,
		Example: `  lbanalyze check --policy repeat:times=4 --max-premature 0 runs/
  lbanalyze check --policy openhands --max-premature 2 --format json runs/
  lbanalyze check --from score:40/10 --to score:40/10+repeat:times=4 runs/`,
		Args: needsArgs("check needs at least one log file or directory"),
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := f.usable(cmd); err != nil {
				return err
			}
			srcs, err := f.fields.sources()
			if err != nil {
				return err
			}
			c := e.readCorpus(args, runtime.GOMAXPROCS(0), false, srcs, "")
			if len(c.Episodes) == 0 {
				return errNoEpisode
			}
			var v checkVerdict
			if f.rule != "" {
				v, err = f.premature(c.Episodes)
			} else {
				v, err = f.change(c.Episodes)
			}
			if err != nil {
				return err
			}
			if err := e.writeOutput(f.format, func(w io.Writer) error { return v.write(w, f.format) }); err != nil {
				return err
			}
			if !v.Pass {
				return errCheckFailed
			}
			return nil
		},
	}
	fs := cmd.Flags()
	fs.StringVar(&f.rule, "policy", "", "the stop rule to check, as --policy writes one (repeat:times=4, openhands, score:40/10+repeat)")
	fs.IntVar(&f.maxPremature, "max-premature", 0, "the premature stops allowed with --policy")
	fs.StringVar(&f.from, "from", "", "the rule run now, to judge a change of rule (with --to)")
	fs.StringVar(&f.to, "to", "", "the rule to change to (with --from)")
	fs.Float64Var(&f.margin, "ft-margin", 100*sweep.DefaultFTMargin, "with --from and --to: how many percentage points the false-termination rate may grow by")
	fs.IntVar(&f.gainHorizon, "gain-horizon", 0, "a later score gain is evidence of a premature stop only within this many turns of the stop (0: any later gain)")
	fs.StringVar(&f.format, "format", "table", "output format: table (one line) or json")
	f.fields.register(fs)
	return cmd
}

// errCheckFailed: the gate failed, its line already written (exit 1).
var errCheckFailed = &exitError{code: exitFailure, err: errors.New("check failed"), said: true}

// usable refuses what check cannot run (exit 2).
func (f *checkFlags) usable(cmd *cobra.Command) error {
	switch {
	case f.rule != "" && (f.from != "" || f.to != ""):
		return usageError("give --policy, or --from and --to, not both")
	case f.rule == "" && (f.from == "" || f.to == ""):
		return usageError("check needs --policy RULE, or --from A and --to B")
	case f.rule == "" && cmd.Flags().Changed("max-premature"):
		return usageError("--max-premature goes with --policy")
	case f.maxPremature < 0:
		return usageError("--max-premature must not be negative, not %d", f.maxPremature)
	case ftMarginError(f.margin) != nil:
		return ftMarginError(f.margin)
	case f.gainHorizon < 0:
		return usageError("--gain-horizon must not be negative, not %d", f.gainHorizon)
	case f.format != "table" && f.format != "json":
		return usageError("--format for check is table or json, not %q", f.format)
	}
	var err error
	if f.rule != "" {
		f.policy, err = parseRule("policy", f.rule)
		return err
	}
	if f.before, err = parseRule("from", f.from); err != nil {
		return err
	}
	f.after, err = parseRule("to", f.to)
	return err
}

// parseRule reads a rule of a flag, a usage error naming the flag.
func parseRule(flag, s string) (policy.Policy, error) {
	p, err := policy.Parse(s, nil)
	if err != nil {
		return p, usageError("--%s: %v", flag, err)
	}
	return p, nil
}

// checkVerdict is what check found: whether the gate passes, why in one
// line, and the counts behind it.
type checkVerdict struct {
	Pass bool   `json:"pass"`
	Why  string `json:"why"`
	// Runs are the runs judged, NotReplayed those whose logs lack a signal
	// a rule needs.
	Runs        int `json:"runs"`
	NotReplayed int `json:"not_replayed"`
	// With --policy.
	Policy       string   `json:"policy,omitempty"`
	Stops        *int     `json:"stops,omitempty"`
	Premature    *int     `json:"premature,omitempty"`
	MaxPremature *int     `json:"max_premature,omitempty"`
	Unknown      *int     `json:"unknown,omitempty"`
	Censored     *int     `json:"censored,omitempty"`
	PrematureIDs []string `json:"premature_runs,omitempty"`
	// With --from and --to: the change of the false-termination rate, high
	// bound, in percentage points, its 95% interval, and the margin.
	From     string      `json:"from,omitempty"`
	To       string      `json:"to,omitempty"`
	Change   *float64    `json:"false_termination_rate_change_pp,omitempty"`
	CI       *[2]float64 `json:"ci95,omitempty"`
	FTMargin *float64    `json:"ft_margin_pp,omitempty"`
}

// write writes v as format asks: its line, or its JSON.
func (v checkVerdict) write(w io.Writer, format string) error {
	if format != "json" {
		_, err := io.WriteString(w, v.Why+"\n")
		return err
	}
	if v.Premature != nil && v.PrematureIDs == nil {
		v.PrematureIDs = []string{}
	}
	b, err := textout.IndentedJSON(v, "")
	if err != nil {
		return err
	}
	_, err = w.Write(append(b, '\n'))
	return err
}

// premature judges --policy: the runs it stops with evidence of a
// premature stop, against --max-premature.
func (f *checkFlags) premature(eps []*episode.Episode) (checkVerdict, error) {
	p := f.policy
	v := checkVerdict{Policy: p.String(), MaxPremature: &f.maxPremature}
	stops, premature, unknown, censored := 0, 0, 0, 0
	for _, ep := range eps {
		if len(replay.Lacking(ep, p)) > 0 {
			v.NotReplayed++
			continue
		}
		o := replay.Run(ep, p)
		o.GainHorizon = f.gainHorizon
		v.Runs++
		switch {
		case o.FalseTerminationCandidate():
			premature++
			v.PrematureIDs = append(v.PrematureIDs, ep.Name())
		case o.Unknown():
			unknown++
		case o.Censored:
			censored++
		}
		if o.Terminated() {
			stops++
		}
	}
	if v.Runs == 0 {
		return v, failure("%s could be replayed on none of the %s: %s", p, textout.Count(len(eps), "run"), lackingWords(eps, p))
	}
	v.Stops, v.Premature, v.Unknown, v.Censored = &stops, &premature, &unknown, &censored
	v.Pass = premature <= f.maxPremature
	v.Why = fmt.Sprintf("check %s: %s stops %d of %s prematurely, %s --max-premature %d", verdictWord(v.Pass), p, premature,
		textout.Count(v.Runs, "run"), pick(v.Pass, "within", "more than"), f.maxPremature)
	if premature > 0 {
		v.Why += " (" + listSome(v.PrematureIDs, 3) + ")"
	}
	v.Why += fmt.Sprintf("; %d stops in all", stops)
	if unknown+censored > 0 {
		v.Why += fmt.Sprintf("; %d more cannot be judged, the logs ending too soon", unknown+censored)
	}
	if v.NotReplayed > 0 {
		v.Why += fmt.Sprintf("; %s not replayed (%s)", textout.Count(v.NotReplayed, "run"), lackingWords(eps, p))
	}
	return v, nil
}

// change judges --from A --to B as sweep judges the change it would ship
// (sweep.Stand; docs/commands.md, "sweep: which setting to ship"): the
// upper bound of the change of the false-termination rate, high bound,
// within the margin and, unless A is no stop rule, its lower bound at most
// 0, not significantly worse.
func (f *checkFlags) change(eps []*episode.Episode) (checkVerdict, error) {
	from, to := f.before, f.after
	v := checkVerdict{From: from.String(), To: to.String(), FTMargin: &f.margin}
	var pairs []metrics.Pair
	for _, ep := range eps {
		if len(replay.Lacking(ep, from)) > 0 || len(replay.Lacking(ep, to)) > 0 {
			v.NotReplayed++
			continue
		}
		a, b := replay.Run(ep, from), replay.Run(ep, to)
		a.GainHorizon, b.GainHorizon = f.gainHorizon, f.gainHorizon
		pairs = append(pairs, metrics.Pair{Ep: ep, Baseline: &a, After: &b})
	}
	v.Runs = len(pairs)
	if v.Runs == 0 {
		return v, failure("%s and %s could be replayed together on none of the %s", from, to, textout.Count(len(eps), "run"))
	}
	ms := metrics.Compare(pairs, metrics.Costs{CallsPerTurn: 1}, system.OfAll(eps).Shows.Applies)
	ft := &ms[slices.IndexFunc(ms, func(m metrics.Metric) bool { return m.Name == "false_termination_rate" })] // always computed
	v.Change = &ft.Change
	v.CI = ft.CI
	st := sweep.Stand(ft, from, f.margin/100)
	v.Pass = st == sweep.ShownWithin
	if ft.CI == nil {
		v.Why = fmt.Sprintf("check failed: %s → %s over %s: too few runs for an interval of the change of false terminations", from, to, textout.Count(v.Runs, "run"))
	} else {
		v.Why = fmt.Sprintf("check %s: %s → %s changes the false-termination rate (high bound) by %+.1f pp over %s, 95%% CI %+.1f … %+.1f pp, ",
			verdictWord(v.Pass), from, to, ft.Change, textout.Count(v.Runs, "run"), ft.CI[0], ft.CI[1])
		if st == sweep.SignificantlyWorse {
			v.Why += fmt.Sprintf("significantly worse (its lower bound above 0), whatever --ft-margin %.1f pp allows", f.margin)
		} else {
			v.Why += fmt.Sprintf("its upper bound %s --ft-margin %.1f pp", pick(v.Pass, "within", "above"), f.margin)
		}
	}
	if v.NotReplayed > 0 {
		v.Why += fmt.Sprintf("; %s not replayed, their logs lacking a signal a rule needs", textout.Count(v.NotReplayed, "run"))
	}
	return v, nil
}

// lackingWords names what the logs that cannot replay p lack.
func lackingWords(eps []*episode.Episode, p policy.Policy) string {
	var lack episode.Signals
	for _, ep := range eps {
		for _, s := range replay.Lacking(ep, p) {
			lack = lack.With(s)
		}
	}
	names := []string{}
	for _, s := range lack.List() {
		names = append(names, s.String())
	}
	return "their logs record no " + strings.Join(names, ", ")
}

// verdictWord is the gate's verdict, as check's line begins with it.
func verdictWord(pass bool) string { return pick(pass, "passed", "failed") }

// pick is yes when cond holds, no otherwise.
func pick(cond bool, yes, no string) string {
	if cond {
		return yes
	}
	return no
}
