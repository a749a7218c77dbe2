package main

import (
	"github.com/spf13/pflag"

	"github.com/lbanalyze/lbanalyze/report"
)

// analysisFlags are the flags of episode and batch that price the LLM calls
// saved and bound how late a score gain still counts as evidence.
type analysisFlags struct {
	costPerCall float64
	gainHorizon int
}

func (f *analysisFlags) register(fs *pflag.FlagSet) {
	fs.Float64Var(&f.costPerCall, "cost-per-call", 0, "dollars one LLM call costs: adds the cost saved beside the LLM calls saved (0: none)")
	fs.IntVar(&f.gainHorizon, "gain-horizon", 0, "a later score gain is evidence of a premature stop only within this many turns of the stop (0: any later gain)")
}

// options checks the flags and gives the analysis options.
func (f *analysisFlags) options(callsPerTurn int) (report.Options, error) {
	if !inRange(f.costPerCall, 0, maxCostPerCall) {
		return report.Options{}, usageError("--cost-per-call must be a number of dollars from 0 to %d, not %v", maxCostPerCall, f.costPerCall)
	}
	if f.gainHorizon < 0 {
		return report.Options{}, usageError("--gain-horizon must be 0 (none) or a number of turns, not %d", f.gainHorizon)
	}
	return report.Options{CallsPerTurn: callsPerTurn, CostPerCall: f.costPerCall, GainHorizon: f.gainHorizon}, nil
}
