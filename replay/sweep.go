package replay

import (
	"math"
	"slices"
	"sync"
	"sync/atomic"

	"github.com/lbanalyze/lbanalyze/episode"
	"github.com/lbanalyze/lbanalyze/policy"
)

// The fast path of a sweep: the Outcome of many configs on one episode without
// replaying each config from scratch.
//
// For a threshold-free policy the tracker's state (reset and anchor on each
// turn) depends on neither max_turns_stuck W nor stuck_check_interval I. So one
// pass over the episode with W = ∞ gives TurnsStuck at every turn, and the stop
// under (I, W) is the first multiple of I, from the policy's warm-up, whose
// TurnsStuck ≥ W: the first such check turn where the running maximum of
// TurnsStuck over them reaches W. A pass serves the policies of the same own
// settings (policy.Policy.Untimed). The rest of the Outcome comes from
// per-turn tables (suffix maximum of the score, next turn with a higher
// score, objective turns), each read in O(1) or O(log) per (episode, config).

// ThresholdFree reports whether the fast path may replay policies called name:
// its tracking depends on neither max_turns_stuck nor stuck_check_interval, and
// it stops at the first check turn from its warm-up whose TurnsStuck reaches
// max_turns_stuck (policy.Kind.ThresholdFree).
// Sweeper.Outcomes replays any other policy with Run.
func ThresholdFree(name policy.Name) bool {
	k, ok := policy.Lookup(name)
	return ok && k.ThresholdFree
}

// Sweeper holds the per-episode tables of the fast path for one episode. It
// builds the per-policy tables lazily, so it is not safe for concurrent use,
// except once every table a set of policies needs is built (prepared): then
// Outcomes of those policies only read it, and Sweep's workers share it.
type Sweeper struct {
	ep       *episode.Episode
	n        int
	score    []episode.Score // score[t]: the credited score after turn t, t = 1..n (episode.Episode.Credited)
	sufMax   []episode.Score // sufMax[t] = max score over turns t..n, for t = 1..n
	gain     []Gain          // gain[t]: the first turn after t whose score is above score[t]; Turn 0 none
	objTurns []int           // the turns of ep.Objectives, nil unless sorted by turn
	cut      bool            // the Outcome's Cut (LogCut), and Censored when the policy does not stop
	// tokens[t] and calls[t]: what turns t..n spent, nil unless logged.
	tokens, calls []int64
	// dollars[t]: the recorded dollars of turns t..n, nil unless logged.
	dollars []float64
	tables  []*tracked
}

// tracked is one policy's pass over the episode with W = ∞, of every timer.
type tracked struct {
	policy policy.Policy // its timer at the defaults
	stuck  []int32       // stuck[t]: TurnsStuck after the tracking of turn t; turns fit an int32, 4 bytes a turn of a long log
	warn   []warnStart   // the first warned turn, by stuck_warning_threshold
	checks []*checkTable // by check interval, built on first use; as long as the largest used
}

type warnStart struct{ threshold, turn int }

// checkTable lists, for one check interval, the check turns where the running
// maximum of TurnsStuck over the check turns rises, with that maximum: the
// stop under W is the first entry whose stuck is ≥ W.
type checkTable struct{ turn, stuck []int }

// NewSweeper builds the per-turn tables of ep.
func NewSweeper(ep *episode.Episode) *Sweeper {
	n := ep.N()
	s := &Sweeper{ep: ep, n: n, score: make([]episode.Score, n+1), sufMax: make([]episode.Score, n+2), gain: make([]Gain, n+1)}
	for t := 1; t <= n; t++ {
		s.score[t] = ep.Scoring.Credit(s.score[t-1], ep.Score(t))
	}
	s.sufMax[n+1] = episode.Score(math.Inf(-1))
	for t := n; t >= 1; t-- {
		s.sufMax[t] = max(s.score[t], s.sufMax[t+1])
	}
	// The next turn with a strictly higher score, by a monotonic stack.
	stack := make([]int, 0, 16)
	for t := n; t >= 1; t-- {
		for len(stack) > 0 && s.score[stack[len(stack)-1]] <= s.score[t] {
			stack = stack[:len(stack)-1]
		}
		if len(stack) > 0 {
			u := stack[len(stack)-1]
			s.gain[t] = Gain{Turn: u, Points: s.score[u] - s.score[t]}
		}
		stack = append(stack, t)
	}
	if slices.IsSortedFunc(ep.Objectives, func(a, b episode.Completion) int { return a.Turn - b.Turn }) {
		s.objTurns = make([]int, len(ep.Objectives))
		for i, c := range ep.Objectives {
			s.objTurns[i] = c.Turn
		}
	}
	s.cut = LogCut(ep)
	if ep.Signals.Has(episode.Costs) {
		s.dollars = make([]float64, n+2)
		for t := n; t >= 1; t-- {
			s.dollars[t] = s.dollars[t+1] + ep.Turns[t-1].Cost
		}
	}
	if ep.Signals&costs != 0 {
		s.tokens, s.calls = make([]int64, n+2), make([]int64, n+2)
		for t := n; t >= 1; t-- {
			s.tokens[t] = s.tokens[t+1] + ep.Turns[t-1].Tokens
			s.calls[t] = s.calls[t+1] + int64(ep.Turns[t-1].Calls)
		}
	}
	return s
}

