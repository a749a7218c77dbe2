package policy

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/lbanalyze/lbanalyze/episode"
)

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
	// Held: Field holds 0 for Default (and v−1 for any other v ≤ 0), so
	// that a Params built field by field has the setting at its default, as
	// the supervisor's settings need; Get and Set translate.
	Held bool
	// Off: 0 turns the setting off (a trigger of the supervisor).
	Off bool
	// Scale is how many parts of the unit one step of the setting is: 100
	// for min_critic, kept in hundredths and written as a decimal (0.5). 0
	// for a whole number.
	Scale int
	// Reads is the signal the setting reads where a log records it (0:
	// none): on a log that lacks it the setting is off, never read as zero
	// (the supervisor's triggers; Policy.Off).
	Reads episode.Signal
}

// Has says whether policy n has the parameter.
func (d *Dimension) Has(n Name) bool {
	k, ok := Lookup(n)
	if d.Every {
		return !ok || !slices.Contains(k.Lacks, d.Key)
	}
	return ok && slices.Contains(k.Settings, d.Key)
}

// Get is the setting's value in p, as users give it (in steps of 1/Scale).
func (d *Dimension) Get(p *Params) int {
	v := *d.Field(p)
	switch {
	case !d.Held:
		return v
	case v == 0:
		return d.Default
	case v < 0:
		return v + 1
	}
	return v
}

// Applied is the value that applies in p, as output shows it: Get, but a
// variant setting's zero stands for its default (min_delta 0 is 1: a score
// move is at least a point).
func (d *Dimension) Applied(p *Params) int {
	if v := d.Get(p); v != 0 || d.Every || d.Held {
		return v
	}
	return d.Default
}

// Set gives the setting the value v, as users give it.
func (d *Dimension) Set(p *Params, v int) {
	switch {
	case !d.Held:
	case v == d.Default:
		v = 0
	case v <= 0:
		v--
	}
	*d.Field(p) = v
}

// Parse reads a value as users write it: a name of an enumeration, a whole
// number, or a decimal with at most the places Scale allows ("0.45").
func (d *Dimension) Parse(s string) (int, error) {
	s = strings.TrimSpace(s)
	if i := slices.Index(d.Names, s); i >= 0 {
		return i, nil
	}
	if d.Scale > 1 {
		if v, ok := decimal(s, d.Scale); ok {
			return v, nil
		}
		return 0, fmt.Errorf("%s: %q is not a number with at most %d decimal places", d.Key, s, len(strconv.Itoa(d.Scale))-1)
	}
	v, err := strconv.Atoi(s)
	if err != nil {
		if d.Names != nil {
			return 0, fmt.Errorf("%s: %q is not one of %s", d.Key, s, strings.Join(d.Names, ", "))
		}
		return 0, fmt.Errorf("%s: %q is not a whole number", d.Key, s)
	}
	return v, nil
}

// decimal reads s, [-]DIGITS[.DIGITS], in steps of 1/scale (a power of
// ten): exactly, or not at all when s has more places than scale allows.
func decimal(s string, scale int) (int, bool) {
	whole, frac, _ := strings.Cut(s, ".")
	places := len(strconv.Itoa(scale)) - 1
	if len(frac) > places || whole == "" && frac == "" || strings.ContainsAny(frac, "+-") {
		return 0, false
	}
	neg := strings.HasPrefix(whole, "-")
	w, err := strconv.Atoi(strings.TrimPrefix(whole, "-"))
	if err != nil && strings.TrimPrefix(whole, "-") != "" || w > 1<<40 {
		return 0, false
	}
	f := 0
	if frac != "" {
		if f, err = strconv.Atoi(frac + strings.Repeat("0", places-len(frac))); err != nil {
			return 0, false
		}
	}
	v := w*scale + f
	if neg {
		v = -v
	}
	return v, true
}

// Format writes a value as users give it: a name, a whole number, or a
// decimal without trailing zeros (50 hundredths: "0.5").
func (d *Dimension) Format(v int) string {
	if v >= 0 && v < len(d.Names) {
		return d.Names[v]
	}
	if d.Scale > 1 {
		return strconv.FormatFloat(float64(v)/float64(d.Scale), 'f', -1, 64)
	}
	return strconv.Itoa(v)
}

// Value is v as JSON and CSV give it: a name, a number (a decimal for a
// scaled setting), in users' units.
func (d *Dimension) Value(v int) any {
	switch {
	case d.Names != nil && v >= 0 && v < len(d.Names):
		return d.Names[v]
	case d.Scale > 1:
		f, _ := strconv.ParseFloat(d.Format(v), 64)
		return f
	}
	return v
}

// Off are the settings of p that are on but read a signal a log recording
// only have lacks, so that they are off on it, and the signals they lack.
func (p Policy) Off(have episode.Signals) (keys []string, lacking []episode.Signal) {
	var lack episode.Signals
	for i := range dimensions {
		d := &dimensions[i]
		if d.Reads == 0 || !d.Has(p.Name) || have.Has(d.Reads) || d.Off && d.Get(&p.Params) == 0 {
			continue
		}
		keys = append(keys, d.Key)
		lack = lack.With(d.Reads)
	}
	return keys, lack.List()
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
	// The supervisor's checkpoint rules (supervisor.go): each trigger on at
	// the threshold ZorkGPT2's supervisor uses, 0 turning it off.
	{Key: "checkpoint", Flag: "checkpoint", Default: DefaultCheckpoint, Min: 1, Held: true,
		Usage: "checkpoint C (supervisor): the turns between reviews; it reviews the last C turns at turns C, 2C, …",
		Field: func(p *Params) *int { return &p.Checkpoint }},
	{Key: "flat_checkpoints", Flag: "flat-checkpoints", Default: 2, Min: 0, Held: true, Off: true,
		Usage: "flat_checkpoints K (supervisor): stop when the score did not change over the last K checkpoints; 0: off",
		Field: func(p *Params) *int { return &p.FlatCheckpoints }},
	{Key: "min_critic", Flag: "min-critic", Default: 50, Min: 0, Held: true, Off: true, Scale: 100, Reads: episode.Critic,
		Usage: "min_critic (supervisor): stop when the mean critic score of the last C turns is below it, e.g. 0.5; 0: off",
		Field: func(p *Params) *int { return &p.MinCritic }},
	{Key: "max_rejected_turns", Flag: "max-rejected-turns", Default: 7, Min: 0, Held: true, Off: true, Reads: episode.Rejections,
		Usage: "max_rejected_turns (supervisor): stop when more of the last C turns than this had a rejected proposal; 0: off",
		Field: func(p *Params) *int { return &p.MaxRejectedTurns }},
	{Key: "spiral_rejections", Flag: "spiral-rejections", Default: 3, Min: 0, Held: true, Off: true, Reads: episode.Rejections,
		Usage: "spiral_rejections (supervisor): stop when one of the last C turns had this many rejected proposals; 0: off",
		Field: func(p *Params) *int { return &p.SpiralRejections }},
	{Key: "room_streak", Flag: "room-streak", Default: 10, Min: 0, Held: true, Off: true, Reads: episode.Rooms,
		Usage: "room_streak (supervisor): stop when this many consecutive turns of the last C ended in the same room; 0: off",
		Field: func(p *Params) *int { return &p.RoomStreak }},
}
