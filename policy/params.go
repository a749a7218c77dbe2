package policy

// Dimension is one whole-number parameter of the policies: a column of every
// table, a key of every JSON and CSV row, a flag of every command that takes a
// grid (a list or a range of values), in one place.
type Dimension struct {
	Key     string // JSON and CSV key, e.g. max_turns_stuck
	Flag    string // the flag that sets it, e.g. max-turns-stuck
	Usage   string
	Default int
	Min     int // the smallest value a replay can use
	Field   func(*Params) *int
	// Of says whether policy n has this parameter (JSON null otherwise); nil:
	// every policy has it.
	Of func(n Name) bool
}

// Has says whether policy n has the parameter.
func (d *Dimension) Has(n Name) bool { return d.Of == nil || d.Of(n) }

// Dimensions lists the parameters in the order tables show them.
func Dimensions() []Dimension { return dimensions }

var dimensions = []Dimension{
	{Key: "max_turns_stuck", Flag: "max-turns-stuck", Default: DefaultMaxTurnsStuck, Min: 1,
		Usage: "max_turns_stuck W: stop when the timer reaches it",
		Field: func(p *Params) *int { return &p.MaxTurnsStuck }},
	{Key: "check_interval", Flag: "check-interval", Default: DefaultCheckInterval, Min: 1,
		Usage: "stuck_check_interval: the timer is checked when turn % interval == 0",
		Field: func(p *Params) *int { return &p.CheckInterval }},
	{Key: "stuck_warning_threshold", Flag: "warning-threshold", Default: DefaultWarningThreshold, Min: 0,
		Usage: "stuck_warning_threshold: the countdown warning shows from this many turns stuck",
		Field: func(p *Params) *int { return &p.WarningThreshold }},
}
