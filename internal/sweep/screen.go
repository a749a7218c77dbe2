package sweep

import (
	"sync"

	"github.com/lbanalyze/lbanalyze/internal/metrics"
	"github.com/lbanalyze/lbanalyze/internal/stats"
	"github.com/lbanalyze/lbanalyze/policy"
)

// screen tells whether a config's tally against now, over n episodes, shows
// it non-inferior to now on false terminations and not significantly worse:
// the upper bound of Tango's interval of the change of the high bound, from
// its discordant episodes (Tally.Worse, Tally.Better), within the margin,
// and, where now is a stop rule, its lower bound at most 0, as a ship needs. The rule prefers such
// configs (docs/commands.md, "sweep: which setting to ship"), on every
// resample and fold, so it asks this millions of times: for each n it
// keeps, for every count of worse episodes b, the fewest better ones that
// pass, a table built once by walking up b (the bound rises with b and
// falls with c).
type screen struct {
	margin float64
	veto   bool // a significant rise fails (Result.vetoWorse)
	mu     sync.Mutex
	tables map[int][]int32 // n → fewest better for b = 0, 1, …; shorter when no c passes beyond
}

func newScreen(margin float64, veto bool) *screen {
	return &screen{margin: margin, veto: veto, tables: map[int][]int32{}}
}

// passes says whether b worse and c better of n episodes show
// non-inferiority within the margin, and no significant harm. Both bounds
// fall as c rises, so the c that pass are those from a least one up.
func (s *screen) passes(b, c, n int) bool {
	_, lo, hi := stats.TangoPaired(b, c, n)
	return hi <= s.margin+1e-12 && (!s.veto || lo <= 0)
}

// table is n's, built on first use.
func (s *screen) table(n int) []int32 {
	s.mu.Lock()
	defer s.mu.Unlock()
	if t, ok := s.tables[n]; ok {
		return t
	}
	var t []int32
	c := 0
	for b := 0; b <= n; b++ {
		for c <= n-b && !s.passes(b, c, n) {
			c++
		}
		if c > n-b {
			break
		}
		t = append(t, int32(c))
	}
	s.tables[n] = t
	return t
}

// setCurrent makes c the setting the configs are compared with, and the
// screen of their changes from it.
func (r *Result) setCurrent(c *Config) {
	r.Current = c
	r.shown = newScreen(r.FTMargin, r.vetoWorse())
	r.safer = newScreen(-saferBy, false)
}

// saferBy is how far below 0 the upper bound of a change's interval must be
// for the change to be shown safer than now: significantly fewer unjudged
// outcomes, beyond the bisection's rounding.
const saferBy = 1e-9

// shownWithin says whether tally x shows its config non-inferior to now,
// by t, the table of the episodes it is over.
func shownWithin(x *Tally, t []int32) bool {
	return x.Worse < len(t) && int32(x.Better) >= t[x.Worse]
}

// vetoWorse says whether a change significantly worse than now on false
// terminations is kept from shipping (VetoesWorse).
func (r *Result) vetoWorse() bool { return VetoesWorse(r.Current.Policy) }

// VetoesWorse says whether a change from now significantly worse on false
// terminations fails: always, unless now is no stop rule. Now then stops no
// episode, so every stop rule has more false terminations than it,
// significantly so on enough episodes; what bounds them is the margin
// (docs/commands.md, "sweep: which setting to ship").
func VetoesWorse(now policy.Policy) bool { return now.Name != policy.None }

// Standing is where a change's false-termination rate (its high bound)
// stands against now's, as the answer judges a change that saves more and
// `check --from --to` judges a change of rule (docs/commands.md, "sweep:
// which setting to ship").
type Standing int

const (
	// ShownWithin: the upper bound of the change's 95% interval within the
	// margin, and, where now is a stop rule (VetoesWorse), its lower bound
	// at most 0.
	ShownWithin Standing = iota
	// SignificantlyWorse: the lower bound above 0, where now is a stop rule.
	SignificantlyWorse
	// BeyondMargin: the lower bound above the margin: no count of episodes
	// would show the change within it.
	BeyondMargin
	// NotShown: the upper bound above the margin, or no interval.
	NotShown
)

// Stand judges ft, the change from now of the false-termination rate in
// percentage points with its interval (metrics.Compare's
// false_termination_rate), against margin (a share).
func Stand(ft *metrics.Metric, now policy.Policy, margin float64) Standing {
	m := 100 * margin
	switch {
	case ft.CI == nil:
		return NotShown
	case VetoesWorse(now) && ft.CI[0] > 0:
		return SignificantlyWorse
	case ft.CI[0] > m+1e-9:
		return BeyondMargin
	case ft.CI[1] > m+1e-9:
		return NotShown
	}
	return ShownWithin
}
