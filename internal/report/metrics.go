package report

import (
	"math"
	"math/rand/v2"
	"runtime"
	"slices"
	"sync"

	"github.com/lbanalyze/lbanalyze/episode"
	"github.com/lbanalyze/lbanalyze/internal/stats"
	"github.com/lbanalyze/lbanalyze/replay"
	"github.com/lbanalyze/lbanalyze/system"
)

// Bootstrap settings: fixed, so that the same episodes give the same intervals.
const (
	Resamples     = 10_000
	BootstrapSeed = 1
	// MinN is the smallest number of episodes an interval is given for (with
	// fewer, percentiles of a resampled statistic say little).
	MinN = 5
)

// Metric is one line of the baseline/after table (docs/semantics.md, "6.3 Dataset metrics").
type Metric struct {
	Name  string // JSON name, e.g. false_termination_rate
	Label string // words for tables
	Unit  unit
	// Baseline and After are the values over all n episodes; BaselineOK and
	// AfterOK are false when the metric is undefined (a mean over no episodes).
	Baseline, After     float64
	BaselineOK, AfterOK bool
	Change              float64  // After − Baseline
	ChangePct           *float64 // Change / Baseline in %, nil when Baseline is 0 or undefined
	// CI is the 95% interval of Change from the paired bootstrap, CIPct that of
	// ChangePct; nil when n < MinN or too few resamples were defined.
	CI, CIPct *[2]float64
	Expected  Expectation
	Verdict   string
	// Headline: one of the few figures a sweep states beside its answer;
	// Better says which way such a figure improves: +1 up, -1 down.
	Headline bool
	Better   int
	lengths  bool // metricDef.lengths
}

type unit int

const (
	count   unit = iota // episodes, turns, points: whole numbers
	mean                // a mean, 1 decimal
	percent             // a share in %, 1 decimal
	dollars             // money, 2 decimals
)

// Expectation is the specification's expected change (its section 8).
type Expectation struct {
	Text   string  // as shown: "-30% to -50%", "no change", ""
	Lo, Hi float64 // the range of the relative change in %, for a range
	Kind   int     // expectNone, expectRange, expectSame
}

const (
	expectNone = iota
	expectRange
	expectSame
)

// sides holds per-episode values under the baseline (0) and the after (1) policy.
type sides [2][]float64

// metricDef says how a metric is computed over a set of episodes, each with
// the outcome of one policy: scale·Σnum/Σden, scale·Σnum/n (perEpisode) or
// scale·Σnum. A metric is defined once, over (episode, outcome), whichever
// policies a command compares.
type metricDef struct {
	name, label string
	unit        unit
	num, den    func(ep *episode.Episode, o *replay.Outcome) float64
	perEpisode  bool    // divide by n
	scale       float64 // multiplies the value (100 for %, calls per turn)
	expect      Expectation
	// better, for a headline figure (one a sweep states beside its answer,
	// and compares to tell two configs apart): +1 when more is better, -1
	// when less is; 0 for the rest.
	better int
	// lengths: the metric rests on the episodes' lengths, which a censored
	// outcome makes lower bounds (markCensored).
	lengths bool
	// objectives: it counts objectives, and is left out for a system whose
	// logs record none (system.Shows.Objectives).
	objectives bool
}

// value is the metric from its summed numerator and denominator; false when
// it is undefined (a mean over no episodes).
func (d *metricDef) value(num, den float64) (float64, bool) {
	if d.den != nil || d.perEpisode {
		if den == 0 {
			return 0, false
		}
		return d.scale * num / den, true
	}
	return d.scale * num, true
}

// systemOf is the system that ran the analysed episodes (system.OfAll).
func systemOf(eps []Episode) *system.System {
	ps := make([]*episode.Episode, len(eps))
	for i := range eps {
		ps[i] = eps[i].Ep
	}
	return system.OfAll(ps)
}

func b2f(b bool) float64 {
	if b {
		return 1
	}
	return 0
}