// pass is the one place the fast path runs the tracker: it traces untimed
// over the whole episode (W = ∞, so it never stops) with warnings from
// threshold, sets stuck[t] to TurnsStuck after turn t unless stuck is nil,
// and returns the first warned turn (0 none).
func (s *Sweeper) pass(untimed policy.Policy, threshold int, stuck []int32) (warned int) {
	p := untimed.WithTimer(policy.Timer{MaxTurnsStuck: math.MaxInt, CheckInterval: 1, WarningThreshold: threshold})
	Trace(s.ep, p, func(st policy.Step) {
		if stuck != nil {
			stuck[st.Turn] = int32(st.TurnsStuck)
		}
		if st.Warned && warned == 0 {
			warned = st.Turn
		}
	})
	return warned
}

// tracked is the pass of p, whatever its timer.
func (s *Sweeper) tracked(p *policy.Policy) *tracked {
	for _, tr := range s.tables {
		if tr.policy.SameUntimed(p) {
			return tr
		}
	}
	tr := &tracked{policy: p.Untimed()}
	s.tables = append(s.tables, tr)
	return tr
}

// warnStart is the first turn the countdown warning shows under threshold,
// 0 if never, over the whole episode.
func (tr *tracked) warnStart(s *Sweeper, threshold int) int {
	for _, w := range tr.warn {
		if w.threshold == threshold {
			return w.turn
		}
	}
	var stuck []int32
	if tr.stuck == nil {
		stuck = make([]int32, s.n+1)
		tr.stuck = stuck
	}
	turn := s.pass(tr.policy, threshold, stuck)
	tr.warn = append(tr.warn, warnStart{threshold, turn})
	return turn
}

var noChecks = &checkTable{}

// checkTable is the table of interval (≥ 1); tr.stuck must be set.
func (tr *tracked) checkTable(interval int) *checkTable {
	if interval >= len(tr.stuck) {
		return noChecks // no check turn within the log (stuck holds turns 0 to the last)
	}
	if interval >= len(tr.checks) {
		tr.checks = append(tr.checks, make([]*checkTable, interval+1-len(tr.checks))...)
	}
	if c := tr.checks[interval]; c != nil {
		return c
	}
	first := interval
	if warmUp := tr.policy.WarmUp(); warmUp > interval { // no stop before it
		if warmUp >= len(tr.stuck) {
			return noChecks
		}
		first = (warmUp + interval - 1) / interval * interval // the first check turn from it
	}
	c := &checkTable{}
	top := math.MinInt
	for t := first; t < len(tr.stuck); t += interval {
		if int(tr.stuck[t]) > top {
			top = int(tr.stuck[t])
			c.turn = append(c.turn, t)
			c.stuck = append(c.stuck, top)
		}
	}
	tr.checks[interval] = c
	return c
}

// stop is the index of the entry where the policy with max_turns_stuck w
// stops, len(c.turn) if it does not. from is a hint, the answer for a smaller
// w: a sweep in increasing w walks the entries once.
func (c *checkTable) stop(w, from int) int {
	if from > len(c.stuck) || from > 0 && c.stuck[from-1] >= w {
		from = 0 // not a smaller w: search from the start
	}
	lo, hi := from, len(c.stuck)
	for lo < hi && c.stuck[lo] < w { // most often the first entry or the next
		if lo-from == 4 {
			// Far from the hint: bisect the rest.
			for lo < hi {
				m := int(uint(lo+hi) >> 1)
				if c.stuck[m] < w {
					lo = m + 1
				} else {
					hi = m
				}
			}
			break
		}
		lo++
	}
	return lo
}

