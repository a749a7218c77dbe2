package main

import (
	"slices"
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/lbanalyze/lbanalyze/episode"
	"github.com/lbanalyze/lbanalyze/internal/corpus"
	"github.com/lbanalyze/lbanalyze/internal/textout"
	"github.com/lbanalyze/lbanalyze/policy"
	"github.com/lbanalyze/lbanalyze/system"
)

// policyFlags are the flags that choose policies and their settings, shared
// by the commands that replay a grid of them: --policy, and one list flag a
// setting of policy.Settings (values and ranges FROM:TO[:STEP]).
type policyFlags struct {
	policies []string
	settings settingFlags
	config   configFlag
	calls    callsFlag
	format   string
	fields   fieldsFlags
	// configIsNow: --config names the current setting only, to compare
	// with, and the flags alone make the grid (sweep).
	configIsNow bool
}

// register adds the flags; grid gives a command's own default values for a
// setting's flag, by its JSON key (the setting's default otherwise).
func (f *policyFlags) register(fs *pflag.FlagSet, policies []policy.Name, grid map[string][]int) {
	names := nameStrings(policies)
	known := strings.Join(nameStrings(policy.Names()), ", ")
	fs.StringSliceVar(&f.policies, "policy", names, "policies to replay, comma-separated: "+known+
		" (default: "+bySystem(func(s *system.System) string {
		if s.Offered == nil {
			return strings.Join(names, ",")
		}
		return strings.Join(nameStrings(s.Offered), ",")
	})+")")
	fs.Lookup("policy").DefValue = "[]" // each system's, said in the usage
	f.settings.register(fs, false, grid, func(s *policy.Setting) string {
		if s.Patterns != nil {
			return s.Usage + "; one pattern a flag, repeated for more"
		}
		return s.Usage + "; values and ranges FROM:TO[:STEP], comma-separated"
	})
	configUsage := "a pyproject.toml whose " + system.Tables() + " sets the policy and its settings (flags override it)"
	if f.configIsNow {
		configUsage = "a pyproject.toml whose " + system.Tables() + " is the current setting, to compare with (the grid stays the flags')"
	}
	fs.StringVar(&f.config.path, "config", "", configUsage)
	f.calls.register(fs)
	fs.StringVar(&f.format, "format", "table", "output format: "+strings.Join(textout.Formats, ", "))
	f.fields.register(fs)
}

// bySystem says what a default is for each system's logs: "4 for ZorkGPT,
// 1 for your harness", those of equal value together.
func bySystem(value func(*system.System) string) string {
	var vals []string
	of := map[string][]string{}
	for _, s := range system.All() {
		v := value(s)
		if of[v] == nil {
			vals = append(vals, v)
		}
		of[v] = append(of[v], s.Name)
	}
	each := make([]string, len(vals))
	for i, v := range vals {
		each[i] = v + " for " + strings.Join(of[v], " and ")
	}
	return strings.Join(each, "; ")
}

// nameStrings are policy names as strings.
func nameStrings(names []policy.Name) []string {
	s := make([]string, len(names))
	for i, n := range names {
		s[i] = string(n)
	}
	return s
}

// settings is what the policy flags resolve to.
type settings struct {
	// policies are those asked for: a grid, made as it is read.
	policies *policy.Grid
	// recording is what the recorded runs are assumed to have used: the
	// defaults, or the --config file's values.
	recording policy.Timer
	// current is the setting run now, the --config file's; nil without
	// --config: what the system that ran the logs runs now (system.System.Now).
	current *policy.Policy
	// offered are the policies the logs of a system that stops no run on a
	// rule of its own are offered, under the same settings
	// (system.System.Offered); nil when the policies were asked for
	// (--policy, or --config where it sets them).
	offered map[*system.System]*policy.Grid
	// sources are asked to claim each input (--fields first).
	sources *corpus.Sources
	calls   callsFlag
	// refusals: warn of the settings the system that ran the logs would
	// refuse (refusalWarnings).
	refusals bool
	// config is what --config read, and from where; nil without it.
	config *loadedConfig
}

// policiesFor are the policies to replay over the logs of sys: those asked
// for, or what they are offered.
func (s settings) policiesFor(sys *system.System) *policy.Grid {
	if offered := s.offered[sys]; offered != nil {
		return offered
	}
	return s.policies
}

// firstOfSystem gives, for the first episode of each system, the warnings
// about the settings it would refuse among those replayed over its logs;
// nothing for the others. It is called in the order the episodes are told.
func (s settings) firstOfSystem() func(ep *episode.Episode) []string {
	seen := map[*system.System]bool{}
	return func(ep *episode.Episode) []string {
		sys := system.Of(ep)
		if seen[sys] {
			return nil
		}
		seen[sys] = true
		w := s.config.mismatch(sys)
		if s.refusals {
			w = append(w, refusalWarnings(sys, s.policiesFor(sys).All())...)
		}
		return w
	}
}

// resolve turns the flags (and --config) into the policies to replay, nested
// policy × each setting in the order of policy.Settings. Every setting is
// checked before any work; settings the system that ran the logs would refuse
// are replayed all the same, with a warning unless quiet (firstOfSystem).
func (f *policyFlags) resolve(cmd *cobra.Command, e *env, quiet bool) (settings, error) {
	s := settings{calls: f.calls, refusals: !quiet}
	if err := checkOutput(f.format, f.calls); err != nil {
		return s, err
	}
	changed := cmd.Flags().Changed
	names := f.policies
	recording, config, err := f.config.resolve(e, nil)
	if err != nil {
		return s, err
	}
	s.recording, s.config = recording, f.config.loaded
	if f.configIsNow {
		config = nil // the grid stays the flags'
	}
	vals := f.settings.lists(config)
	if cfg := s.config; cfg != nil {
		if !changed("policy") && !f.configIsNow {
			names = []string{string(cfg.Policy.Name)}
		}
		s.current = &cfg.Policy
	}
	names, vals = dedupe(names, vals, e)
	offer := !changed("policy") && (s.config == nil || f.configIsNow)
	n := gridSize(names, vals)
	if n > maxConfigs {
		return s, gridTooLarge(names, vals)
	}
	if offer {
		for _, sys := range system.All() {
			if offered := nameStrings(sys.Offered); gridSize(offered, vals) > maxConfigs {
				return s, gridTooLarge(offered, vals)
			}
		}
	}
	s.policies = &policy.Grid{}
	var written []policy.Policy // the policies written out, NAME:SETTINGS
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
		}
		s.policies.Append(&item)
	}
	dropRepeats(s.policies, written, e)
	if s.policies.Len() == 0 {
		return s, usageError("no policy to replay")
	}
	if offer {
		s.offered = map[*system.System]*policy.Grid{}
		for _, sys := range system.All() {
			for _, n := range sys.Offered {
				if s.offered[sys] == nil {
					s.offered[sys] = &policy.Grid{}
				}
				s.offered[sys].Product(n, vals)
			}
		}
	}
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

func checkOutput(format string, calls callsFlag) error {
	if !slices.Contains(textout.Formats, format) {
		return usageError("unknown --format %q (known: %s)", format, strings.Join(textout.Formats, ", "))
	}
	return calls.check()
}