// metricDefs are the metrics of docs/semantics.md, "6.3 Dataset metrics" with their definitions, and what a
// dataset adds to them: the cost saved, when priced, and the tokens saved,
// when some log records tokens; those that apply to the system that ran the
// episodes (shows). The specification's expected changes are those of
// ZorkGPT's loop break v2 (system.Shows.Expected): the logs of other systems
// are judged without them.
func metricDefs(opts Options, tokens bool, shows system.Shows) []metricDef {
	defs := shippedDefs(opts.CallsPerTurn)
	if !shows.Objectives {
		defs = slices.DeleteFunc(defs, func(d metricDef) bool { return d.objectives })
	}
	if !shows.Expected {
		for i := range defs {
			defs[i].expect = Expectation{}
		}
	}
	at := slices.IndexFunc(defs, func(d metricDef) bool { return d.name == "llm_calls_saved" }) + 1
	if tokens {
		defs = slices.Insert(defs, at, metricDef{name: "tokens_saved", lengths: true, label: "tokens saved", unit: count, scale: 1, better: +1,
			num: func(ep *episode.Episode, o *replay.Outcome) float64 { return float64(o.TokensSaved) }}) // 0 unless logged
	}
	if opts.Priced() {
		defs = slices.Insert(defs, at, metricDef{name: "cost_saved", lengths: true, label: "cost saved", unit: dollars, scale: 1,
			num: func(ep *episode.Episode, o *replay.Outcome) float64 { c, _ := opts.CostSaved(o); return c }}) // 0 unless priced
	}
	return defs
}

// shippedDefs are the metrics of docs/semantics.md, "6.3 Dataset metrics".
func shippedDefs(callsPerTurn int) []metricDef {
	return []metricDef{
		{name: "episodes_terminated", label: "episodes terminated", unit: count, scale: 1,
			num: func(ep *episode.Episode, o *replay.Outcome) float64 { return b2f(o.Terminated()) }},
		{name: "false_termination_candidates", label: "false-termination candidates", unit: count, scale: 1,
			num: func(ep *episode.Episode, o *replay.Outcome) float64 { return b2f(o.FalseTerminationCandidate()) }},
		{name: "false_termination_rate", label: "false-termination rate", unit: percent, perEpisode: true, scale: 100, better: -1,
			num:    func(ep *episode.Episode, o *replay.Outcome) float64 { return b2f(o.FalseTerminationCandidate()) },
			expect: Expectation{Text: "-30% to -50%", Lo: -50, Hi: -30, Kind: expectRange}},
		{name: "avg_turns_per_episode", lengths: true, label: "average turns per episode", unit: mean, perEpisode: true, scale: 1,
			num:    func(ep *episode.Episode, o *replay.Outcome) float64 { return float64(o.Length) },
			expect: Expectation{Text: "+10% to +20%", Lo: 10, Hi: 20, Kind: expectRange}},
		{name: "avg_turns_stuck_at_termination", label: "average turns stuck at termination", unit: mean, scale: 1,
			num: func(ep *episode.Episode, o *replay.Outcome) float64 {
				if o.Terminated() {
					return float64(o.TurnsStuck)
				}
				return 0
			},
			den: func(ep *episode.Episode, o *replay.Outcome) float64 { return b2f(o.Terminated()) }},
		{name: "objective_completions_in_terminated", label: "objective completions in terminated episodes", unit: count, scale: 1, objectives: true,
			num: func(ep *episode.Episode, o *replay.Outcome) float64 {
				return b2f(o.Terminated()) * float64(len(ep.Objectives))
			}},
		{name: "episodes_with_objective_completions", label: "episodes with objective completions", unit: count, scale: 1, objectives: true,
			num: func(ep *episode.Episode, o *replay.Outcome) float64 {
				length := o.Length
				return b2f(slices.ContainsFunc(ep.Objectives, func(c episode.Completion) bool { return c.Turn <= length }))
			},
			expect: Expectation{Text: "no change", Kind: expectSame}},
		{name: "truly_stuck_terminations", label: "truly stuck terminations", unit: count, scale: 1,
			num:    func(ep *episode.Episode, o *replay.Outcome) float64 { return b2f(o.TrulyStuck()) },
			expect: Expectation{Text: "no change", Kind: expectSame}},
		{name: "turns_saved", lengths: true, label: "turns saved", unit: count, scale: 1, better: +1,
			num: func(ep *episode.Episode, o *replay.Outcome) float64 { return float64(o.TurnsSaved) }},
		{name: "turns_saved_pct", lengths: true, label: "turns saved, share of logged turns", unit: percent, scale: 100,
			num: func(ep *episode.Episode, o *replay.Outcome) float64 { return float64(o.TurnsSaved) },
			den: func(ep *episode.Episode, o *replay.Outcome) float64 { return float64(ep.N()) }},
		{name: "llm_calls_saved", lengths: true, label: "LLM calls saved", unit: count, scale: 1, // counted from the log where it records them
			num: func(ep *episode.Episode, o *replay.Outcome) float64 { return float64(o.LLMCallsSaved(callsPerTurn)) }},
		{name: "score_forgone", label: "score forgone", unit: count, scale: 1, better: -1,
			num: func(ep *episode.Episode, o *replay.Outcome) float64 { return float64(o.ScoreForgone) }},
		{name: "censored", label: "censored outcomes", unit: count, scale: 1, better: -1,
			num: func(ep *episode.Episode, o *replay.Outcome) float64 { return b2f(o.Censored) }},
	}
}