// firstAbove is the first index i with turns[i] > x (turns sorted).
func firstAbove(turns []int, x int) int {
	lo, hi := 0, len(turns)
	for lo < hi {
		m := int(uint(lo+hi) >> 1)
		if turns[m] <= x {
			lo = m + 1
		} else {
			hi = m
		}
	}
	return lo
}

// window is Run's WindowObjectives: the completions c with t − w < c ≤ t, in
// log order. When ep.Objectives is sorted by turn it is a subslice of it
// (capped, so an append copies); otherwise it is built as Run builds it.
func (s *Sweeper) window(t, w int) []episode.Completion {
	objs := s.ep.Objectives
	if s.objTurns == nil {
		var in []episode.Completion
		for _, c := range objs {
			if c.Turn > t-w && c.Turn <= t {
				in = append(in, c)
			}
		}
		return in
	}
	lo, hi := firstAbove(s.objTurns, t-w), firstAbove(s.objTurns, t)
	if lo >= hi {
		return nil
	}
	return objs[lo:hi:hi]
}

// Outcomes sets out[i] = Run(ep, policies[i]) for every i; out must be at
// least as long as policies. Policies that are not ThresholdFree, or that have
// a check interval below 1, are replayed with Run. An outcome's LaterGain
// points into the Sweeper's tables, shared between outcomes: read it, do not
// change it. Its WindowObjectives may share ep.Objectives' array.
//
// The cost per threshold-free policy is O(log) once the tables of its name
// and own settings, stuck_warning_threshold and check interval are built
// (O(N) each, the first time they are met); it is O(1) amortised for
// consecutive policies that share all three, in increasing max_turns_stuck.
func (s *Sweeper) Outcomes(policies []policy.Policy, out []Outcome) {
	s.outcomes(policies, groupsOf(policies), out)
}

// group is a run of consecutive policies the fast path serves from the same
// tables (the same policy but for max_turns_stuck: policy.Policy.Untimed,
// the check interval and warning threshold), or that Run replays.
type group struct {
	end  int // one past its last policy
	fast bool
}

// groupsOf cuts policies into groups, once for every episode they replay on.
func groupsOf(policies []policy.Policy) []group {
	var gs []group
	for i := range policies {
		p := &policies[i]
		if i == 0 || !sameTables(p, &policies[i-1]) {
			gs = append(gs, group{fast: onFastPath(p)})
		}
		gs[len(gs)-1].end = i + 1
	}
	return gs
}

// onFastPath reports whether the fast path serves p: a ThresholdFree policy
// with a check interval of at least 1.
func onFastPath(p *policy.Policy) bool { return ThresholdFree(p.Name) && p.CheckInterval() >= 1 }

// sameTables reports whether p and q are the same policy but for
// max_turns_stuck: the fast path serves both from the same tables.
func sameTables(p, q *policy.Policy) bool {
	return p.CheckInterval() == q.CheckInterval() && p.WarningThreshold() == q.WarningThreshold() && p.SameUntimed(q)
}

// outcomes is Outcomes of policies cut into groups gs (groupsOf).
func (s *Sweeper) outcomes(policies []policy.Policy, gs []group, out []Outcome) {
	from := 0
	for _, g := range gs {
		ps, os := policies[from:g.end], out[from:g.end]
		from = g.end
		if !g.fast {
			for i := range ps {
				os[i] = Run(s.ep, ps[i])
			}
			continue
		}
		tr := s.tracked(&ps[0])
		warn := tr.warnStart(s, ps[0].WarningThreshold())
		chk, at := tr.checkTable(ps[0].CheckInterval()), 0 // at: chk's entry for the previous policy
		for i := range ps {
			p := &ps[i]
			at = chk.stop(p.MaxTurnsStuck(), at)
			// The whole outcome is written, as Run writes it: out may hold
			// another policy's.
			o := &os[i]
			*o = Outcome{}
			o.Policy, o.Logged, o.Cut, o.Judged = *p, s.ep.Signals&costs, s.cut, s.ep.Judged
			if at == len(chk.turn) { // never stops within the log
				o.Length, o.Censored, o.WarningStartTurn = s.n, s.cut, warn
				continue
			}
			t := chk.turn[at]
			o.TerminationTurn, o.TurnsStuck, o.ScoreAtTermination, o.TurnsSaved = t, chk.stuck[at], s.score[t], s.n-t
			o.Length, o.WindowObjectives = t, s.window(t, p.Window())
			if t < s.n {
				o.ScoreForgone = max(0, s.sufMax[t+1]-s.score[t])
			}
			if s.tokens != nil {
				o.TokensSaved, o.CallsSaved = s.tokens[t+1], s.calls[t+1]
			}
			if s.dollars != nil {
				o.DollarsSaved = s.dollars[t+1]
			}
			if o.Logged.Has(episode.Times) {
				o.SecondsSaved = secondsAfter(s.ep, t)
			}
			if s.gain[t].Turn > 0 {
				o.LaterGain = &s.gain[t]
			}
			if warn <= t {
				o.WarningStartTurn = warn
			}
		}
	}
}

