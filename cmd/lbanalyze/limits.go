package main

import (
	"fmt"
	"iter"
	"runtime"
	"strings"

	"github.com/spf13/pflag"

	"github.com/lbanalyze/lbanalyze/policy"
	"github.com/lbanalyze/lbanalyze/system"
)

// maxJobsPerCore bounds --jobs: past a few readers a core, more only cost
// memory (each holds its buffers), and the output does not depend on them.
const maxJobsPerCore = 4

// workers is how many files to read (or charts to draw) at once for --jobs n.
func workers(n int) int { return min(n, maxJobsPerCore*runtime.GOMAXPROCS(0)) }

// replayers is how many of them replay episodes in a sweep: replaying is a
// core's work, and each replayer holds its tables of every episode (on
// 20,000 episodes of 20 to 80 turns: 431 MB peak RSS with 1, 982 MB with 8).
func replayers(n int) int { return min(n, runtime.GOMAXPROCS(0)) }

// maxCostPerCall and maxCostPerMTok bound the prices: a thousand dollars a
// call, or a hundred thousand a million tokens, is beyond any model's price,
// and keeps every sum of costs a finite number.
const (
	maxCostPerCall = 1000
	maxCostPerMTok = 100_000
)

// inRange says whether v is within [lo, hi]: NaN is not.
func inRange(v, lo, hi float64) bool { return v >= lo && v <= hi }

// gridTooLarge is the error for a grid of more than maxConfigs configs,
// naming the flags that multiply it.
func gridTooLarge(names []string, vals [][]int) error {
	factors := []string{fmt.Sprintf("--policy (%d)", len(names))}
	for i, s := range policy.Settings() {
		if len(vals[i]) > 1 {
			factors = append(factors, fmt.Sprintf("--%s (%d)", s.Flag, len(vals[i])))
		}
	}
	return usageError("the grid has more than %d configs, the product of the values of %s: narrow a range or raise its step",
		maxConfigs, strings.Join(factors, " × "))
}

// distinct keeps the first of equal items, and notes on stderr the values
// flag gave more than once: each config is replayed once.
func distinct[T comparable](flag string, items []T, show func(T) string, e *env) []T {
	seen := make(map[T]int, len(items))
	out := items[:0:0]
	var twice []string
	for _, v := range items {
		if seen[v]++; seen[v] == 1 {
			out = append(out, v)
		} else if seen[v] == 2 {
			twice = append(twice, show(v))
		}
	}
	if len(twice) > 0 {
		e.notef("--%s gives %s more than once: each is replayed once", flag, listSome(twice, 3))
	}
	return out
}

// listSome joins the first n items, and counts the rest.
func listSome(items []string, n int) string {
	if len(items) <= n {
		return strings.Join(items, ", ")
	}
	return fmt.Sprintf("%s and %d more", strings.Join(items[:n], ", "), len(items)-n)
}

// maxRefusalsShown is how many settings a system would refuse are named one
// by one; the configs past them are counted.
const maxRefusalsShown = 10

// refusalWarnings are the warnings about the settings of policies that sys
// would refuse (system.System.Refusals), replayed all the same: a setting a
// line, up to maxRefusalsShown, then a count of the configs past them (a grid
// of a million configs would otherwise name most of them, a line each).
func refusalWarnings(sys *system.System, policies iter.Seq[policy.Policy]) []string {
	if sys.Refusals == nil {
		return nil
	}
	shown := map[policy.Timer]bool{}
	var lines []string
	more := 0
	for p := range policies {
		r := sys.Refusals(p)
		switch {
		case len(r) == 0 || shown[p.Timer()]:
		case len(shown) == maxRefusalsShown:
			more++
		default:
			shown[p.Timer()] = true
			lines = append(lines, fmt.Sprintf("warning: %d/%d with stuck_warning_threshold %d: %s would refuse this setting (%s); replayed anyway",
				p.MaxTurnsStuck(), p.CheckInterval(), p.WarningThreshold(), sys.Name, strings.Join(r, "; ")))
		}
	}
	if more > 0 {
		lines = append(lines, fmt.Sprintf("warning: %s would refuse the settings of %d more configs of the grid (the first %d settings are named above); replayed anyway",
			sys.Name, more, maxRefusalsShown))
	}
	return lines
}

// coresDefault has --help say a default of one a core in words, not this
// machine's count, so that help reads the same wherever it runs.
func coresDefault(f *pflag.Flag) { f.DefValue = "one a core" }
