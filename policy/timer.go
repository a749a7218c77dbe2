package policy

// The stuck timer of ZorkGPT's loop break (docs/semantics.md, "5.5 Semantics
// and quirks"): the turns since the last progress, checked every
// stuck_check_interval turns against max_turns_stuck, with a countdown
// warning from stuck_warning_threshold. Most policies keep one; a Kind
// includes the timer's settings it has (TimerSettings, or its first two).

// ZorkGPT's defaults; none was ever changed (docs/semantics.md, "5.1 Timeline").
const (
	DefaultMaxTurnsStuck    = 40
	DefaultCheckInterval    = 10
	DefaultWarningThreshold = 20
)

// The timer's settings.
var (
	MaxTurnsStuck = &Setting{Key: "max_turns_stuck", Flag: "max-turns-stuck", Default: DefaultMaxTurnsStuck, Min: 1,
		Usage: "max_turns_stuck W: stop when the timer reaches it"}
	CheckInterval = &Setting{Key: "check_interval", Called: "stuck_check_interval", Flag: "check-interval", Default: DefaultCheckInterval, Min: 1,
		Usage: "stuck_check_interval: the timer is checked when turn % interval == 0"}
	WarningThreshold = &Setting{Key: "stuck_warning_threshold", Flag: "warning-threshold", Default: DefaultWarningThreshold, Min: 0,
		Usage: "stuck_warning_threshold: the countdown warning shows from this many turns stuck"}
)

// TimerSettings are the timer's settings, in the order a Policy holds them
// and Parse reads them (W/I/T).
var TimerSettings = []*Setting{MaxTurnsStuck, CheckInterval, WarningThreshold}

// timerSlots are the places of TimerSettings in a Policy's values.
const timerSlots = 3

// timed is a Kind's settings: the whole timer, then its own.
func timed(own ...*Setting) []*Setting {
	return append(TimerSettings[:len(TimerSettings):len(TimerSettings)], own...)
}

// Timer is a stuck timer's settings: what ZorkGPT's [tool.zorkgpt.loop_break]
// sets and the recording of a log is assumed to have run with.
type Timer struct {
	MaxTurnsStuck    int // W: stop when the timer reaches it
	CheckInterval    int // the timer is checked when turn % CheckInterval == 0
	WarningThreshold int // the countdown warning shows from this timer value
}

// DefaultTimer is ZorkGPT's defaults, 40/10 with warnings from 20.
func DefaultTimer() Timer {
	return Timer{MaxTurnsStuck: DefaultMaxTurnsStuck, CheckInterval: DefaultCheckInterval, WarningThreshold: DefaultWarningThreshold}
}

// Values are t's settings as values given.
func (t Timer) Values() Values {
	return Values{MaxTurnsStuck: t.MaxTurnsStuck, CheckInterval: t.CheckInterval, WarningThreshold: t.WarningThreshold}
}

// A Policy holds the timer's values first, whether its policy has them or
// not (then at their defaults): the sweep reads them for every config
// without asking the registry, and through a pointer, as a method on a
// Policy value would copy the whole Policy first.

// MaxTurnsStuck is p's max_turns_stuck W; ZorkGPT's default for a policy
// without one.
func (p *Policy) MaxTurnsStuck() int { return DefaultMaxTurnsStuck + p.values[0] }

// CheckInterval is p's stuck_check_interval; ZorkGPT's default for a policy
// without one.
func (p *Policy) CheckInterval() int { return DefaultCheckInterval + p.values[1] }

// WarningThreshold is p's stuck_warning_threshold; ZorkGPT's default for a
// policy without one.
func (p *Policy) WarningThreshold() int { return DefaultWarningThreshold + p.values[2] }

// Timer is p's timer settings.
func (p *Policy) Timer() Timer {
	return Timer{MaxTurnsStuck: p.MaxTurnsStuck(), CheckInterval: p.CheckInterval(), WarningThreshold: p.WarningThreshold()}
}

// Untimed is p with the timer's settings at their defaults: all of p a
// threshold-free policy's tracking reads (Kind.ThresholdFree).
func (p *Policy) Untimed() Policy {
	q := *p
	clear(q.values[:timerSlots])
	return q
}

// SameUntimed reports whether p.Untimed() == q.Untimed(): their own
// settings first, as the sweep compares policies of one name by the
// million.
func (p *Policy) SameUntimed(q *Policy) bool {
	return [maxOwn]int(p.values[timerSlots:]) == [maxOwn]int(q.values[timerSlots:]) && p.Name == q.Name
}

// WithTimer is p with t's settings, those its policy has.
func (p Policy) WithTimer(t Timer) Policy {
	return p.With(MaxTurnsStuck, t.MaxTurnsStuck).With(CheckInterval, t.CheckInterval).With(WarningThreshold, t.WarningThreshold)
}

// check is the stuck check of _run_game_loop (docs/semantics.md, "5.5.9 When the stuck check runs"): it runs only when
// t % interval == 0, after the tracking of the same turn, so a reset on a
// check turn prevents termination there.
func (t Timer) check(s *Step) {
	s.TurnsStuck = s.Turn - s.Anchor
	s.Checked = s.Turn%t.CheckInterval == 0
	s.Terminate = s.Checked && s.TurnsStuck >= t.MaxTurnsStuck
}
