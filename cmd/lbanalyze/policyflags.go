package main

import (
	"slices"
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/lbanalyze/lbanalyze/episode"
	"github.com/lbanalyze/lbanalyze/internal/corpus"
	"github.com/lbanalyze/lbanalyze/internal/report"
	"github.com/lbanalyze/lbanalyze/policy"
)

// policyFlags are the flags that choose policies and their settings, shared
// by the commands that replay a grid of them: --policy, and one list flag a
// setting of policy.Settings (values and ranges FROM:TO[:STEP]).
type policyFlags struct {
	policies     []string
	settings     []*intList // by the index of policy.Settings()
	config       string
	callsPerTurn int
	format       string
	fields       fieldsFlags
	// configIsNow: --config names the current setting only, to compare
	// with, and the flags alone make the grid (sweep).
	configIsNow bool
}

// register adds the flags; grid gives a command's own default values for a
// setting's flag, by its JSON key (the setting's default otherwise).
func (f *policyFlags) register(fs *pflag.FlagSet, policies []policy.Name, grid map[string][]int) {
	names := make([]string, len(policies))
	for i, n := range policies {
		names[i] = string(n)
	}
	known := strings.Join(nameStrings(), ", ")
	fs.StringSliceVar(&f.policies, "policy", names, "policies to replay, comma-separated: "+known)
	for _, s := range policy.Settings() {
		l := newIntList(s)
		if vals, ok := grid[s.Key]; ok {
			l.vals = vals
		}
		f.settings = append(f.settings, l)
		fs.Var(l, s.Flag, s.Usage+"; values and ranges FROM:TO[:STEP], comma-separated")
	}
	configUsage := "a pyproject.toml whose [tool.zorkgpt.loop_break] (ZorkGPT) or [tool.zorkburr] (ZorkGPT2) sets the policy and its settings (flags override it)"
	if f.configIsNow {
		configUsage = "a pyproject.toml whose [tool.zorkgpt.loop_break] (ZorkGPT) or [tool.zorkburr] (ZorkGPT2) is the current setting, to compare with (the grid stays the flags')"
	}
	fs.StringVar(&f.config, "config", "", configUsage)
	fs.IntVar(&f.callsPerTurn, "calls-per-turn", 4, "LLM calls one turn costs (agent, critic, extractor, synthesis)")
	fs.StringVar(&f.format, "format", "table", "output format: "+strings.Join(report.Formats, ", "))
	f.fields.register(fs)
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
	// policies are those asked for: a grid, made as it is read.
	policies *policy.Grid
	// recording is what the recorded runs are assumed to have used: ZorkGPT's
	// defaults, or the --config file's values.
	recording policy.Timer
	// current is the setting run now: the --config file's, else ZorkGPT's
	// defaults (sweep compares the logs of a system that stops no run itself
	// with none without --config).
	current policy.Policy
	// offered are the policies the logs of a system that stops no run on a
	// rule of its own are offered, under the same settings (policy.Offered);
	// nil when the policies were asked for (--policy, or --config where it
	// sets them).
	offered map[episode.System]*policy.Grid
	// sources are asked to claim each input (--fields first).
	sources *corpus.Sources
}

// policiesFor are the policies to replay over ep: those asked for, or
// what the logs of the system that ran it are offered.
func (s settings) policiesFor(ep *episode.Episode) *policy.Grid {
	if offered := s.offered[ep.System]; offered != nil {
		return offered
	}
	return s.policies
}

