package calibrate

import (
	"math"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/lbanalyze/lbanalyze/internal/corpus"
	"github.com/lbanalyze/lbanalyze/internal/sweep"
	"github.com/lbanalyze/lbanalyze/policy"
)

// printedCI matches an interval as the answer prints it: "(95% CI 4.0% …
// 16.0%)", "(95% CI +0.00 pp … +0.00 pp)", "(95% CI +45 … +115)", or one
// sided, its lower bound alone, "(at least +45)" (or, of a safer change,
// "(at least -400; chosen as …)"), or a cost's upper bound alone, "(at most
// 11910)".
var printedCI = regexp.MustCompile(`95% CI ([-+]?[0-9.]+)(?:%| pp)? … ([-+]?[0-9.]+)(?:%| pp)?|\(at least ([-+]?[0-9.]+)[;)]|\(at most ([-+]?[0-9.]+)\)`)

// checkAgainstText holds the adapter to the answer as printed: it reads as
// many intervals as the sections print, in their order, each equal to the
// printed one to the printed decimals once in the printed unit (a rate or
// share in %, a change of a rate in pp, a sum over the n episodes).
func checkAgainstText(t *testing.T, r *sweep.Result, what string) Answer {
	t.Helper()
	a := read(r)
	var text strings.Builder
	for _, s := range r.Sections() {
		text.WriteString(s.Headline + "\n")
		for _, l := range s.Lines {
			text.WriteString(l.Label + ": " + l.Text + "\n")
		}
	}
	printed := printedCI.FindAllStringSubmatch(text.String(), -1)
	if len(printed) != len(a.Intervals) {
		t.Fatalf("%s: the answer prints %d intervals, the adapter reads %d:\n%s", what, len(printed), len(a.Intervals), text.String())
	}
	for i, p := range printed {
		iv := a.Intervals[i]
		scale := 100.0
		if iv.Of.Versus && iv.Of.Figure != FalseRate {
			scale = float64(r.N)
		}
		bounds, ends := []string{p[1], p[2]}, []float64{iv.Lo, iv.Hi}
		switch {
		case p[3] != "":
			bounds, ends = []string{p[3]}, ends[:1]
			if !math.IsInf(iv.Hi, 1) {
				t.Errorf("%s: %s is printed one-sided, read with an upper bound %v", what, iv.Label, iv.Hi)
			}
		case p[4] != "":
			bounds, ends = []string{p[4]}, ends[1:]
			if !math.IsInf(iv.Lo, -1) {
				t.Errorf("%s: %s is printed as at most, read with a lower bound %v", what, iv.Label, iv.Lo)
			}
		}
		for k, printed := range bounds {
			got := ends[k]
			want, err := strconv.ParseFloat(printed, 64)
			if err != nil {
				t.Fatal(err)
			}
			decimals := 0
			if dot := strings.IndexByte(printed, '.'); dot >= 0 {
				decimals = len(printed) - dot - 1
			}
			if math.Abs(got*scale-want) > 0.5*math.Pow(10, -float64(decimals))+1e-9 {
				t.Errorf("%s: %s reads %v, printed %q", what, iv.Label, got*scale, p[0])
			}
		}
	}
	return a
}

