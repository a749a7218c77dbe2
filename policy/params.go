package policy

import "slices"

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
	// Every policy has it; the others belong to the policies that list them
	// in their Kind's Settings (JSON null for the rest).
	Every bool
	// Names, for an enumeration (score_mode), spells each value from 0: the
	// flag, Parse and tables use the names, Field holds the index. nil for a
	// number.
	Names []string
}

// Has says whether policy n has the parameter.
func (d *Dimension) Has(n Name) bool {
	if d.Every {
		return true
	}
	k, ok := Lookup(n)
	return ok && slices.Contains(k.Settings, d.Key)
}

// Dimensions lists the parameters in the order tables show them.
func Dimensions() []Dimension { return dimensions }

var dimensions = []Dimension{
	{Key: "max_turns_stuck", Every: true, Flag: "max-turns-stuck", Default: DefaultMaxTurnsStuck, Min: 1,
		Usage: "max_turns_stuck W: stop when the timer reaches it",
		Field: func(p *Params) *int { return &p.MaxTurnsStuck }},
	{Key: "check_interval", Every: true, Flag: "check-interval", Default: DefaultCheckInterval, Min: 1,
		Usage: "stuck_check_interval: the timer is checked when turn % interval == 0",
		Field: func(p *Params) *int { return &p.CheckInterval }},
	{Key: "stuck_warning_threshold", Every: true, Flag: "warning-threshold", Default: DefaultWarningThreshold, Min: 0,
		Usage: "stuck_warning_threshold: the countdown warning shows from this many turns stuck",
		Field: func(p *Params) *int { return &p.WarningThreshold }},
	// The variants' settings (variants.go): only increase and patience have them.
	{Key: "objective_patience", Flag: "objective-patience", Default: 0, Min: ObjectivesOff,
		Usage: "objective_patience K (patience): turns an objective completion buys; 0: max_turns_stuck, -1: objectives are not progress",
		Field: func(p *Params) *int { return &p.ObjectivePatience }},
	{Key: "room_patience", Flag: "room-patience", Default: 0, Min: 0,
		Usage: "room_patience R (patience): turns a first visit to a room buys; 0: rooms are not progress",
		Field: func(p *Params) *int { return &p.RoomPatience }},
	{Key: "score_mode", Flag: "score-mode", Default: int(ScoreChanges), Min: 0, Names: ScoreModes,
		Usage: "score_mode (patience): changes (any score change is progress) or increase (only a new best score)",
		Field: func(p *Params) *int { return (*int)(&p.ScoreMode) }},
	{Key: "min_delta", Flag: "min-delta", Default: 1, Min: 0,
		Usage: "min_delta D (increase, patience): a score move smaller than D is not progress and does not move the tracked score",
		Field: func(p *Params) *int { return &p.MinDelta }},
	{Key: "min_turns", Flag: "min-turns", Default: 0, Min: 0,
		Usage: "min_turns M (increase, patience): warm-up, no stop before turn M",
		Field: func(p *Params) *int { return &p.MinTurns }},
}
