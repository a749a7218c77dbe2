package main

import (
	"fmt"
	"maps"

	"github.com/lbanalyze/lbanalyze/policy"
	"github.com/lbanalyze/lbanalyze/system"
)

// configFlag is --config: a pyproject.toml whose system's table sets a
// policy and its settings (system.LoadConfig), under the flags that set them.
type configFlag struct {
	path   string
	loaded *loadedConfig // what it read; nil without it
}

// resolve reads the file, when one is given, as every command reads it:
// recording, the settings the recordings are assumed to have run with (the
// config's, else the defaults), and values, the config's settings with those
// the flags set (given) over them (given alone without a file).
func (c *configFlag) resolve(e *env, given policy.Values) (recording policy.Timer, values policy.Values, err error) {
	if c.path == "" {
		return policy.DefaultTimer(), given, nil
	}
	cfg, err := system.LoadConfig(c.path)
	if err != nil {
		return recording, nil, usageError("--config: %v", err)
	}
	for _, w := range cfg.Warnings {
		e.warnf("%s", w)
	}
	c.loaded = &loadedConfig{cfg, c.path}
	recording = cfg.Policy.Timer()
	values = recording.Values()
	maps.Copy(values, given)
	return recording, values, nil
}

// loadedConfig is what --config read, and from where.
type loadedConfig struct {
	system.Config
	path string
}

// mismatch warns when the logs of sys, a system with a table of its own, are
// not those of the system whose table the config holds: its rule is
// replayed on them as it is given, but it is not what sys runs. (A harness
// has no table: a config's stands for its rule.)
func (c *loadedConfig) mismatch(sys *system.System) []string {
	if c == nil || c.System == sys || sys.Table == "" {
		return nil
	}
	return []string{fmt.Sprintf("warning: --config: %s holds %s's [%s] and no [%s], which %s reads: its %s is replayed on %s's logs as it is given",
		c.path, c.System.Name, c.System.Table, sys.Table, sys.Name, c.Policy, sys.Name)}
}