// The bundled set's answer (README, "Quick start"): no clear winner between
// now and score-or-objective 40/5, its intervals as printed there.
func TestAdapterBundledSet(t *testing.T) {
	c := corpus.Read([]string{"../../testdata/episodes"}, corpus.Options{Jobs: 2})
	a := checkAgainstText(t, Sweep(c.Episodes, DefaultNow()), "the bundled set")
	if a.Verdict != sweep.NoClearWinner || a.Leader.String() != "score-or-objective 40/5" || a.Config != a.Now || a.Now.String() != "score-or-objective 40/10" {
		t.Fatalf("the bundled set: %v %v, leading %v (now %v)", a.Verdict, a.Config, a.Leader, a.Now)
	}
	const z2 = 1.959963984540054 * 1.959963984540054
	inf := math.Inf(1)
	want := map[string][2]float64{ // the README's figures, by hand into the units of the quantities
		// 40/5's own: Tango's, no episode differing: ±z²/(75+z²) = ±4.87 pp;
		// of censored outcomes ±3.65 of 75.
		"withhold · versus now: false-termination rate, high bound": {-z2 / (75 + z2), z2 / (75 + z2)},
		"withhold · versus now: turns saved":                        {45.0 / 75, inf},
		"withhold · versus now: censored outcomes":                  {-z2 / (75 + z2), z2 / (75 + z2)},
		// The rule's held out.
		"withhold · held out: false-termination rate, high bound": {-0.0360, 0.0717},
		"withhold · held out: turns saved":                        {80.0 / 75, inf},
		"withhold · now: false-termination rate":                  {0.249, 0.459},
	}
	for _, iv := range a.Intervals {
		w, ok := want[iv.Label]
		if !ok {
			continue
		}
		delete(want, iv.Label)
		if math.Abs(iv.Lo-w[0]) > 0.0005 || !(math.IsInf(w[1], 1) && math.IsInf(iv.Hi, 1) || math.Abs(iv.Hi-w[1]) <= 0.0005) {
			t.Errorf("%s = [%v, %v], the README says [%v, %v]", iv.Label, iv.Lo, iv.Hi, w[0], w[1])
		}
		versus, held := strings.Contains(iv.Label, "versus now"), strings.Contains(iv.Label, "held out")
		switch {
		case (versus || held) != iv.Of.Versus || iv.Of.Versus && iv.Of.Base != a.Now:
			t.Errorf("%s speaks of %+v", iv.Label, iv.Of)
		case held && !isMixture(iv.Of.Mix, a.Leader):
			t.Errorf("%s, held out, speaks of %+v: not the folds' choices", iv.Label, iv.Of.Mix)
		case versus && (len(iv.Of.Mix) != 1 || iv.Of.Mix[0] != Part{a.Leader, 1}):
			t.Errorf("%s, the named config's own, speaks of %+v", iv.Label, iv.Of.Mix)
		case !versus && !held && iv.Of.Of != a.Now:
			t.Errorf("%s speaks of %v, not now", iv.Label, iv.Of.Of)
		}
	}
	for l := range want {
		t.Errorf("the adapter reads no %q", l)
	}
}

// isMixture says whether mix is of 5 folds of the bundled 75 (15 episodes
// each, a weight of 1/5), one of them the leader.
func isMixture(mix []Part, leader policy.Policy) bool {
	if len(mix) != 5 || !slices.ContainsFunc(mix, func(p Part) bool { return p.Of == leader }) {
		return false
	}
	for _, p := range mix {
		if math.Abs(p.Weight-0.2) > 1e-12 {
			return false
		}
	}
	return true
}

// Samples of a small population give every kind of answer the sweep gives
// (ship, keep, no clear winner, with and without the best overall): against
// ZorkGPT's defaults small samples keep or withhold, and against score 60/10
// (which the population's score-or-objective configs beat on both counts)
// a sample of 20 keeps it beside a change that saves no more, and samples of
// 200 ship (each with the best overall, a window config); against an
// over-aggressive score-or-objective 25/5 a sample of 200 ships a safer
// change, its cost printed "at most"; on each the adapter reads every
// interval printed.
func TestAdapterReadsEveryInterval(t *testing.T) {
	pop := testPopulation(t)
	seen := map[string]bool{}
	score60 := policy.Policy{Name: policy.Score}.With(policy.MaxTurnsStuck, 60).With(policy.CheckInterval, 10)
	sor25 := policy.Policy{Name: policy.ScoreOrObjective}.With(policy.MaxTurnsStuck, 25).With(policy.CheckInterval, 5)
	for _, c := range []struct {
		now     policy.Policy
		n, runs int
	}{{DefaultNow(), 20, 4}, {DefaultNow(), 30, 4}, {DefaultNow(), 60, 4}, {score60, 20, 2}, {score60, 200, 3}, {sor25, 200, 1}} {
		for r := range c.runs {
			n := c.n
			res := Sweep(draw(pop, n, 3, r), c.now)
			a := checkAgainstText(t, res, "sample "+strconv.Itoa(r)+" of "+strconv.Itoa(n))
			kind := a.Verdict.String()
			if res.BestOverall != nil {
				kind += " with the best overall"
			}
			if a.Safer && a.Verdict == sweep.Ship {
				seen["ship of a safer change"] = true
			}
			seen[kind] = true
			if a.Verdict == sweep.Keep && slices.ContainsFunc(a.Intervals, func(iv Interval) bool { return strings.HasPrefix(iv.Label, "keep · versus now") }) {
				seen["keep with a change from now"] = true
			}
		}
	}
	for _, k := range []string{"keep", "no_clear_winner", "ship with the best overall", "keep with the best overall",
		"no_clear_winner with the best overall", "keep with a change from now", "ship of a safer change"} {
		if !seen[k] {
			t.Errorf("no sample gave an answer of kind %q (seen: %v): the test no longer covers it", k, seen)
		}
	}
}
