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
// by the commands that replay a grid of them: --policy, and one list flag a
// parameter of policy.Dimensions (values and ranges FROM:TO[:STEP]).
type policyFlags struct {
	policies     []string
	dims         []*intList // by the index of policy.Dimensions()
	config       string
	callsPerTurn int
	format       string
}

// register adds the flags; grid gives a command's own default values for a
// parameter's flag, by its JSON key (the policy's default otherwise).
func (f *policyFlags) register(fs *pflag.FlagSet, policies []policy.Name, grid map[string][]int) {
	names := make([]string, len(policies))
	for i, n := range policies {
		names[i] = string(n)
	}
	known := strings.Join(nameStrings(), ", ")
	fs.StringSliceVar(&f.policies, "policy", names, "policies to replay, comma-separated: "+known)
	for _, d := range policy.Dimensions() {
		l := newIntList(&d)
		if vals, ok := grid[d.Key]; ok {
			l.vals = vals
		}
		f.dims = append(f.dims, l)
		fs.Var(l, d.Flag, d.Usage+"; values and ranges FROM:TO[:STEP], comma-separated")
	}
	fs.StringVar(&f.config, "config", "", "a pyproject.toml whose [tool.zorkgpt.loop_break] (ZorkGPT) or [tool.zorkburr] (ZorkGPT2) sets the policy and its settings (flags override it)")
	fs.IntVar(&f.callsPerTurn, "calls-per-turn", 4, "LLM calls one turn costs (agent, critic, extractor, synthesis)")
	fs.StringVar(&f.format, "format", "table", "output format: "+strings.Join(report.Formats, ", "))
}

func nameStrings() []string {
	var s []string
	for _, n := range policy.Names() {
		s = append(s, string(n))
	}
	return s
}

// settings is what the policy flags resolve to.
type settings struct {
	policies []policy.Policy
	// recording is what the recorded runs are assumed to have used: ZorkGPT's
	// defaults, or the --config file's values.
	recording policy.Params
	// current is the setting ZorkGPT runs: the --config file's, else its defaults.
	current policy.Policy
}

// resolve turns the flags (and --config) into the policies to replay, nested
// policy × each parameter in the order of policy.Dimensions. Every setting is
// checked before any work; settings ZorkGPT would refuse are replayed all the
// same, with a warning unless quiet.
func (f *policyFlags) resolve(cmd *cobra.Command, e *env, quiet bool) (settings, error) {
	var s settings
	if err := checkOutput(f.format, f.callsPerTurn); err != nil {
		return s, err
	}
	changed := cmd.Flags().Changed
	names := f.policies
	vals := make([][]int, len(f.dims))
	for i, l := range f.dims {
		vals[i] = l.vals
	}
	cfg := policy.Config{Params: policy.DefaultParams(), ObjectiveBasedProgress: true}
	if f.config != "" {
		var err error
		if cfg, err = loadConfig(f.config, e); err != nil {
			return s, err
		}
		if !changed("policy") {
			names = []string{string(cfg.Policy().Name)}
		}
		for i, d := range policy.Dimensions() {
			if !changed(d.Flag) {
				vals[i] = []int{d.Get(&cfg.Params)}
			}
		}
	}
	s.recording, s.current = cfg.Params, cfg.Policy()
	if n := gridSize(names, vals); n > maxConfigs {
		return s, usageError("the grid has more than %d configs (the product of the values of each flag): narrow a range or raise its step", maxConfigs)
	}
	warned := map[policy.Params]bool{}
	for _, n := range names {
		grid, err := specs(strings.TrimSpace(n), vals)
		if err != nil {
			return s, usageError("--policy: %v", err)
		}
		for _, p := range grid {
			if err := p.Usable(); err != nil {
				return s, usageError("%v", err)
			}
			if !quiet && !warned[p.Params] && len(p.Refusals()) > 0 {
				warned[p.Params] = true
				warnRefusals(p, e)
			}
			s.policies = append(s.policies, p)
		}
	}
	if len(s.policies) == 0 {
		return s, usageError("no policy to replay")
	}
	return s, nil
}

// gridSize is how many policies the --policy items expand to, counted before
// any is made.
func gridSize(names []string, vals [][]int) int {
	total := 0
	for _, n := range names {
		size := 1
		for i, d := range policy.Dimensions() {
			if d.Has(policy.Name(strings.TrimSpace(n))) && !strings.ContainsAny(n, ":=") {
				size = min(size*len(vals[i]), maxConfigs+1)
			}
		}
		total = min(total+size, maxConfigs+1)
	}
	return total
}

// specs are the policies one --policy item stands for: NAME under every
// combination of the parameter flags' values, or, written with its settings
// (patience:40/10:room_patience=30), that one policy as written.
func specs(item string, vals [][]int) ([]policy.Policy, error) {
	if strings.ContainsAny(item, ":=") {
		p, err := policy.Parse(item, policy.DefaultParams())
		return []policy.Policy{p}, err
	}
	name, err := policy.ParseName(item)
	return expand(name, vals), err
}

// expand gives policy name under every combination of the parameter values
// (vals[i] for policy.Dimensions()[i]); a parameter the policy does not have
// keeps its default.
func expand(name policy.Name, vals [][]int) []policy.Policy {
	out := []policy.Policy{{Name: name, Params: policy.DefaultParams()}}
	for i, d := range policy.Dimensions() {
		if !d.Has(name) {
			continue
		}
		next := make([]policy.Policy, 0, len(out)*len(vals[i]))
		for _, p := range out {
			for _, v := range vals[i] {
				d.Set(&p.Params, v)
				next = append(next, p)
			}
		}
		out = next
	}
	return out
}

// maxConfigs bounds a grid: every config costs a few hundred bytes (a sweep's
// sums), whatever the number of episodes.
const maxConfigs = 1_000_000

// maxCallsPerTurn bounds --calls-per-turn: ZorkGPT makes 4 calls a turn, and
// a larger count only risks overflowing the sums.
const maxCallsPerTurn = 1000

func checkOutput(format string, callsPerTurn int) error {
	if !slices.Contains(report.Formats, format) {
		return usageError("unknown --format %q (known: %s)", format, strings.Join(report.Formats, ", "))
	}
	if callsPerTurn < 0 || callsPerTurn > maxCallsPerTurn {
		return usageError("--calls-per-turn must be between 0 and %d, not %d", maxCallsPerTurn, callsPerTurn)
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
func warnRefusals(p policy.Policy, e *env) {
	if r := p.Refusals(); len(r) > 0 {
		e.warnf("%d/%d with stuck_warning_threshold %d: ZorkGPT would refuse this setting (%s); replayed anyway",
			p.MaxTurnsStuck, p.CheckInterval, p.WarningThreshold, strings.Join(r, "; "))
	}
}