// resolve turns the flags (and --config) into the policies to replay, nested
// policy × each setting in the order of policy.Settings. Every setting is
// checked before any work; settings ZorkGPT would refuse are replayed all the
// same, with a warning unless quiet.
func (f *policyFlags) resolve(cmd *cobra.Command, e *env, quiet bool) (settings, error) {
	var s settings
	if err := checkOutput(f.format, f.callsPerTurn); err != nil {
		return s, err
	}
	changed := cmd.Flags().Changed
	names := f.policies
	vals := make([][]int, len(f.settings))
	for i, l := range f.settings {
		vals[i] = l.vals
	}
	cfg := policy.Config{Timer: policy.DefaultTimer(), ObjectiveBasedProgress: true}
	if f.config != "" {
		var err error
		if cfg, err = loadConfig(f.config, e); err != nil {
			return s, err
		}
		if !changed("policy") && !f.configIsNow {
			names = []string{string(cfg.Policy().Name)}
		}
		given := cfg.Timer.Values()
		for i, x := range policy.Settings() {
			if !changed(x.Flag) && !f.configIsNow {
				vals[i] = []int{given.Get(x)}
			}
		}
	}
	s.recording, s.current = cfg.Timer, cfg.Policy()
	names, vals = dedupe(names, vals, e)
	offer := !changed("policy") && (f.config == "" || f.configIsNow)
	n := gridSize(names, vals)
	if n > maxConfigs {
		return s, gridTooLarge(names, vals)
	}
	if offer {
		for _, sys := range episode.Systems {
			var offered []string
			for _, o := range policy.Offered(sys) {
				offered = append(offered, string(o))
			}
			if gridSize(offered, vals) > maxConfigs {
				return s, gridTooLarge(offered, vals)
			}
		}
	}
	s.policies = &policy.Grid{}
	var written []policy.Policy // the policies written out, NAME:SETTINGS
	var refused refusals
	for _, n := range names {
		var item policy.Grid // what n stands for
		if strings.ContainsAny(n, ":=") {
			p, err := policy.Parse(n, nil)
			if err != nil {
				return s, usageError("--policy: %v", err)
			}
			item.Add(p)
			written = append(written, p)
		} else {
			name, err := policy.ParseName(n)
			if err != nil {
				return s, usageError("--policy: %v", err)
			}
			item.Product(name, vals)
		}
		for p := range item.All() {
			if err := p.Usable(); err != nil {
				return s, usageError("%v", err)
			}
			if !quiet {
				refused.add(p, e)
			}
		}
		s.policies.Append(&item)
	}
	refused.done(e)
	dropRepeats(s.policies, written, e)
	if s.policies.Len() == 0 {
		return s, usageError("no policy to replay")
	}
	if offer {
		s.offered = map[episode.System]*policy.Grid{}
		for _, sys := range episode.Systems {
			for _, n := range policy.Offered(sys) {
				if s.offered[sys] == nil {
					s.offered[sys] = &policy.Grid{}
				}
				s.offered[sys].Product(n, vals)
			}
		}
	}
	var err error
	s.sources, err = f.fields.sources()
	return s, err
}

// dedupe drops the --policy items and the values of each list flag given
// more than once (noting them): the grid they make then has no config twice
// but where a policy written out with its settings is also in it.
func dedupe(names []string, vals [][]int, e *env) ([]string, [][]int) {
	trimmed := make([]string, len(names))
	for i, n := range names {
		trimmed[i] = strings.TrimSpace(n)
	}
	names = distinct("policy", trimmed, func(n string) string { return n }, e)
	for i, s := range policy.Settings() {
		vals[i] = distinct(s.Flag, vals[i], s.Format, e)
	}
	return names, vals
}

// dropRepeats keeps the first of equal policies: only a policy written out
// (score:40/10) can repeat another, of the grid or written out too.
func dropRepeats(g *policy.Grid, written []policy.Policy, e *env) {
	type repeat struct {
		at int
		p  policy.Policy
	}
	var repeats []repeat
	for i, p := range written {
		if slices.Contains(written[:i], p) {
			continue // its repeats are left out already
		}
		for _, at := range g.LeaveRepeats(p) {
			repeats = append(repeats, repeat{at, p})
		}
	}
	slices.SortFunc(repeats, func(a, b repeat) int { return a.at - b.at })
	twice := make([]string, len(repeats))
	for i, r := range repeats {
		twice[i] = r.p.String()
	}
	if len(twice) > 0 {
		e.notef("--policy asks for %s more than once: each is replayed once", listSome(twice, 3))
	}
}

// gridSize is how many policies the --policy items expand to, counted before
// any is made.
func gridSize(names []string, vals [][]int) int {
	total := 0
	for _, n := range names {
		size := 1
		if !strings.ContainsAny(n, ":=") {
			for i, s := range policy.Settings() {
				if has(policy.Name(strings.TrimSpace(n)), s) {
					size = min(size*len(vals[i]), maxConfigs+1)
				}
			}
		}
		total = min(total+size, maxConfigs+1)
	}
	return total
}

// has reports whether policy n has setting s; a name the registry does not
// know, refused once the grid's size is known, counts as having a timer.
func has(n policy.Name, s *policy.Setting) bool {
	if k, ok := policy.Lookup(n); ok {
		return k.Has(s)
	}
	return slices.Contains(policy.TimerSettings, s)
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
			p.MaxTurnsStuck(), p.CheckInterval(), p.WarningThreshold(), strings.Join(r, "; "))
	}
}
