package metrics

import (
	"bytes"
	"math"
	"math/rand/v2"
	"reflect"
	"strconv"
	"testing"

	"github.com/lbanalyze/lbanalyze/episode"
	"github.com/lbanalyze/lbanalyze/internal/corpus"
	"github.com/lbanalyze/lbanalyze/internal/stats"
	"github.com/lbanalyze/lbanalyze/internal/synth"
	"github.com/lbanalyze/lbanalyze/policy"
	"github.com/lbanalyze/lbanalyze/replay"
)

var (
	// zorkGPT is what applies to ZorkGPT's logs, which these are
	// (system.ZorkGPT's Shows): objectives, and the expected changes.
	zorkGPT = Applies{Objectives: true, Expected: true}
	score   = policy.Policy{Name: policy.Score}
	sor     = policy.Policy{Name: policy.ScoreOrObjective}
)

// readEpisode reads the log a plan writes.
func readEpisode(t testing.TB, s synth.Steps) *episode.Episode {
	t.Helper()
	var buf bytes.Buffer
	if _, err := synth.Write(&buf, s.Episode()); err != nil {
		t.Fatal(err)
	}
	eps := corpus.Read([]string{"-"}, corpus.Options{Jobs: 1, Stdin: &buf}).Episodes
	if len(eps) != 1 {
		t.Fatalf("%d episodes", len(eps))
	}
	return eps[0]
}

// compared are the episodes, each with its outcomes under score and
// score-or-objective (40/10).
func compared(eps []*episode.Episode) Pairs {
	pairs := make(Pairs, len(eps))
	for i, ep := range eps {
		b, a := replay.Run(ep, score), replay.Run(ep, sor)
		pairs[i] = PairOf(ep, b, a)
	}
	return pairs
}

// handSet is seven episodes whose outcomes under score and
// score-or-objective (40/10) are worked out by hand in the comments. All but
// E and G end at their turn budget (a whole log).
func handSet(t testing.TB) Pairs {
	plans := []synth.Steps{
		// A: flat 100 turns. score: 40 (40), truly stuck, saves 60. sor: same.
		{ID: "A", N: 100, MaxTurns: 100},
		// B: objective at 35, +10 at 75, 100 turns. score: 40 (40), candidate
		// (gain and objective), saves 60, forgone 10. sor: anchor 36, then 75:
		// next stop 120 > 100, no stop.
		{ID: "B", N: 100, MaxTurns: 100, Changes: map[int]int{75: 10}, Objectives: map[int][]string{35: {"o1"}}},
		// C: +5 at 12, objective at 50, 200 turns. score: anchor 12 -> 60 (48),
		// objective 50 in (20, 60]: candidate, saves 140. sor: anchor 51 ->
		// 100 (49), truly stuck, saves 100.
		{ID: "C", N: 200, MaxTurns: 200, Changes: map[int]int{12: 5}, Objectives: map[int][]string{50: {"o2"}}},
		// D: +5 every 20 turns up to 100, game over at 120. score: anchor 100
		// -> 140 > 120: no stop. sor: no stop.
		{ID: "D", N: 120, Changes: map[int]int{20: 5, 40: 10, 60: 15, 80: 20, 100: 25}, GameOver: 120},
		// E: recorded by score 40/10 with an objective at 35: cut at 40.
		// score: 40 (40), candidate (objective), saves 0. sor: anchor 36 ->
		// 80 > 40: no stop, censored.
		{ID: "E", N: 100, Objectives: map[int][]string{35: {"o3"}}, LoopBreak: &score},
		// F: objective at 5, 30 turns. score: no stop. sor: no stop.
		{ID: "F", N: 30, MaxTurns: 30, Objectives: map[int][]string{5: {"o4"}}},
		// G: flat 100 turns, then the log just stops (a killed run, cut):
		// both stop at 40 (40), saving 60, with no evidence and no follow-up
		// beyond the cut: unknown.
		{ID: "G", N: 100},
	}
	var eps []*episode.Episode
	for _, p := range plans {
		eps = append(eps, readEpisode(t, p))
	}
	return compared(eps)
}