// Metrics computes every metric over the episodes, comparing the policy of
// column base (Outcomes[base]) with that of column after, with paired
// bootstrap intervals (the same resampled episodes for both policies): the
// cost saved as well when opts prices it, and the tokens saved when some
// episode's log records tokens.
func Metrics(eps []Episode, base, after int, opts Options) []Metric {
	cols := [2]int{base, after}
	defs := metricDefs(opts, slices.ContainsFunc(eps, func(e Episode) bool { return e.Ep.Signals.Has(episode.Tokens) }),
		systemOf(eps).Shows)
	n := len(eps)
	// Per-episode numerators and denominators, per metric and side.
	type vals struct{ num, den sides }
	v := make([]vals, len(defs))
	for k, d := range defs {
		for s := range 2 {
			v[k].num[s] = make([]float64, n)
			v[k].den[s] = make([]float64, n)
			for i := range eps {
				ep, o := eps[i].Ep, &eps[i].Outcomes[cols[s]]
				v[k].num[s][i] = d.num(ep, o)
				v[k].den[s][i] = 1
				if d.den != nil {
					v[k].den[s][i] = d.den(ep, o)
				}
			}
		}
	}
	value := func(k int, s int, idx []int) (float64, bool) {
		d := defs[k]
		var num, den float64
		for _, i := range idx {
			num += v[k].num[s][i]
			den += v[k].den[s][i]
		}
		return d.value(num, den)
	}

	all := make([]int, n)
	for i := range all {
		all[i] = i
	}
	metrics := make([]Metric, len(defs))
	for k, d := range defs {
		m := &metrics[k]
		m.Name, m.Label, m.Unit, m.Expected = d.name, d.label, d.unit, d.expect
		m.Headline, m.Better, m.lengths = d.better != 0, d.better, d.lengths
		m.Baseline, m.BaselineOK = value(k, 0, all)
		m.After, m.AfterOK = value(k, 1, all)
		if m.BaselineOK && m.AfterOK {
			m.Change = m.After - m.Baseline
			if m.Baseline != 0 {
				pct := 100 * m.Change / m.Baseline
				m.ChangePct = &pct
			}
		}
	}
	if n >= MinN {
		ci, pct := bootstrap(defs, n, func(i int, row []float64) {
			for k := range defs {
				for s := range 2 {
					row[4*k+2*s] = v[k].num[s][i]
					row[4*k+2*s+1] = v[k].den[s][i]
				}
			}
		})
		for k := range defs {
			metrics[k].CI, metrics[k].CIPct = ci[k], pct[k]
		}
	}
	for k := range metrics {
		metrics[k].Verdict = verdictOf(&metrics[k], n)
	}
	return metrics
}

