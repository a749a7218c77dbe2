package main

import (
	"github.com/spf13/pflag"

	"github.com/lbanalyze/lbanalyze/internal/metrics"
	"github.com/lbanalyze/lbanalyze/internal/report"
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
func (f *analysisFlags) options(callsPerTurn int) (report.Options, error) {
	costs, err := f.costs.options(callsPerTurn)
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

func (f *costFlags) options(callsPerTurn int) (metrics.Costs, error) {
	for _, c := range []struct {
		flag string
		v    float64
		max  int
	}{{"--cost-per-call", f.perCall, maxCostPerCall}, {"--cost-per-mtok", f.perMTok, maxCostPerMTok}} {
		if !inRange(c.v, 0, float64(c.max)) {
			return metrics.Costs{}, usageError("%s must be a number of dollars from 0 to %d, not %v", c.flag, c.max, c.v)
		}
	}
	return metrics.Costs{CallsPerTurn: callsPerTurn, CostPerCall: f.perCall, CostPerMTok: f.perMTok}, nil
}