func TestMetricDefinitions(t *testing.T) {
	eps := handSet(t)
	m := map[string]Metric{}
	for _, x := range Compare(eps, Costs{CallsPerTurn: 4}, zorkGPT) {
		m[x.Name] = x
	}
	// By hand from handSet's comments; n = 7, logged turns 100+100+200+120+40+30+100 = 690.
	for _, c := range []struct {
		name            string
		baseline, after float64
	}{
		{"episodes_terminated", 5, 3},          // A B C E G | A C G
		{"false_termination_candidates", 3, 0}, // B C E | none
		{"unknown_stops", 1, 1},                // G | G
		// High bound: premature, unknown or censored: B C E G | E (censored) G.
		{"false_termination_rate", 400 / 7.0, 200 / 7.0},
		{"false_termination_rate_low", 300 / 7.0, 0}, // B C E | none
		{"avg_turns_per_episode", (40 + 40 + 60 + 120 + 40 + 30 + 40) / 7.0, (40 + 100 + 100 + 120 + 40 + 30 + 40) / 7.0},
		{"avg_turns_stuck_at_termination", (40 + 40 + 48 + 40 + 40) / 5.0, (40 + 49 + 40) / 3.0},
		{"objective_completions_in_terminated", 3, 1},      // B C E | C
		{"episodes_with_objective_completions", 4, 4},      // a completion c <= length: B C E F | B C E F
		{"truly_stuck_terminations", 1, 2},                 // A | A C (G is unknown)
		{"turns_saved", 60 + 60 + 140 + 60, 60 + 100 + 60}, // A B C E(0) G | A C G
		{"turns_saved_pct", 100 * 320 / 690.0, 100 * 220 / 690.0},
		{"llm_calls_saved", 4 * 320, 4 * 220},
		{"score_forgone", 10, 0}, // B | none
		{"censored", 0, 1},       // | E
	} {
		got := m[c.name]
		if !got.BaselineOK || !got.AfterOK || math.Abs(got.Baseline-c.baseline) > 1e-9 || math.Abs(got.After-c.after) > 1e-9 {
			t.Errorf("%s: got %v | %v, want %v | %v", c.name, got.Baseline, got.After, c.baseline, c.after)
		}
	}
	// The rates' intervals, recomputed in Python from the formulas (Wilson;
	// Tango's score interval, which R's PropCIs scoreci.mp gives too), in %.
	// High bound: 2 episodes under both (E, G), 2 under the baseline only
	// (B, C), 3 under neither. Low bound: 3 under the baseline only, 4
	// under neither.
	near := func(got *[2]float64, lo, hi float64) bool {
		return got != nil && math.Abs(got[0]-lo) < 5e-5 && math.Abs(got[1]-hi) < 5e-5
	}
	for _, c := range []struct {
		name                    string
		ci, base, after         [2]float64
		afterOnly, baselineOnly int
	}{
		{"false_termination_rate", [2]float64{-64.106555, 16.985342}, [2]float64{25.045836, 84.178014}, [2]float64{8.221892, 64.106555}, 0, 2},
		{"false_termination_rate_low", [2]float64{-74.954164, 7.761491}, [2]float64{15.821986, 74.954164}, [2]float64{0, 35.433044}, 0, 3},
	} {
		got := m[c.name]
		if got.Method != PairedProportions || !near(got.CI, c.ci[0], c.ci[1]) || !near(got.BaselineCI, c.base[0], c.base[1]) ||
			!near(got.AfterCI, c.after[0], c.after[1]) || got.Discordant != [2]int{c.afterOnly, c.baselineOnly} || got.CIPct != nil {
			t.Errorf("%s: %v change %v, sides %v %v, discordant %v; want change %v, sides %v %v, discordant %d/%d",
				c.name, got.Method, got.CI, got.BaselineCI, got.AfterCI, got.Discordant, c.ci, c.base, c.after, c.afterOnly, c.baselineOnly)
		}
	}
	// A count of episodes has the same intervals, times n: censored 0 | 1
	// of 7, E under the after policy only.
	if got, lo, hi := m["censored"], 0.0, 0.0; got.Method != PairedProportions || got.Discordant != [2]int{1, 0} {
		t.Errorf("censored: %v, discordant %v", got.Method, got.Discordant)
	} else {
		if lo, hi = -1.834643, 3.591895; !near(got.CI, lo, hi) { // 7 × Tango's [−0.262092, 0.513128] of 1 and 0 in 7
			t.Errorf("censored: change %v, want [%v, %v]", got.CI, lo, hi)
		}
	}
	// A sum keeps the paired bootstrap, with each side's percentiles.
	if got := m["turns_saved"]; got.Method != PairedBootstrap || got.CI == nil || got.BaselineCI == nil || got.AfterCI == nil ||
		got.BaselineCI[0] > 320 || got.BaselineCI[1] < 320 {
		t.Errorf("turns saved: %v, change %v, sides %v %v", got.Method, got.CI, got.BaselineCI, got.AfterCI)
	}
}

