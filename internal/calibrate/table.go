package calibrate

import (
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"

	"github.com/lbanalyze/lbanalyze/internal/stats"
	"github.com/lbanalyze/lbanalyze/internal/sweep"
)

// Goals of the study (docs/calibration.md, "What it measures").
const (
	// coverageGoal is the least share of samples a 95% interval should
	// cover the population's value in.
	coverageGoal = 0.93
	// harmGoal is the most share of samples that may ship a harmful
	// change (harmfulChange).
	harmGoal = 0.05
	// tellFrom is the coverage a cell must be shown above (the low end of
	// its Wilson interval) to hold: with fewer samples than that takes, a
	// cell cannot tell the goal from a coverage this short of it.
	tellFrom = 0.85
)

// Write writes the study's tables in markdown: its decisions, then the
// coverage of every interval printed.
func (st *Study) Write(w io.Writer) {
	fmt.Fprintf(w, "Population: N = %d synthetic episodes (`synth --seed %d`); R = %d samples of each size without replacement "+
		"(sample seed %d); the grid of `lbanalyze sweep` with no flags (%d configs) against now, %s, whose false-termination "+
		"rate in the population is %s. Harmful: a shipped config worse than now in the population by more than %s "+
		"of false-termination rate, or a safer one that avoids no false termination in the population and saves no "+
		"more turns (it costs turns for nothing). Each share with its 95%% Wilson interval. A coverage holds when it "+
		"is at least its goal and the low end of its interval above %s; ✗: short of its goal, the high end of its "+
		"interval below it; ?: too few samples to tell the goal from %s. A harmful share is marked ✗ above its goal.\n\n",
		st.Population, st.Seed, st.Samples, st.SampleSeed, st.Configs, st.Now, pct(st.NowFalseRate), pp(st.Margin),
		pct(tellFrom), pct(tellFrom))
	st.writeDecisions(w)
	fmt.Fprintln(w)
	st.writeThresholds(w)
	fmt.Fprintln(w)
	st.writeCoverage(w)
}

func (st *Study) header(first string) []string {
	h := []string{first}
	for _, s := range st.Sizes {
		h = append(h, "n = "+strconv.Itoa(s.N))
	}
	return h
}

func (st *Study) writeDecisions(w io.Writer) {
	rows := [][]string{}
	row := func(label string, cell func(s *Size) string) {
		r := []string{label}
		for i := range st.Sizes {
			r = append(r, cell(&st.Sizes[i]))
		}
		rows = append(rows, r)
	}
	count := func(v sweep.Verdict) func(s *Size) string {
		return func(s *Size) string {
			return share(s.count(func(x *Sample) bool { return x.Verdict == v }), len(s.Samples))
		}
	}
	row("ships", count(sweep.Ship))
	row("keeps", count(sweep.Keep))
	row("withholds", count(sweep.NoClearWinner))
	row(fmt.Sprintf("harmful ships, of all samples (goal ≤ %s)", pct(harmGoal)), func(s *Size) string {
		k := s.count(func(x *Sample) bool { return x.harmful(st.Margin, false) })
		return share(k, len(s.Samples)) + mark(float64(k) <= harmGoal*float64(len(s.Samples)))
	})
	row("harmful ships of a safer change: no fewer false terminations in the population, no more turns saved", func(s *Size) string {
		return share(s.count(func(x *Sample) bool { return isSaferShip(x) && x.harmful(st.Margin, false) }), len(s.Samples))
	})
	row("harmful ships judged on the low bound (premature stops alone)", func(s *Size) string {
		return share(s.count(func(x *Sample) bool { return x.harmful(st.Margin, true) }), len(s.Samples))
	})
	row("shipped configs worse than now in the population, of ships", func(s *Size) string {
		return share(s.count(func(x *Sample) bool { return x.Verdict == sweep.Ship && x.TrueDiff > 1e-12 }), s.count(isShip))
	})
	row("mean true change of the shipped configs' false-termination rate", func(s *Size) string {
		diff, _, k := s.means(isShip, func(x *Sample) float64 { return x.TrueDiff }, func(*Sample) float64 { return 0 })
		if k == 0 {
			return "–"
		}
		return signedPP(diff)
	})
	row("ships: the shipped config's share of episodes worse than now, then its turns saved an episode over now, "+
		"mean in sample minus in the population", func(s *Size) string {
		worse, saved, k := s.means(isShip, func(x *Sample) float64 { return x.WorseBias }, func(x *Sample) float64 { return x.SavedBias })
		if k == 0 {
			return "–"
		}
		return fmt.Sprintf("%s; %+.2f", signedPP(worse), saved)
	})
	row("ships whose versus-now interval of the false-termination rate covers the shipped config's own true change", func(s *Size) string {
		return share(s.count(func(x *Sample) bool { return x.Verdict == sweep.Ship && x.VersusCovers }), s.count(isShip))
	})
	row("ships of a safer change (fewer false terminations at a cost), of ships", func(s *Size) string {
		return share(s.count(isSaferShip), s.count(isShip))
	})
	row("safer ships: mean true change of the false-termination rate; of turns saved an episode", func(s *Size) string {
		diff, saved, k := s.means(isSaferShip, func(x *Sample) float64 { return x.TrueDiff }, func(x *Sample) float64 { return x.TrueSaved })
		if k == 0 {
			return "–"
		}
		return fmt.Sprintf("%s; %+.1f", signedPP(diff), saved)
	})
	row(fmt.Sprintf("withholds printing a low end to settle above the floor (%d at the margin): the population's count at least it (goal ≥ %s)",
		stats.SettleAt(0, 0, answerMargin), pct(coverageGoal)), func(s *Size) string {
		k, n := s.count(func(x *Sample) bool { return x.SettleAtLeast }), s.count(func(x *Sample) bool { return x.SettleJudged })
		return share(k, n) + coverageMark(k, n)
	})
	row("withholds printing a range to settle: the population's count within it (a point estimate's, no goal)", func(s *Size) string {
		return share(s.count(func(x *Sample) bool { return x.SettleWithin }), s.count(func(x *Sample) bool { return x.RangeJudged }))
	})
	row("break-evens on the safe side of the population's (of answers printing one)", func(s *Size) string {
		return share(s.count(func(x *Sample) bool { return x.BreakEvenJudged && x.BreakEvenSafe }), s.count(func(x *Sample) bool { return x.BreakEvenJudged }))
	})
	table(w, st.header("decision"), rows)
}