// bootstrap gives the paired bootstrap intervals of every metric's change
// (ci) and relative change in % (pct). fill writes episode i's numerators and
// denominators, 4 a metric: baseline num, den, after num, den.
//
// The resamples are those of one stream of random indices (deterministic, and
// paired: the same episodes for every metric and both policies), drawn in
// order by one goroutine in blocks and evaluated in parallel: one pass over a
// resample's indices sums every metric at once, in the indices' order, so
// each statistic is the very float a resample at a time gives. The two
// percentiles are selected, not sorted for.
func bootstrap(defs []metricDef, n int, fill func(i int, row []float64)) (ci, pct []*[2]float64) {
	full := 4 * len(defs)
	all := make([]float64, n*full)
	for i := range n {
		fill(i, all[i*full:(i+1)*full])
	}
	// Columns equal on every episode (the denominators of 1, the numerators
	// several metrics share) are summed once: the same floats, added in the
	// same order, so the same sums.
	col := make([]int, full) // a column's unique column
	var uniq []int           // the unique columns' first instance
	for j := range full {
		col[j] = -1
		for u, k := range uniq {
			same := true
			for i := range n {
				if math.Float64bits(all[i*full+j]) != math.Float64bits(all[i*full+k]) {
					same = false
					break
				}
			}
			if same {
				col[j] = u
				break
			}
		}
		if col[j] < 0 {
			col[j] = len(uniq)
			uniq = append(uniq, j)
		}
	}
	width := len(uniq)
	rows := make([]float64, n*width)
	for i := range n {
		for u, j := range uniq {
			rows[i*width+u] = all[i*full+j]
		}
	}
	// Per metric and resample: the change and the relative change, and
	// whether each is defined.
	changes, pcts := make([][]float64, len(defs)), make([][]float64, len(defs))
	okc, okp := make([][]bool, len(defs)), make([][]bool, len(defs))
	for k := range defs {
		changes[k], pcts[k] = make([]float64, Resamples), make([]float64, Resamples)
		okc[k], okp[k] = make([]bool, Resamples), make([]bool, Resamples)
	}
	// A block of indices holds up to 256 resamples, and up to a MiB: its n
	// indices a resample would otherwise take a kilobyte an episode for each
	// block in flight (50,000 episodes: 200 MB). The resamples are drawn in
	// the same order whatever the blocks.
	block := min(256, max(1, (1<<20)/(4*n)))
	type job struct {
		first int     // the first resample of the block
		idx   []int32 // its indices, n a resample
	}
	workers := max(1, runtime.GOMAXPROCS(0))
	jobs, free := make(chan job, workers), make(chan []int32, 2*workers)
	for range 2 * workers {
		free <- make([]int32, block*n)
	}
	go func() {
		rng := rand.New(rand.NewPCG(BootstrapSeed, uint64(n)))
		for first := 0; first < Resamples; first += block {
			count := min(block, Resamples-first)
			idx := (<-free)[:count*n]
			for j := range idx {
				idx[j] = int32(rng.IntN(n))
			}
			jobs <- job{first, idx}
		}
		close(jobs)
	}()
	var wg sync.WaitGroup
	for range workers {
		wg.Go(func() {
			acc := make([]float64, width)
			for jb := range jobs {
				for r := 0; r*n < len(jb.idx); r++ {
					clear(acc)
					for _, i := range jb.idx[r*n : (r+1)*n] {
						row := rows[int(i)*width : int(i+1)*width]
						for j, x := range row {
							acc[j] += x
						}
					}
					res := jb.first + r
					for k := range defs {
						b, okb := defs[k].value(acc[col[4*k]], acc[col[4*k+1]])
						a, oka := defs[k].value(acc[col[4*k+2]], acc[col[4*k+3]])
						if !okb || !oka {
							continue
						}
						changes[k][res], okc[k][res] = a-b, true
						if b != 0 {
							pcts[k][res], okp[k][res] = 100*(a-b)/b, true
						}
					}
				}
				free <- jb.idx[:cap(jb.idx)]
			}
		})
	}
	wg.Wait()
	ci, pct = make([]*[2]float64, len(defs)), make([]*[2]float64, len(defs))
	for k := range defs {
		ci[k] = percentiles(compact(changes[k], okc[k]))
		pct[k] = percentiles(compact(pcts[k], okp[k]))
	}
	return ci, pct
}

// compact keeps the values of x that ok marks, in order.
func compact(x []float64, ok []bool) []float64 {
	out := x[:0]
	for r, v := range x {
		if ok[r] {
			out = append(out, v)
		}
	}
	return out
}

// percentiles gives the 2.5th and 97.5th percentiles, or nil when fewer than
// half the resamples defined the statistic.
func percentiles(x []float64) *[2]float64 {
	if len(x) < Resamples/2 {
		return nil
	}
	p := stats.Percentiles(x)
	return &p
}

// verdictOf compares a change with its interval and the expected change.
// "~" marks a change whose interval contains 0 (not significant), as
// benchstat does.
func verdictOf(m *Metric, n int) string {
	if !m.BaselineOK || !m.AfterOK {
		return "undefined"
	}
	if m.CI == nil {
		if n < MinN {
			return "n too small"
		}
		return "no interval"
	}
	significant := m.Significant()
	switch m.Expected.Kind {
	case expectSame:
		if significant {
			return "changed (expected no change)"
		}
		return "~ (unchanged, as expected)"
	case expectRange:
		if !significant {
			return "~ (expected " + m.Expected.Text + ")"
		}
		if m.ChangePct == nil {
			return "significant"
		}
		p, e := *m.ChangePct, m.Expected
		dir := math.Copysign(1, e.Lo+e.Hi) // the expected direction
		near, far := min(math.Abs(e.Lo), math.Abs(e.Hi)), max(math.Abs(e.Lo), math.Abs(e.Hi))
		switch {
		case p*dir <= 0:
			return "opposite to expected"
		case math.Abs(p) < near:
			return "smaller than expected"
		case math.Abs(p) > far:
			return "larger than expected"
		}
		return "as expected"
	}
	if significant {
		return "significant"
	}
	return "~"
}