// The bootstrap interval of a change in a mean agrees with the normal
// approximation mean(d) ± 1.96·sd(d)/√n of the paired differences d.
func TestBootstrapAgreesWithNormalApproximation(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 7))
	var eps Pairs
	var d []float64
	for i := range 80 {
		n := 60 + rng.IntN(200)
		ep := &episode.Episode{ID: string(rune('a' + i)), Turns: make([]episode.Turn, n)}
		b := replay.Outcome{Length: n}
		a := replay.Outcome{Length: n}
		if rng.IntN(2) == 0 {
			b.TerminationTurn, b.Length = 40, 40
		}
		eps = append(eps, PairOf(ep, b, a))
		d = append(d, float64(a.Length-b.Length))
	}
	var mean, ss float64
	for _, x := range d {
		mean += x
	}
	mean /= float64(len(d))
	for _, x := range d {
		ss += (x - mean) * (x - mean)
	}
	se := math.Sqrt(ss/float64(len(d)-1)) / math.Sqrt(float64(len(d)))
	var m Metric
	for _, x := range Compare(eps, Costs{CallsPerTurn: 4}, zorkGPT) {
		if x.Name == "avg_turns_per_episode" {
			m = x
		}
	}
	if m.CI == nil || math.Abs(m.Change-mean) > 1e-9 {
		t.Fatalf("change %v (want %v), interval %v", m.Change, mean, m.CI)
	}
	lo, hi := mean-1.96*se, mean+1.96*se
	if math.Abs(m.CI[0]-lo) > 0.1*(hi-lo) || math.Abs(m.CI[1]-hi) > 0.1*(hi-lo) {
		t.Errorf("bootstrap %.2f … %.2f, normal approximation %.2f … %.2f", m.CI[0], m.CI[1], lo, hi)
	}
}

// With many episodes a block of indices holds fewer resamples (52 here, so
// that the blocks in flight stay within a few MiB): each interval is still
// the one drawn resample by resample, in order, from the seed, to the bit.
func TestBootstrapInSmallBlocks(t *testing.T) {
	const n = 5000
	defer func(v int) { NormalFrom = v }(NormalFrom)
	NormalFrom = n + 1 // the bootstrap, at n episodes
	rng := rand.New(rand.NewPCG(3, 3))
	eps := make(Pairs, n)
	lb, la := make([]float64, n), make([]float64, n)
	for i := range eps {
		b, a := replay.Outcome{Length: 1 + rng.IntN(300)}, replay.Outcome{Length: 1 + rng.IntN(300)}
		eps[i] = PairOf(&episode.Episode{ID: strconv.Itoa(i)}, b, a)
		lb[i], la[i] = float64(b.Length), float64(a.Length)
	}
	var m Metric
	for _, x := range Compare(eps, Costs{CallsPerTurn: 4}, zorkGPT) {
		if x.Name == "avg_turns_per_episode" {
			m = x
		}
	}
	draw := rand.New(rand.NewPCG(BootstrapSeed, n))
	changes := make([]float64, Resamples)
	for r := range changes {
		var sb, sa, k float64
		for range n {
			i := draw.IntN(n)
			sb, sa, k = sb+lb[i], sa+la[i], k+1
		}
		changes[r] = sa/k - sb/k
	}
	if want := stats.Percentiles(changes); m.CI == nil || *m.CI != want {
		t.Errorf("interval %v, resample by resample %v", m.CI, want)
	}
}

func TestBootstrapIsDeterministic(t *testing.T) {
	eps := handSet(t)
	a := Compare(eps, Costs{CallsPerTurn: 4}, zorkGPT)
	b := Compare(eps, Costs{CallsPerTurn: 4}, zorkGPT)
	if !reflect.DeepEqual(a, b) {
		t.Error("two runs differ")
	}
	for _, m := range a {
		if m.CI == nil && m.BaselineOK && m.AfterOK {
			t.Errorf("%s has no interval with n = 7", m.Name)
		}
	}
}

