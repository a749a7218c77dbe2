package main

import (
	"strconv"

	"github.com/spf13/pflag"

	"github.com/lbanalyze/lbanalyze/internal/metrics"
	"github.com/lbanalyze/lbanalyze/report"
	"github.com/lbanalyze/lbanalyze/system"
)

// analysisFlags are the flags of episode and batch that price what a stop
// saves and bound how late a score gain still counts as evidence.
type analysisFlags struct {
	costs       costFlags
	gainHorizon int
}

func (f *analysisFlags) register(fs *pflag.FlagSet) {
	f.costs.register(fs)
	fs.IntVar(&f.gainHorizon, "gain-horizon", 0, "a later score gain is evidence of a premature stop only within this many turns of the stop (0: any later gain)")
}

// options checks the flags and gives the analysis options.
// The calls a turn costs are the system's that ran the logs, unless
// --calls-per-turn is given (callsFlag).
func (f *analysisFlags) options() (report.Options, error) {
	costs, err := f.costs.options()
	if err != nil {
		return report.Options{}, err
	}
	if f.gainHorizon < 0 {
		return report.Options{}, usageError("--gain-horizon must be 0 (none) or a number of turns, not %d", f.gainHorizon)
	}
	return report.Options{Costs: costs, GainHorizon: f.gainHorizon}, nil
}

// costFlags price what a stop saves: the LLM calls, or where a log records
// them the tokens (metrics.Costs.CostSaved says which applies).
type costFlags struct{ perCall, perMTok float64 }

func (f *costFlags) register(fs *pflag.FlagSet) {
	fs.Float64Var(&f.perCall, "cost-per-call", 0, "dollars one LLM call costs: adds the cost saved beside the LLM calls saved (0: none)")
	fs.Float64Var(&f.perMTok, "cost-per-mtok", 0, "dollars a million LLM tokens cost: prices the tokens saved where a log records them, before --cost-per-call (0: none)")
}

func (f *costFlags) options() (metrics.Costs, error) {
	for _, c := range []struct {
		flag string
		v    float64
		max  int
	}{{"--cost-per-call", f.perCall, maxCostPerCall}, {"--cost-per-mtok", f.perMTok, maxCostPerMTok}} {
		if !inRange(c.v, 0, float64(c.max)) {
			return metrics.Costs{}, usageError("%s must be a number of dollars from 0 to %d, not %v", c.flag, c.max, c.v)
		}
	}
	return metrics.Costs{CostPerCall: f.perCall, CostPerMTok: f.perMTok}, nil
}

// callsFlag is --calls-per-turn: the LLM calls a turn costs where a log does
// not count them; unset, those of the system that ran the logs
// (system.System.CallsPerTurn).
type callsFlag struct {
	n   int
	set bool
}

func (f *callsFlag) register(fs *pflag.FlagSet) {
	fs.Var(f, "calls-per-turn", "LLM calls one turn costs where a log does not count them (default: "+
		bySystem(func(s *system.System) string { return strconv.Itoa(s.CallsPerTurn) })+")")
}

// String is "" unset, so that no default is printed: it is the system's.
func (f *callsFlag) String() string {
	if !f.set {
		return ""
	}
	return strconv.Itoa(f.n)
}

func (f *callsFlag) Set(s string) error {
	n, err := strconv.Atoi(s)
	if err != nil {
		return err
	}
	f.n, f.set = n, true
	return nil
}

func (f *callsFlag) Type() string { return "int" }

// maxCallsPerTurn bounds --calls-per-turn: ZorkGPT makes 4 calls a turn, and
// a larger count only risks overflowing the sums.
const maxCallsPerTurn = 1000

func (f callsFlag) check() error {
	if f.set && (f.n < 0 || f.n > maxCallsPerTurn) {
		return usageError("--calls-per-turn must be between 0 and %d, not %d", maxCallsPerTurn, f.n)
	}
	return nil
}

// of is what a turn of sys's logs costs in LLM calls.
func (f callsFlag) of(sys *system.System) int {
	if f.set {
		return f.n
	}
	return sys.CallsPerTurn
}