// SweepChunk is the most outcomes Sweep hands to visit at a time: few enough
// (about 140 KB) to stay in a core's cache while visit reads them.
const SweepChunk = 1024

// sweepSplits is how many chunks a grid of fewer than 16 SweepChunks is cut
// into: enough for as many workers. Chunks depend on the grid alone, never on
// the workers, so that what visit sums along a chunk is the same floats
// whatever the cores.
const sweepSplits = 16

// Sweep fills the outcomes of every policy on every episode with the fast
// path, on workers goroutines (at least 1), and hands them to visit by chunks
// of policies: visit(w, i, from, out) gets out[k] = Run(eps[i],
// policies[from+k]), computed by worker w. The policies are cut into chunks of
// at most SweepChunk (sweepSplits), worker w takes the chunks w, w+workers, w+2·workers …
// and visits each with the episodes in order. So all the outcomes of one
// policy come from one worker, in episode order: what visit accumulates per
// policy needs no lock, no merge, and does not depend on timing. out is the
// worker's buffer, reused for its next call: valid during the call only.
//
// Each episode's Sweeper is built once, with every table the policies need,
// and shared by the workers, which only read it: a Sweeper a worker for
// every episode cost a few kilobytes an episode for each worker
// (docs/PERFORMANCE.md, "Memory").
func Sweep(eps []*episode.Episode, policies []policy.Policy, workers int, visit func(w, i, from int, out []Outcome)) {
	workers = max(1, workers)
	sw := prepared(eps, policies, workers)
	chunk := min(SweepChunk, max(1, (len(policies)+sweepSplits-1)/sweepSplits))
	var wg sync.WaitGroup
	for w := range workers {
		wg.Go(func() {
			buf := make([]Outcome, chunk)
			for from := w * chunk; from < len(policies); from += workers * chunk {
				ps := policies[from:min(from+chunk, len(policies))]
				out, gs := buf[:len(ps)], groupsOf(ps)
				for i := range eps {
					sw[i].outcomes(ps, gs, out)
					visit(w, i, from, out)
				}
			}
		})
	}
	wg.Wait()
}

// prepared are the Sweepers of eps, built on workers goroutines, each with
// every table policies need: the tables of each policy the fast path serves,
// its timer aside, under each of its warning thresholds and check intervals.
// Outcomes of those policies then only read them.
func prepared(eps []*episode.Episode, policies []policy.Policy, workers int) []*Sweeper {
	type table struct {
		policy         policy.Policy // its timer at the defaults
		warn, interval int
	}
	var tables []table
	seen := map[table]bool{}
	for _, p := range policies {
		if !onFastPath(&p) {
			continue
		}
		u := p.Untimed()
		for _, t := range []table{{u, p.WarningThreshold(), 0}, {u, -1, p.CheckInterval()}} {
			if !seen[t] {
				seen[t] = true
				tables = append(tables, t)
			}
		}
	}
	sw := make([]*Sweeper, len(eps))
	var next atomic.Int64
	var wg sync.WaitGroup
	for range workers {
		wg.Go(func() {
			for i := int(next.Add(1) - 1); i < len(eps); i = int(next.Add(1) - 1) {
				s := NewSweeper(eps[i])
				for _, t := range tables { // the warnings first: their passes fill stuck
					if t.interval == 0 {
						s.tracked(&t.policy).warnStart(s, t.warn)
					}
				}
				for _, t := range tables {
					if t.interval > 0 {
						s.tracked(&t.policy).checkTable(t.interval)
					}
				}
				sw[i] = s
			}
		})
	}
	wg.Wait()
	return sw
}
