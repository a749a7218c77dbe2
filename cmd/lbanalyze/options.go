package main

import (
	"math"

	"github.com/spf13/pflag"

	"github.com/lbanalyze/lbanalyze/report"
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
	opts, err := f.costs.options(callsPerTurn)
	if err != nil {
		return opts, err
	}
	if f.gainHorizon < 0 {
		return report.Options{}, usageError("--gain-horizon must be 0 (none) or a number of turns, not %d", f.gainHorizon)
	}
	opts.GainHorizon = f.gainHorizon
	return opts, nil
}

// costFlags price what a stop saves: the LLM calls, or where a log records
// them the tokens (report.Options.CostSaved says which applies).
type costFlags struct{ perCall, perMTok float64 }

func (f *costFlags) register(fs *pflag.FlagSet) {
	fs.Float64Var(&f.perCall, "cost-per-call", 0, "dollars one LLM call costs: adds the cost saved beside the LLM calls saved (0: none)")
	fs.Float64Var(&f.perMTok, "cost-per-mtok", 0, "dollars a million LLM tokens cost: prices the tokens saved where a log records them, before --cost-per-call (0: none)")
}

func (f *costFlags) options(callsPerTurn int) (report.Options, error) {
	for _, c := range []struct {
		flag string
		v    float64
	}{{"--cost-per-call", f.perCall}, {"--cost-per-mtok", f.perMTok}} {
		switch {
		case c.v < 0 || math.IsNaN(c.v) || math.IsInf(c.v, 0):
			return report.Options{}, usageError("%s must be a number of dollars, 0 or more, not %v", c.flag, c.v)
		case c.v > maxPrice:
			return report.Options{}, usageError("%s %v is beyond any price: at most %g dollars", c.flag, c.v, float64(maxPrice))
		}
	}
	return report.Options{CallsPerTurn: callsPerTurn, CostPerCall: f.perCall, CostPerMTok: f.perMTok}, nil
}

// maxPrice bounds a price in dollars: a million dollars a call or a million
// tokens is beyond any model's, and keeps every sum of costs finite.
const maxPrice = 1e6