// thresholds are the evidence thresholds the study weighs (stability,
// share of folds agreeing), the answer's first.
var thresholds = [][2]float64{{sweep.MinStability, sweep.MinFoldsAgreeing}, {0, 0}, {0, 0.6}, {0.2, 0}, {0.3, 0.6}, {0.5, 0.8}}

// writeThresholds is, for other evidence thresholds, how many samples would
// ship (the comparison with now would ship the leader, Sample.Shown, and its
// evidence meets them), how many of those harmfully, and how many a config
// worse than now at all.
func (st *Study) writeThresholds(w io.Writer) {
	var rows [][]string
	for k, th := range thresholds {
		label := fmt.Sprintf("stability ≥ %s, folds agreeing ≥ %s", pct(th[0]), pct(th[1]))
		if k == 0 {
			label += " (the answer's)"
		}
		r := []string{label}
		for i := range st.Sizes {
			var ships, harmful, worse int
			for _, x := range st.Sizes[i].Samples {
				if !x.Shown || x.Stability < th[0]-1e-9 || x.Folds > 0 && float64(x.Agree) < th[1]*float64(x.Folds)-1e-9 {
					continue
				}
				ships++
				harmful += int(b2i(harmfulChange(x.LeaderDiff, x.LeaderSaved, st.Margin, x.Safer)))
				worse += int(b2i(x.LeaderDiff > 1e-12))
			}
			r = append(r, fmt.Sprintf("%d / %d / %d", ships, harmful, worse))
		}
		rows = append(rows, r)
	}
	table(w, st.header("evidence thresholds: ships / harmful / worse than now"), rows)
}

func isShip(x *Sample) bool { return x.Verdict == sweep.Ship }

func isSaferShip(x *Sample) bool { return x.Verdict == sweep.Ship && x.Safer }

// means are the means of f and g over the k samples of s that of passes.
func (s *Size) means(of func(*Sample) bool, f, g func(*Sample) float64) (mf, mg float64, k int) {
	for i := range s.Samples {
		if x := &s.Samples[i]; of(x) {
			mf, mg, k = mf+f(x), mg+g(x), k+1
		}
	}
	if k > 0 {
		mf, mg = mf/float64(k), mg/float64(k)
	}
	return mf, mg, k
}

func (s *Size) count(f func(*Sample) bool) int {
	k := 0
	for i := range s.Samples {
		if f(&s.Samples[i]) {
			k++
		}
	}
	return k
}

