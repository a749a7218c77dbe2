package main

import (
	"slices"
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/lbanalyze/lbanalyze/policy"
	"github.com/lbanalyze/lbanalyze/report"
)

// policyFlags are the flags that choose policies and their settings, shared
// by the commands that replay.
type policyFlags struct {
	policies     []string
	maxTurns     []int
	intervals    []int
	warning      int
	config       string
	callsPerTurn int
	format       string
}

func (f *policyFlags) register(fs *pflag.FlagSet) {
	fs.StringSliceVar(&f.policies, "policy", []string{string(policy.Score), string(policy.ScoreOrObjective)},
		"policies to replay, comma-separated: score, score-or-objective, window")
	fs.IntSliceVar(&f.maxTurns, "max-turns-stuck", []int{policy.DefaultMaxTurnsStuck}, "max_turns_stuck values, comma-separated")
	fs.IntSliceVar(&f.intervals, "check-interval", []int{policy.DefaultCheckInterval}, "stuck_check_interval values, comma-separated")
	fs.IntVar(&f.warning, "warning-threshold", policy.DefaultWarningThreshold, "stuck_warning_threshold: the countdown warning shows from this many turns stuck")
	fs.StringVar(&f.config, "config", "", "a pyproject.toml whose [tool.zorkgpt.loop_break] sets the policy and its settings (flags override it)")
	fs.IntVar(&f.callsPerTurn, "calls-per-turn", 4, "LLM calls one turn costs (agent, critic, extractor, synthesis)")
	fs.StringVar(&f.format, "format", "table", "output format: "+strings.Join(report.Formats, ", "))
}

// settings is what the policy flags resolve to.
type settings struct {
	policies []policy.Policy
	// recording is what the recorded runs are assumed to have used: ZorkGPT's
	// defaults, or the --config file's values.
	recording policy.Params
}

// resolve turns the flags (and --config) into the policies to replay, nested
// policy × max_turns_stuck × check_interval in that order. Settings ZorkGPT
// would refuse are replayed all the same, with a warning.
func (f *policyFlags) resolve(cmd *cobra.Command, e *env) (settings, error) {
	var s settings
	if err := checkOutput(f.format, f.callsPerTurn); err != nil {
		return s, err
	}
	changed := cmd.Flags().Changed
	names, maxTurns, intervals, warning := f.policies, f.maxTurns, f.intervals, f.warning
	s.recording = policy.DefaultParams()
	if f.config != "" {
		cfg, err := loadConfig(f.config, e)
		if err != nil {
			return s, err
		}
		s.recording = cfg.Params
		if !changed("policy") {
			names = []string{string(cfg.Policy().Name)}
		}
		if !changed("max-turns-stuck") {
			maxTurns = []int{cfg.MaxTurnsStuck}
		}
		if !changed("check-interval") {
			intervals = []int{cfg.CheckInterval}
		}
		if !changed("warning-threshold") {
			warning = cfg.WarningThreshold
		}
	}
	warned := map[policy.Params]bool{}
	for _, n := range names {
		name, err := policy.ParseName(strings.TrimSpace(n))
		if err != nil {
			return s, usageError("--policy: %v", err)
		}
		for _, w := range maxTurns {
			for _, iv := range intervals {
				p := policy.Policy{Name: name, Params: policy.Params{MaxTurnsStuck: w, CheckInterval: iv, WarningThreshold: warning}}
				if err := p.Usable(); err != nil {
					return s, usageError("%v", err)
				}
				if !warned[p.Params] {
					warned[p.Params] = true
					warnRefusals(p.Params, e)
				}
				s.policies = append(s.policies, p)
			}
		}
	}
	if len(s.policies) == 0 {
		return s, usageError("no policy to replay")
	}
	return s, nil
}

func checkOutput(format string, callsPerTurn int) error {
	if !slices.Contains(report.Formats, format) {
		return usageError("unknown --format %q (known: %s)", format, strings.Join(report.Formats, ", "))
	}
	if callsPerTurn < 0 {
		return usageError("--calls-per-turn must not be negative")
	}
	return nil
}

// loadConfig reads a pyproject.toml's loop-break table; its warnings go to stderr.
func loadConfig(path string, e *env) (policy.Config, error) {
	cfg, err := policy.LoadConfig(path)
	if err != nil {
		return cfg, usageError("--config: %v", err)
	}
	for _, w := range cfg.Warnings {
		e.warnf("%s", w)
	}
	return cfg, nil
}

// warnRefusals warns about settings ZorkGPT's configuration would refuse:
// asked for with flags, they are replayed all the same.
func warnRefusals(p policy.Params, e *env) {
	if r := p.Refusals(); len(r) > 0 {
		e.warnf("%d/%d with stuck_warning_threshold %d: ZorkGPT would refuse this setting (%s); replayed anyway",
			p.MaxTurnsStuck, p.CheckInterval, p.WarningThreshold, strings.Join(r, "; "))
	}
}