// Below MinN episodes the bootstrap gives no interval; a share of episodes
// keeps its exact ones (Wilson, Newcombe), which mean something at any n.
func TestTooFewForAnInterval(t *testing.T) {
	eps := handSet(t)[:MinN-1]
	for _, m := range Compare(eps, Costs{CallsPerTurn: 4}, zorkGPT) {
		switch {
		case m.Method == PairedProportions && (m.CI == nil || m.BaselineCI == nil):
			t.Errorf("%s: no interval of a share of %d episodes", m.Name, len(eps))
		case m.Method == PairedBootstrap && (m.CI != nil || m.BaselineOK && m.AfterOK && m.Verdict != "n too small"):
			t.Errorf("%s: interval %v, verdict %q", m.Name, m.CI, m.Verdict)
		}
	}
}

func TestVerdicts(t *testing.T) {
	pct := func(p float64) *float64 { return &p }
	rate := Expectation{Text: "-30% to -50%", Lo: -50, Hi: -30, Kind: expectRange}
	turns := Expectation{Text: "+10% to +20%", Lo: 10, Hi: 20, Kind: expectRange}
	same := Expectation{Text: "no change", Kind: expectSame}
	for _, c := range []struct {
		m    Metric
		want string
	}{
		{Metric{Expected: rate, ChangePct: pct(-40), CI: &[2]float64{-9, -2}}, "as expected"},
		{Metric{Expected: rate, ChangePct: pct(-20), CI: &[2]float64{-9, -2}}, "smaller than expected"},
		{Metric{Expected: rate, ChangePct: pct(-70), CI: &[2]float64{-9, -2}}, "larger than expected"},
		{Metric{Expected: rate, ChangePct: pct(15), CI: &[2]float64{1, 9}}, "opposite to expected"},
		{Metric{Expected: rate, ChangePct: pct(-40), CI: &[2]float64{-9, 0}}, "~ (expected -30% to -50%)"},
		{Metric{Expected: turns, ChangePct: pct(12), CI: &[2]float64{2, 30}}, "as expected"},
		{Metric{Expected: same, CI: &[2]float64{-1, 2}}, "~ (unchanged, as expected)"},
		{Metric{Expected: same, CI: &[2]float64{1, 2}}, "changed (expected no change)"},
		{Metric{CI: &[2]float64{1, 2}}, "significant"},
		{Metric{CI: &[2]float64{-1, 2}}, "~"},
	} {
		c.m.BaselineOK, c.m.AfterOK = true, true
		if got := verdictOf(&c.m, 75); got != c.want {
			t.Errorf("%+v: %q, want %q", c.m, got, c.want)
		}
	}
}

// Score forgone is in points with decimals where the scores are real (a
// harness's summed rewards), and a whole count, as ever, where they are whole.
func TestScoreForgoneUnit(t *testing.T) {
	for _, c := range []struct {
		u                     Unit
		v                     float64
		format, signed, bound string
	}{
		{Points, 0.35, "0.35", "+0.35", "+0.35"},
		{Points, 0.30000000000000004, "0.3", "+0.3", "+0.3"},
		{Points, -0.25, "-0.25", "-0.25", "-0.25"},
		{Points, 12, "12", "+12", "+12"},
		{Count, 0.35, "0", "+0", "+0"},
		{Count, 12.5, "13", "+13", "+13"},
	} {
		if f, s, b := c.u.Format(c.v), c.u.Signed(c.v), c.u.Interval(c.v); f != c.format || s != c.signed || b != c.bound {
			t.Errorf("%v of unit %d: %q %q %q, want %q %q %q", c.v, c.u, f, s, b, c.format, c.signed, c.bound)
		}
	}
	unit := func(real bool) Unit {
		for _, e := range shipped(1, real) {
			if e.name == "score_forgone" {
				return e.unit
			}
		}
		t.Fatal("no score_forgone")
		return 0
	}
	if unit(false) != Count || unit(true) != Points {
		t.Errorf("score_forgone in %d (whole scores), %d (real ones)", unit(false), unit(true))
	}
}