// writeCoverage is, for every interval an answer printed, in how many of the
// samples that printed it it covered the population's value; then how many
// of them were of zero width.
func (st *Study) writeCoverage(w io.Writer) {
	type tally struct{ printed, covered, point, above int }
	// The two headline intervals first, whatever the verdict; then each
	// interval by where it is printed.
	labels := []string{"any verdict · " + answerRate, "any verdict · " + versusRate}
	tallies := make([]map[string]*tally, len(st.Sizes))
	for i := range st.Sizes {
		tallies[i] = map[string]*tally{}
		for _, x := range st.Sizes[i].Samples {
			for _, j := range append(slices.Clone(x.Intervals), twoSided(x.TwoSided)...) {
				keys := []string{j.Label}
				if j.Headline != "" {
					keys = append(keys, "any verdict · "+j.Headline)
				}
				for _, key := range keys {
					t := tallies[i][key]
					if t == nil {
						t = &tally{}
						tallies[i][key] = t
					}
					t.printed++
					t.covered += int(b2i(j.Covered))
					t.point += int(b2i(j.Hi-j.Lo < 1e-12))
					t.above += int(b2i(!j.Covered && j.Truth > j.Hi))
				}
				if !slices.Contains(labels, j.Label) {
					labels = append(labels, j.Label)
				}
			}
		}
	}
	var cov, points, above [][]string
	for _, l := range labels {
		c, p, a := []string{l}, []string{l}, []string{l}
		anyPoint, anyMiss := false, false
		for i := range st.Sizes {
			t := tallies[i][l]
			if t == nil {
				c, p, a = append(c, "–"), append(p, "–"), append(a, "–")
				continue
			}
			c = append(c, share(t.covered, t.printed)+coverageMark(t.covered, t.printed))
			p = append(p, share(t.point, t.printed))
			a = append(a, share(t.above, t.printed-t.covered))
			anyPoint = anyPoint || t.point > 0
			anyMiss = anyMiss || t.covered < t.printed
		}
		cov = append(cov, c)
		if anyPoint {
			points = append(points, p)
		}
		if anyMiss {
			above = append(above, a)
		}
	}
	table(w, st.header(fmt.Sprintf("interval printed: covers the population's value (goal ≥ %s)", pct(coverageGoal))), cov)
	if len(points) > 0 {
		fmt.Fprintln(w)
		table(w, st.header("interval printed: of zero width"), points)
	}
	if len(above) > 0 {
		fmt.Fprintln(w)
		table(w, st.header("interval printed: of its misses, the value above it"), above)
	}
}

// twoSided relabels the two-sided intervals of one-sided figures, to be
// judged beside them.
func twoSided(js []Judged) []Judged {
	out := slices.Clone(js)
	for i := range out {
		out[i].Label += " — its two-sided 95% interval, not printed"
		out[i].Headline = ""
	}
	return out
}

// coverageMark says whether a coverage of k in n holds (""), is short of
// its goal (✗: its Wilson interval below the goal) or cannot be told (?:
// below the goal, or too few samples to tell it from tellFrom).
func coverageMark(k, n int) string {
	lo, hi := stats.Wilson(k, n)
	switch {
	case n == 0:
		return ""
	case hi < coverageGoal:
		return " ✗"
	case float64(k) < coverageGoal*float64(n) || lo <= tellFrom:
		return " ?"
	}
	return ""
}

// table writes a markdown table.
func table(w io.Writer, header []string, rows [][]string) {
	line := func(cells []string) { fmt.Fprintf(w, "| %s |\n", strings.Join(cells, " | ")) }
	line(header)
	sep := make([]string, len(header))
	for i := range sep {
		sep[i] = "---:"
	}
	sep[0] = "---"
	line(sep)
	for _, r := range rows {
		line(r)
	}
}

// share is k of n with its 95% Wilson interval, "93.5% (187/200; 89.2–96.2%)";
// "–" of none.
func share(k, n int) string {
	if n == 0 {
		return "–"
	}
	lo, hi := stats.Wilson(k, n)
	return fmt.Sprintf("%s (%d/%d; %s–%s)", pct(float64(k)/float64(n)), k, n, strconv.FormatFloat(100*lo, 'f', 1, 64), pct(hi))
}

// mark flags a figure that misses its goal.
func mark(met bool) string {
	if met {
		return ""
	}
	return " ✗"
}

func pct(v float64) string      { return strconv.FormatFloat(100*v, 'f', 1, 64) + "%" }
func pp(v float64) string       { return strconv.FormatFloat(100*v, 'f', 1, 64) + " pp" }
func signedPP(v float64) string { return fmt.Sprintf("%+.2f pp", 100*v) }
