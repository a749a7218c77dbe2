package sweep

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/lbanalyze/lbanalyze/episode"
	"github.com/lbanalyze/lbanalyze/internal/corpus"
	"github.com/lbanalyze/lbanalyze/internal/metrics"
	"github.com/lbanalyze/lbanalyze/internal/synth"
	"github.com/lbanalyze/lbanalyze/internal/textout"
	"github.com/lbanalyze/lbanalyze/policy"
	"github.com/lbanalyze/lbanalyze/source/tales"
	"github.com/lbanalyze/lbanalyze/system"
)

var update = flag.Bool("update", false, "rewrite the golden files of testdata")

// handSet is a episodes of kind A then b of kind B, 100 turns each to the
// turn budget (whole logs), whose outcomes under score-or-objective at
// interval 10 are worked out by hand:
//
//   - A: +5 at turn 5, then flat, no objective. W = 10: the anchor is 5, the
//     check at 20 finds 15 ≥ 10: a stop at 20. W = 35: 40 − 5 = 35 ≥ 35, a
//     stop at 40, saving 60. W = 40: 35 < 40 at 40, 45 at 50: a stop at 50,
//     saving 50. No later gain, no objective, a whole log: truly stuck,
//     every time.
//   - B: +5 at 15, 30, …, 90. W = 10 stops by turn 40 (40 − 30 = 10), with
//     gains still to come: a false termination. W = 35 or 40 never stops: the
//     longest flat run is 15 turns.
//
// No episode has an objective: score gives the same outcomes.
func handSet(t testing.TB, a, b int) []*episode.Episode {
	t.Helper()
	key := [2]int{a, b}
	handMu.Lock()
	defer handMu.Unlock()
	if eps, ok := handSets[key]; ok {
		return cloneEpisodes(eps)
	}
	var eps []*episode.Episode
	for i := range a + b {
		s := synth.Steps{ID: fmt.Sprintf("2025-11-12T%02d:%02d:00", 10+i/60, i%60), N: 100, MaxTurns: 100, Changes: map[int]int{5: 5}}
		if i >= a {
			s.Changes = map[int]int{}
			for k := 1; k <= 6; k++ {
				s.Changes[15*k] = 5 * k
			}
		}
		var buf bytes.Buffer
		if _, err := synth.Write(&buf, s.Episode()); err != nil {
			t.Fatal(err)
		}
		read := corpus.Read([]string{"-"}, corpus.Options{Jobs: 1, Stdin: &buf}).Episodes
		if len(read) != 1 {
			t.Fatalf("%s: %d episodes", s.ID, len(read))
		}
		eps = append(eps, read[0])
	}
	handSets[key] = eps
	return cloneEpisodes(eps)
}

var (
	handMu   sync.Mutex
	handSets = map[[2]int][]*episode.Episode{}
)

// cloneEpisodes copies each episode, so that a test may change its fields.
func cloneEpisodes(eps []*episode.Episode) []*episode.Episode {
	out := make([]*episode.Episode, len(eps))
	for i, ep := range eps {
		c := *ep
		out[i] = &c
	}
	return out
}

func sor(w, interval int) policy.Policy {
	return policy.Policy{Name: policy.ScoreOrObjective}.With(policy.MaxTurnsStuck, w).With(policy.CheckInterval, interval)
}

// handGrid: W = 10 stops B early; 35 saves more than 40 on every A episode.
var handGrid = []policy.Policy{sor(10, 10), sor(35, 10), sor(40, 10)}

// wilson0 is the Wilson upper limit of 0 in n, z²/(n + z²): also Newcombe's
// paired interval of a difference no episode shows is ± it.
func wilson0(n int) float64 {
	z2 := 1.959963984540054 * 1.959963984540054
	return z2 / (float64(n) + z2)
}

// 100 A and 100 B: 35/10 saves 100 × 60 = 6,000 of 20,000 turns (30%), with
// no false termination; now (40/10) 5,000 (25%); 10/10 stops every B early.
// Every fold holds A and B episodes and chooses 35/10 on the others: held
// out, each episode is judged by 35/10, which differs from now on no
// episode's false termination (an interval of ± z²/(200+z²) = ±1.88 pp,
// within the 2 pp margin) and saves 10 more turns on every A (+1,000, its
// interval clear of 0): ship.
func TestAnswerShipsAChange(t *testing.T) {
	r := Run(handSet(t, 100, 100), handGrid, sor(40, 10), opts())
	a := r.Answer
	if a == nil {
		t.Fatalf("no answer: %s", r.NoAnswer)
	}
	if got := r.Configs[a.Config].Policy; got != sor(35, 10) || a.Verdict != Ship {
		t.Fatalf("answer %v %s, want 35/10 shipped: %s", a.Verdict, got, a.Why)
	}
	if a.In.TurnsSaved != 6000 || a.In.Unjudged() != 0 || a.In.SavedShare != 0.3 || a.Now.TurnsSaved != 5000 || a.Now.SavedShare != 0.25 {
		t.Errorf("in sample %+v, now %+v; want 6000 (30%%) and 5000 (25%%), no false termination", a.In, a.Now)
	}
	if w := wilson0(200); a.In.FalseRateCI[0] != 0 || math.Abs(a.In.FalseRateCI[1]-w) > 1e-12 {
		t.Errorf("in sample, false-termination rate 0 of 200: %v, want Wilson's [0, %v]", a.In.FalseRateCI, w)
	}
	want := "[tool.zorkgpt.loop_break]\nmax_turns_stuck = 35\nstuck_check_interval = 10\nenable_objective_based_progress = true\nstuck_warning_threshold = 20\n"
	if a.Block != want {
		t.Errorf("block %q, want %q", a.Block, want)
	}
	if cv := a.CV; cv.Agree != 5 || cv.HeldOutFalseRate != 0 || cv.HeldOutSavedShare != 0.3 {
		t.Errorf("cv %+v, want 5 folds agreeing, 0%% false, 30%% saved", cv)
	}
	if a.Stability != 1 || len(a.Rivals) != 0 || a.HeldOut == nil {
		t.Errorf("stability %v, rivals %v, held out %v; want 1, none, held out", a.Stability, a.Rivals, a.HeldOut != nil)
	}
	ft, saved := metricNamed(a.Versus, "false_termination_rate"), metricNamed(a.Versus, "turns_saved")
	if w := 100 * wilson0(200); ft.Change != 0 || ft.Discordant != [2]int{} || math.Abs(ft.CI[0]+w) > 1e-9 || math.Abs(ft.CI[1]-w) > 1e-9 {
		t.Errorf("versus now, false-termination rate %v %v (discordant %v): want 0 ± %v pp", ft.Change, ft.CI, ft.Discordant, w)
	}
	if saved.Change != 1000 || saved.CI == nil || saved.CI[0] <= 0 {
		t.Errorf("versus now, turns saved %+v: want +1000, its interval clear of 0", saved)
	}
	if r.BestOverall != nil {
		t.Errorf("best overall %s, though ZorkGPT runs every config", r.Configs[r.BestOverall.Config].Policy)
	}
	// What scripts read of the JSON: the config shipped and its index, not
	// kept, within the targets; the interval of the rate the target is
	// judged on (the high bound, Wilson's of 0 in 200), the rate its row
	// gives (0); and the paired interval of the change against now in pp
	// (Tango's, ± the same).
	var b bytes.Buffer
	if err := Write(&b, "json", r, Layout{}); err != nil {
		t.Fatal(err)
	}
	var j struct {
		Answer struct {
			Config       *string
			Index        *int
			KeepCurrent  bool `json:"keep_current"`
			MeetsTargets bool `json:"meets_targets"`
			CI95         map[string][2]float64
			Versus       []struct {
				Name string
				CI95 *[2]float64
			} `json:"versus_current"`
		}
		Configs []map[string]any
	}
	if err := json.Unmarshal(b.Bytes(), &j); err != nil {
		t.Fatal(err)
	}
	ja, w := j.Answer, 100*wilson0(200)
	if ja.Config == nil || *ja.Config != "score-or-objective 35/10" || ja.Index == nil || *ja.Index != 1 || ja.KeepCurrent || !ja.MeetsTargets {
		t.Errorf("json answer: config %v, index %v, keep %v, meets targets %v", ja.Config, ja.Index, ja.KeepCurrent, ja.MeetsTargets)
	}
	if ci := ja.CI95["false_termination_rate"]; ci[0] != 0 || math.Abs(ci[1]-w) > 1e-6 || j.Configs[1]["false_termination_rate"] != 0.0 {
		t.Errorf("json answer: ci95 of the false-termination rate %v, the config's rate %v; want [0, %v] and 0", ci, j.Configs[1]["false_termination_rate"], w)
	}
	i := slices.IndexFunc(ja.Versus, func(m struct {
		Name string
		CI95 *[2]float64
	}) bool {
		return m.Name == "false_termination_rate"
	})
	if i < 0 || ja.Versus[i].CI95 == nil || math.Abs(ja.Versus[i].CI95[0]+w) > 1e-6 || math.Abs(ja.Versus[i].CI95[1]-w) > 1e-6 {
		t.Errorf("json versus_current: %+v, want the false-termination rate's change within ±%v pp", ja.Versus, w)
	}
}

// An over-aggressive now, 10/10 on 100 A and 100 B (handSet): it stops A at
// 20 (saving 80) and every B at 10 (saving 90) before its gains: 17,000
// turns saved, 100 premature stops. 35/10 and 40/10 stop no B and save 6,000
// and 5,000: safer, shown so (100 better of 200, none worse: Tango's upper
// bound far below 0), so the rule takes the other direction and ships the
// safer one that saves the most, 35/10, at a cost of 17,000 − 6,000 = 11,000
// turns. Its break-even is the most it may cost over the fewest it avoids:
// at least 11,000 turns over at most 100 episodes, so above 110 turns an
// episode.
func TestAnswerShipsSaferFromAnOverAggressiveNow(t *testing.T) {
	r := Run(handSet(t, 100, 100), handGrid, sor(10, 10), opts())
	a := r.Answer
	if a == nil || a.Verdict != Ship || !a.Safer || r.Configs[a.Config].Policy != sor(35, 10) {
		t.Fatalf("answer %s (%s), want 35/10 shipped the safer way", answerOf(r), r.NoAnswer)
	}
	ft, sv := metricNamed(a.Versus, "false_termination_rate"), metricNamed(a.Versus, "turns_saved")
	if ft.Discordant != [2]int{0, 100} || ft.Change != -50 || ft.CI[1] >= 0 || sv.Change != -11000 {
		t.Errorf("versus now: discordant %v, change %v (CI %v), turns saved %v; want 0 and 100, −50 pp below 0, −11000",
			ft.Discordant, ft.Change, ft.CI, sv.Change)
	}
	b := a.BreakEven
	if b == nil || !b.Safer || b.Saved > -11000 || b.Episodes < -100 || math.Abs(b.Rate-b.Saved/b.Episodes) > 1e-9 || b.Rate < 110 {
		t.Errorf("break-even %+v: want the safer way, above 110 turns an episode", b)
	}
	j := answerOfJSON(t, r)
	be, _ := j["break_even"].(map[string]any)
	if j["direction"] != "safer" || be == nil || be["ship_if"] != "value_above" || j["episodes_to_settle"] != nil {
		t.Errorf("json answer: direction %v, break_even %v, settle %v", j["direction"], be, j["episodes_to_settle"])
	}
	if h := lineOf(r, "break-even"); !strings.Contains(h, "is worth more than") {
		t.Errorf("the break-even line is %q", h)
	}
	// The ship states what it costs: now, 10/10, stops each B episode at
	// turn 10 (10 − 0 ≥ 10), saving 90, which 35/10 never stops, and each A
	// at 20 (saving 80; 35/10 at 40, saving 60): 100·90 + 100·20 = 11000
	// turns (every fold chose 35/10: the held-out pairs are these); the most
	// it may cost, minus the lower bound of the turns saved; and the
	// break-even of the line below.
	want := []string{fmt.Sprintf("at a cost of 11000 turns (at most %.0f)", -sv.CI[0]), "worth more than " + num(b.Rate) + " turns to you"}
	if h := r.Sections()[0].Headline; !strings.Contains(h, want[0]) || !strings.Contains(h, want[1]) {
		t.Errorf("the ship says %q; want %q", h, want)
	}
	// Priced at $0.01 a call, 4 calls a turn, the same cost in dollars:
	// 11000·4·0.01 = $440.00, with its bound.
	o := opts()
	o.Costs.CostPerCall = 0.01
	priced := Run(handSet(t, 100, 100), handGrid, sor(10, 10), o)
	if h := priced.Sections()[0].Headline; !strings.Contains(h, "at a cost of 11000 turns (at most ") || !strings.Contains(h, " and $440.00 (at most $") {
		t.Errorf("priced, the ship says %q; want its cost in turns and $440.00", h)
	}
	// Its turns saved, below 0, are a cost the rule chose for being the
	// least: the calibration study finds it more in up to 1 sample in 6
	// (docs/calibration.md), and the words say so.
	if v := lineOf(r, "versus now"); !strings.Contains(v, fmt.Sprintf("turns saved -11000 (at least %.0f; chosen as the cheapest safer change, its cost may be more)", sv.CI[0])) {
		t.Errorf("versus now: %q", v)
	}
}

func TestAnswerKeepsTheCurrentSetting(t *testing.T) {
	cases := []struct {
		name     string
		current  policy.Policy
		nowClass []policy.Policy // the configs of the grid with now's outcomes
	}{
		// 35/10 is itself the current setting: the rest save less, or stop
		// B early.
		{"the best is now", sor(35, 10), []policy.Policy{sor(35, 10)}},
		// 30/10, outside the grid, stops A at 40 (40 − 5 = 35 ≥ 30) and B
		// never: 35/10's outcome on every episode, so now's class.
		{"now does as well", sor(30, 10), []policy.Policy{sor(35, 10)}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := Run(handSet(t, 12, 12), handGrid, c.current, opts())
			a := r.Answer
			if a == nil {
				t.Fatalf("no answer: %s", r.NoAnswer)
			}
			const why = "no config ZorkGPT runs as it is saves more turns than now without more false terminations"
			if a.Verdict != Keep || a.Block != "" || !strings.Contains(a.Why, why) || a.Config != -1 || a.Versus != nil {
				t.Errorf("%v (config %d), block %q, why %q; want kept, no block, %q", a.Verdict, a.Config, a.Block, a.Why, why)
			}
			var class []policy.Policy
			for _, i := range r.NowClass {
				class = append(class, r.Configs[i].Policy)
			}
			if fmt.Sprint(class) != fmt.Sprint(c.nowClass) {
				t.Errorf("now's class %v, want %v", class, c.nowClass)
			}
			if a.Now.Tally != r.Current.Tally {
				t.Errorf("now %+v, the current setting %+v", a.Now.Tally, r.Current.Tally)
			}
			j := answerOfJSON(t, r)
			if j["verdict"] != "keep" || j["keep_current"] != true || j["block"] != nil || j["config"] != c.current.String() {
				t.Errorf("json answer: verdict %v, keep %v, block %v, config %v", j["verdict"], j["keep_current"], j["block"], j["config"])
			}
		})
	}
}

// answerOfJSON is the answer of r's JSON.
func answerOfJSON(t *testing.T, r *Result) map[string]any {
	t.Helper()
	var b bytes.Buffer
	if err := Write(&b, "json", r, Layout{}); err != nil {
		t.Fatal(err)
	}
	var j struct{ Answer map[string]any }
	if err := json.Unmarshal(b.Bytes(), &j); err != nil {
		t.Fatal(err)
	}
	return j.Answer
}

// 12 A and 12 B: 35/10 leads as in TestAnswerShipsAChange, but on 24
// episodes no difference of false terminations can be shown within 2 pp: no
// episode differs, and the interval is ± z²/(24+z²) = ±13.8 pp. The count
// that would settle it: a sample with no discordant episode shows the
// margin once z²/(n+z²) ≤ 2%, n ≥ z²·0.98/0.02 = 188.2: 189 episodes.
func TestNoClearWinner(t *testing.T) {
	r := Run(handSet(t, 12, 12), handGrid, sor(40, 10), opts())
	a := r.Answer
	if a == nil || a.Verdict != NoClearWinner || a.Block != "" || r.Configs[a.Config].Policy != sor(35, 10) {
		t.Fatalf("answer %+v (%s), want no clear winner, 35/10 leading", a, r.NoAnswer)
	}
	if a.Settle == nil || (a.Settle.Low != 189 || a.Settle.High != 0) || !strings.Contains(a.Why, "may rise by 13.8 pp, above --ft-margin 2.0 pp") {
		t.Errorf("settle %+v, why %q; want at least 189 and the bound 13.8 pp", a.Settle, a.Why)
	}
	j := answerOfJSON(t, r)
	settle, _ := j["episodes_to_settle"].(map[string]any)
	if j["verdict"] != "no_clear_winner" || j["config"] != nil || j["index"] != nil || j["chosen"] != "score-or-objective 35/10" ||
		settle == nil || settle["low"] != 189.0 || settle["high"] != nil || j["decided_on"] != "held_out" {
		t.Errorf("json answer: %v", j)
	}
	var text bytes.Buffer
	Write(&text, "table", r, Layout{})
	if !strings.Contains(text.String(), "at least 189 episodes would settle it (24 here") {
		t.Errorf("the table does not say how many episodes would settle it:\n%s", text.String())
	}
}

// A grid of one config is compared with now: 35/10 against 40/10 differs on
// the 12 A episodes (10 turns saved each), so the sweep answers; on 200
// episodes it ships.
func TestOneConfigGrid(t *testing.T) {
	for _, c := range []struct {
		a, b int
		want Verdict
	}{{12, 12, NoClearWinner}, {100, 100, Ship}} {
		r := Run(handSet(t, c.a, c.b), []policy.Policy{sor(35, 10)}, sor(40, 10), opts())
		if a := r.Answer; a == nil || a.Verdict != c.want || r.Configs[a.Config].Policy != sor(35, 10) {
			t.Errorf("%d episodes: %s (%s), want %v 35/10", c.a+c.b, answerOf(r), r.NoAnswer, c.want)
		}
	}
}

// The decision on a rule's choice, from its comparison with now on 200
// episodes at a 2 pp margin, by hand: keep a change significantly worse, one
// that saves no more, one shown a margin or more above now's (the lower
// bound of its interval above it); ship one within the margin that saves
// more, stably; a safer one shown to have fewer false terminations, stably;
// else no clear winner, with the count that would settle it
// (stats.PairedSettle, from the discordant episodes: (z + z_β)² = 7.84888;
// at a margin of 2% never below 189, z²·0.98/0.02 = 188.2; 1 worse and 1
// better of 200 have their favourable end at −1.5 pp, as the interval given:
// 7.84888·0.015/0.035² = 96, under that floor).
func TestDecide(t *testing.T) {
	type c struct {
		name          string
		safer         bool
		ftCI          [2]float64 // pp
		worse, better int        // discordant: under the change only, under now only
		savedCI       [2]float64
		saved         float64
		stability     float64
		agree         int
		want          Verdict
		settle        *Settle
		why           string
	}
	for _, c := range []c{
		{"significantly worse", false, [2]float64{0.5, 3}, 5, 1, [2]float64{10, 50}, 30, 1, 5, Keep, nil, "significantly more false terminations"},
		{"saves no more", false, [2]float64{-1.8, 1.8}, 0, 0, [2]float64{-30, 10}, -10, 1, 5, Keep, nil, "saves no more turns"},
		// Now none (no veto, see below): the lower bound, 2.3 pp, is above the
		// margin: no count would show it within.
		{"shown a margin worse", false, [2]float64{2.3, 9}, 12, 0, [2]float64{10, 50}, 30, 1, 5, Keep, nil, "no count of episodes"},
		// 5 worse and 1 better of 200: 2.0%, at the margin, not shown beyond
		// it nor even above 0 (5 of 6 discordant is no significant split:
		// its two-sided binomial p is 0.22): a count at the favourable end
		// (low, unchecked here: TestPairedSettle works them), none at the
		// observed one. Never "1 more".
		{"a margin worse, not shown", false, [2]float64{-0.6, 4.6}, 5, 1, [2]float64{10, 50}, 30, 1, 5, NoClearWinner, &Settle{Low: 0, High: 0}, "above --ft-margin"},
		{"ship", false, [2]float64{-1.5, 1.9}, 1, 1, [2]float64{10, 50}, 30, 1, 5, Ship, nil, ""},
		// The evidence thresholds: 20% of the resamples, 3 of 5 folds. One
		// worse and one better: 7.84888·0.01/0.02² = 196.2, 197 at the
		// discordance observed.
		{"ship at the least stability", false, [2]float64{-1.5, 1.9}, 1, 1, [2]float64{10, 50}, 30, 0.2, 3, Ship, nil, ""},
		{"unstable", false, [2]float64{-1.5, 1.9}, 1, 1, [2]float64{10, 50}, 30, 0.199, 5, NoClearWinner, &Settle{Low: 189, High: 197}, "in only 19.9% of the bootstrap resamples"},
		{"folds disagree", false, [2]float64{-1.5, 1.9}, 1, 1, [2]float64{10, 50}, 30, 1, 2, NoClearWinner, &Settle{Low: 189, High: 197}, "only 2 of the 5 folds choose it"},
		// 2 worse of 200, none better: 7.84888·0.01/(0.02 − 0.01)² = 784.9.
		{"rate not shown within", false, [2]float64{-1, 3}, 2, 0, [2]float64{5, 40}, 20, 1, 5, NoClearWinner, &Settle{Low: 189, High: 785}, "above --ft-margin"},
		// The saving's count: at the saving observed, 200·((z + z_β)·(50/2z)/20)²
		// = 638.5: 639, the high end (the rate's is 197); at its interval's
		// upper bound, 45, 200·((z + z_β)·(50/2z)/45)² = 126.1: 127, under the
		// rate's floor, 189, the low end.
		{"savings within chance", false, [2]float64{-1.5, 1.9}, 1, 1, [2]float64{-5, 45}, 20, 1, 5, NoClearWinner, &Settle{Low: 189, High: 639}, "within chance"},
		// Savings of 5 in [−20, 30]: at 30, 200·((z + z_β)·(50/2z)/30)² =
		// 283.8: 284, above the rate's 189, the low end; at 5, 10216.01: 10217.
		{"savings set the low end", false, [2]float64{-1.5, 1.9}, 1, 1, [2]float64{-20, 30}, 5, 1, 5, NoClearWinner, &Settle{Low: 284, High: 10217}, "within chance"},
		// The other direction: 8 better of 200, none worse, significantly
		// (its upper bound −2 pp < 0), at a cost of 200 turns: ship.
		{"safer, shown", true, [2]float64{-9, -2}, 0, 8, [2]float64{-300, -100}, -200, 1, 5, Ship, nil, ""},
		// 1 worse and 4 better: fewer within chance (upper bound +0.5 pp);
		// to show fewer (margin 0) at the observed −1.5 pp with 2.5%
		// discordant, 7.84888·0.025/0.015² = 872.1: 873.
		{"safer, within chance", true, [2]float64{-5, 0.5}, 1, 4, [2]float64{-300, -100}, -200, 1, 5, NoClearWinner, &Settle{Low: 0, High: 873}, "only within chance"},
		{"safer, no fewer", true, [2]float64{-1, 3}, 2, 1, [2]float64{-300, -100}, -200, 1, 5, Keep, nil, "no fewer false terminations"},
	} {
		r := &Result{Options: opts(), N: 200, Configs: []Config{{Policy: sor(35, 10)}}, Current: &Config{Policy: sor(40, 10)}}
		if c.name == "shown a margin worse" {
			r.Current = &Config{Policy: policy.Policy{Name: policy.None}}
		}
		ms := []metrics.Metric{
			{Name: "false_termination_rate", Change: 100 * float64(c.worse-c.better) / 200, CI: &c.ftCI, Discordant: [2]int{c.worse, c.better}},
			{Name: "turns_saved", Change: c.saved, CI: &c.savedCI},
		}
		a := &Answer{Choice: Choice{Config: 0, Stability: c.stability, CV: CV{Folds: 5, Agree: c.agree}}, HeldOut: ms, Versus: ms, Safer: c.safer}
		r.decide(a)
		settleOK := (a.Settle == nil) == (c.settle == nil)
		if settleOK && c.settle != nil {
			settleOK = a.Settle.High == c.settle.High && (c.settle.Low == 0 || a.Settle.Low == c.settle.Low)
		}
		if a.Verdict != c.want || !settleOK || !strings.Contains(a.Why, c.why) {
			t.Errorf("%s: %v, settle %+v, why %q; want %v, %+v, %q", c.name, a.Verdict, a.Settle, a.Why, c.want, c.settle, c.why)
		}
	}
}

// A BALROG-like model, 30 runs against no stop rule (a harness): the named
// config stops no run before a later gain (0 worse, 0 better), but one fold
// chose a more aggressive config, so the rule's held-out pairs have 2 worse
// runs: 6.7 pp observed, at or above the 2 pp margin. That is no evidence that
// no count would show it within the margin (the held-out lower bound, −5.4
// pp, is not above it): no clear winner, never "no number of episodes". The
// count to settle it is the held-out pairs', which the verdict was taken on:
// at Δ observed, 2/30 ≥ the margin, no upper estimate; at the favourable
// end at least the floor, 189 (z²·0.98/0.02 = 188.2), above the 30 here.
func TestDecideOnTheHeldOutPairs(t *testing.T) {
	r := &Result{Options: opts(), N: 30, Configs: []Config{{Policy: sor(35, 10)}}, Current: &Config{Policy: policy.Policy{Name: policy.None}}}
	held, own := [2]float64{-5.4, 21.3}, [2]float64{-11.35, 11.35}
	saved := [2]float64{40, 90}
	a := &Answer{Choice: Choice{Config: 0, Stability: 1, CV: CV{Folds: 5, Agree: 4}},
		HeldOut: []metrics.Metric{
			{Name: "false_termination_rate", Change: 100 * 2.0 / 30, CI: &held, Discordant: [2]int{2, 0}},
			{Name: "turns_saved", Change: 60, CI: &saved},
		},
		Versus: []metrics.Metric{
			{Name: "false_termination_rate", Change: 0, CI: &own, Discordant: [2]int{0, 0}},
			{Name: "turns_saved", Change: 60, CI: &saved},
		}}
	r.decide(a)
	if a.Verdict != NoClearWinner || a.Settle == nil || *a.Settle != (Settle{Low: 189, HeldOut: true, Worse: 2}) || strings.Contains(a.Why, "no count") {
		t.Errorf("%v, settle %+v, why %q; want no clear winner, at least 189 from the held-out 2 worse", a.Verdict, a.Settle, a.Why)
	}
	if w := r.settleWords(a.Settle); w != "at least 189 episodes would settle it (30 here; from the held-out pairs: 2 episodes worse under it than under now, 0 better)" {
		t.Errorf("settle words %q", w)
	}
}

// At n = 200 the named config is within the margin on its own pairs (0
// worse, 0 better: ±z²/(200+z²) = ±1.9 pp), but the held-out pairs, which
// the verdict is taken on, have 2 worse, 0 better: upper bound above the
// margin, no clear winner. Their count, at the favourable end of their
// interval the floor 189, as observed (1.959964 + 0.841621)²·0.01/(0.02 −
// 0.01)² = 784.9: 785. 189 ≤ 200 is no count that would settle it: the
// words say what blocks, the held-out discordance observed, and give 785 as
// observed, never "at least 189". With 1 worse and 1 better of 200 (Δ = 0,
// 1% discordant: 7.84888·0.01/0.02² = 196.2, 197) and an unstable choice,
// both ends are within the 200 here: the count is not what withholds it.
func TestSettleNeverAtMostN(t *testing.T) {
	for _, c := range []struct {
		worse, better int
		heldCI        [2]float64
		stability     float64
		want          Settle
		words, never  string
	}{
		{2, 0, [2]float64{-0.9, 3.6}, 1, Settle{Low: 189, High: 785, HeldOut: true, Worse: 2},
			"as observed, about 785 episodes would settle it (200 here; from the held-out pairs: 2 episodes worse under it than " +
				"under now, 0 better); at the favourable end of its interval these would, so what blocks it is the discordance observed, not the count",
			"189"},
		{1, 1, [2]float64{-1.5, 1.5}, 0.1, Settle{Low: 189, High: 197, HeldOut: true, Worse: 1, Better: 1},
			"the 200 episodes here are as many as settling it needs (from the held-out pairs: 1 episode worse under it than under " +
				"now, 1 better), so what withholds it is the rest said here, not the count",
			"would settle it ("},
	} {
		r := &Result{Options: opts(), N: 200, Configs: []Config{{Policy: sor(35, 10)}}, Current: &Config{Policy: sor(40, 10)}}
		own, saved := [2]float64{-1.9, 1.9}, [2]float64{40, 90}
		a := &Answer{Choice: Choice{Config: 0, Stability: c.stability, CV: CV{Folds: 5, Agree: 5}},
			HeldOut: []metrics.Metric{
				{Name: "false_termination_rate", Change: float64(c.worse-c.better) / 2, CI: &c.heldCI, Discordant: [2]int{c.worse, c.better}},
				{Name: "turns_saved", Change: 60, CI: &saved},
			},
			Versus: []metrics.Metric{
				{Name: "false_termination_rate", Change: 0, CI: &own, Discordant: [2]int{0, 0}},
				{Name: "turns_saved", Change: 60, CI: &saved},
			}}
		r.decide(a)
		if a.Verdict != NoClearWinner || a.Settle == nil || *a.Settle != c.want {
			t.Errorf("%d worse, %d better: %v, settle %+v; want no clear winner, %+v", c.worse, c.better, a.Verdict, a.Settle, c.want)
			continue
		}
		if w := r.settleWords(a.Settle); w != c.words || strings.Contains(w, c.never) {
			t.Errorf("%d worse, %d better: settle words %q", c.worse, c.better, w)
		}
		if !a.Settle.Reached(r.N) {
			t.Errorf("%d worse, %d better: the low end %d not reached at n = 200", c.worse, c.better, a.Settle.Low)
		}
	}
}

// A harness's logs, 40, 41, 44 and 48 runs against no stop rule: 35/10
// stops every A run, truly stuck, and no B run (handSet), so it differs from
// now on no run's false termination: at least 189 runs would settle it,
// whatever the count read, never n + 1 as a target that recedes.
func TestSettleDoesNotFollowN(t *testing.T) {
	none := policy.Policy{Name: policy.None}
	for _, n := range []int{40, 41, 44, 48} {
		r := Run(handSet(t, n/2, n-n/2), handGrid, none, opts())
		a := r.Answer
		if a == nil || a.Verdict != NoClearWinner || r.Configs[a.Config].Policy != sor(35, 10) || a.Settle == nil || (a.Settle.Low != 189 || a.Settle.High != 0) {
			t.Errorf("%d runs: %s (%s), settle %+v; want no clear winner, 35/10 leading, at least 189", n, answerOf(r), r.NoAnswer, a.Settle)
			continue
		}
		if h := r.Sections()[0].Headline; !strings.Contains(h, fmt.Sprintf("at least 189 episodes would settle it (%d here", n)) {
			t.Errorf("%d runs: %q", n, h)
		}
	}
}

func TestNoAnswer(t *testing.T) {
	cases := []struct {
		name string
		a, b int
		grid []policy.Policy
		want string
	}{
		{"too few episodes", 10, 9, handGrid, "19 episodes, too few to choose a setting"},
		// Without W = 10, B episodes have the same outcome under every config
		// and now: only the 3 A episodes tell 35 from 40.
		{"too few stops", 3, 21, handGrid[1:], "only 3 of the 24 episodes have outcomes that differ between the configs and now"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := Run(handSet(t, c.a, c.b), c.grid, sor(40, 10), opts())
			if r.Answer != nil || !strings.Contains(r.NoAnswer, c.want) {
				t.Fatalf("answer %v, no answer %q; want none, saying %q", r.Answer, r.NoAnswer, c.want)
			}
			for _, format := range []string{"table", "markdown"} {
				var b bytes.Buffer
				if err := Write(&b, format, r, Layout{}); err != nil {
					t.Fatal(err)
				}
				if strings.Contains(b.String(), "[tool.zorkgpt") || !strings.Contains(b.String(), "No answer: ") {
					t.Errorf("%s: a block to paste, or no word of why not:\n%s", format, b.String())
				}
			}
		})
	}
}

// How the configs the system runs fare against the targets, on hand-made
// tallies of n = 20 episodes: 5% false terminations = 1 episode (high bound:
// unknown and censored outcomes count), and with --max-censored 2% no
// censored outcome at all.
func TestLimits(t *testing.T) {
	cases := []struct {
		name                         string
		tallies                      []Tally
		meets, lowest, leastCensored int
	}{
		{"the false-termination rate", []Tally{{FalseTerminations: 2, TurnsSaved: 100}, {FalseTerminations: 3, TurnsSaved: 300}}, -1, 0, -1},
		// 0 meets the false-termination target but is censored; within the
		// censoring limit only 1, at 2 of 20.
		{"censoring", []Tally{{TurnsSaved: 100, Censored: 1}, {FalseTerminations: 2, TurnsSaved: 50}}, -1, 1, 0},
		{"censoring alone", []Tally{{TurnsSaved: 100, Censored: 1}}, -1, -1, 0},
		// 1 and 2 meet both: 2 saves more, and has the lowest rate.
		{"some meet both", []Tally{{Unknown: 2, TurnsSaved: 400}, {Unknown: 1, TurnsSaved: 100}, {TurnsSaved: 200}}, 2, 2, 1},
	}
	for _, c := range cases {
		o := opts()
		o.MaxCensored = 0.02
		r := &Result{Options: o, N: 20}
		var idx []int
		for i, tl := range c.tallies {
			r.Configs = append(r.Configs, Config{Tally: tl})
			idx = append(idx, i)
		}
		if l := r.limits(idx); l.MeetsBoth != c.meets || l.LowestFalse != c.lowest || l.LeastCensored != c.leastCensored {
			t.Errorf("%s: %+v, want meets both %d, lowest %d, least censored %d", c.name, l, c.meets, c.lowest, c.leastCensored)
		}
	}
}

// The front best first by the rule, on hand-made tallies (n = 20), now with
// 2 outcomes the logs cannot show fine: within the rule's reach (no more
// than now's, censored within 10%) by turns saved; then the rest, censored
// within the limit first, by fewer such outcomes.
func TestFrontRanked(t *testing.T) {
	tallies := []Tally{
		{FalseTerminations: 1, TurnsSaved: 100},                              // 0: within reach
		{FalseTerminations: 1, Unknown: 1, TurnsSaved: 150},                  // 1: within reach, more saved
		{FalseTerminations: 4, TurnsSaved: 380},                              // 2: 4 > 2
		{TurnsSaved: 400, ScoreForgone: 50, Censored: 5},                     // 3: censored 25%
		{FalseTerminations: 3, TurnsSaved: 350},                              // 4: 3 > 2
		{FalseTerminations: 1, TurnsSaved: 90, Censored: 1, ScoreForgone: 0}, // 5: within reach, dominated by 0
	}
	o := opts()
	o.System = system.ZorkGPT
	r := &Result{Options: o, N: 20, TotalTurns: 1000}
	for i, tl := range tallies {
		tl.sig = [2]uint64{uint64(i + 1)}
		r.Configs = append(r.Configs, Config{Policy: sor(10+5*i, 10), Tally: tl})
		r.Runnable = append(r.Runnable, true)
	}
	r.setCurrent(&Config{Policy: sor(40, 10), Tally: Tally{FalseTerminations: 2, TurnsSaved: 60}})
	r.classify()
	r.Front = front(r.Configs, r.outcomes(), r.saved)
	rows, ranks := r.FrontTable(3)
	var got []int
	for _, row := range rows {
		got = append(got, row.Config)
	}
	if want := []int{1, 0, 4, -1}; fmt.Sprint(got) != fmt.Sprint(want) || ranks != 5 {
		t.Errorf("rows %v of %d ranks, want %v of 5 (the first 3, then now)", got, ranks, want)
	}
	rows, _ = r.FrontTable(0)
	got = got[:0]
	for _, row := range rows {
		got = append(got, row.Config)
	}
	if want := []int{1, 0, 4, 2, 3, -1}; fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("every row: %v, want %v", got, want)
	}
}

// Configs with the same outcomes on every episode are one class, one row,
// chosen as one through the member nearest to now: on handSet (no
// objectives) score and score-or-objective at the same settings agree
// everywhere, and so do all that never stop. Against now, score-or-objective
// 40/10: score-or-objective 35/10 changes 1 setting, score 35/10 two; of the
// configs that never stop (W = 145 and 150, A's 95 flat turns being too
// few), 145/10 first in grid order among those one setting away.
func TestTies(t *testing.T) {
	score := func(w, i int) policy.Policy {
		return policy.Policy{Name: policy.Score}.With(policy.MaxTurnsStuck, w).With(policy.CheckInterval, i)
	}
	grid := []policy.Policy{score(35, 10), sor(35, 10), sor(10, 10), score(150, 10), sor(145, 10), sor(150, 10)}
	r := Run(handSet(t, 100, 100), grid, sor(40, 10), opts())
	classes := map[string][]string{}
	for rep, members := range r.Classes {
		var names []string
		for _, i := range members {
			names = append(names, r.Configs[i].Policy.String())
		}
		classes[r.Configs[rep].Policy.String()] = names
	}
	want := map[string][]string{
		"score-or-objective 35/10":  {"score-or-objective 35/10", "score 35/10"},
		"score-or-objective 10/10":  {"score-or-objective 10/10"},
		"score-or-objective 145/10": {"score-or-objective 145/10", "score-or-objective 150/10", "score 150/10"},
	}
	if fmt.Sprint(classes) != fmt.Sprint(want) {
		t.Errorf("classes %v, want %v", classes, want)
	}
	a := r.Answer
	if a == nil || a.Verdict != Ship || r.Configs[a.Config].Policy != sor(35, 10) || len(r.ClassOf(a.Config)) != 2 {
		t.Fatalf("answer %s (class of %d), want to ship score-or-objective 35/10, a class of 2", answerOf(r), len(r.ClassOf(a.Config)))
	}
	var text bytes.Buffer
	Write(&text, "table", r, Layout{})
	for _, w := range []string{"It stands for 2 configs with the same outcome on every episode, the nearest to now: score-or-objective 35/10 = score 35/10.",
		"│   1 │ score-or-objective 35/10 = score 35/10 "} {
		if !strings.Contains(text.String(), w) {
			t.Errorf("the table lacks %q:\n%s", w, text.String())
		}
	}
	// The configs that never stop save nothing: off the front (35/10 saves
	// more with no more false terminations), never chosen.
	for rep, members := range r.Classes {
		if len(members) == 3 && (r.Configs[rep].Pareto || a.Config == rep) {
			t.Errorf("%s, which never stops, is on the front or chosen", r.members(members))
		}
	}
}

// The folds: n/k episodes each or one more, none empty even with k = n, by
// the episode ids alone, whatever the order and the paths.
func TestFolds(t *testing.T) {
	eps := handSet(t, 12, 13)
	for _, k := range []int{2, 5, 7, 25} {
		fold := Folds(eps, k)
		size := make([]int, k)
		for _, f := range fold {
			size[f]++
		}
		if lo, hi := slices.Min(size), slices.Max(size); lo != 25/k || hi > lo+1 {
			t.Errorf("k = %d: folds of %v", k, size)
		}
		moved := cloneEpisodes(eps)
		slices.Reverse(moved)
		for _, ep := range moved {
			ep.Source = "elsewhere/" + ep.Source
		}
		again := Folds(moved, k)
		for i := range eps {
			if again[len(eps)-1-i] != fold[i] {
				t.Fatalf("k = %d: episode %s in fold %d, moved and reordered in %d", k, eps[i].ID, fold[i], again[len(eps)-1-i])
			}
		}
	}
}

// Logs that record no id are named by their path below the directory the
// user points at (docs/sources.md, "Episode ids"): "claude/run07" under
// `sweep --by dir:1 runs`, "run07" under `sweep runs/claude`. Their folds
// come from their content, so both pointings deal them alike and print the
// same held-out figures; two episodes of other content fall apart as ids
// would.
func TestFoldsIndependentOfWhereTheUserPoints(t *testing.T) {
	eps := deepClone(handSet(t, 12, 13))
	for i, ep := range eps {
		ep.IDFromPath = true
		ep.ID, ep.Source = fmt.Sprintf("claude/run%02d", i), fmt.Sprintf("runs/claude/run%02d.jsonl", i)
	}
	pointed := deepClone(eps)
	for i, ep := range pointed {
		ep.ID, ep.Source = fmt.Sprintf("run%02d", i), fmt.Sprintf("runs/claude/run%02d.jsonl", i)
	}
	// Every A is a copy of every other (and every B): the hash of content
	// alone cannot tell copies apart, the id breaks the tie; so give each
	// its own first action, as real runs differ.
	for i := range eps {
		eps[i].Turns[0].Action, pointed[i].Turns[0].Action = fmt.Sprintf("look %d", i), fmt.Sprintf("look %d", i)
	}
	if a, b := Folds(eps, 5), Folds(pointed, 5); !slices.Equal(a, b) {
		t.Errorf("folds by dir:1 %v, pointed at the model %v", a, b)
	}
	byDir, direct := Run(eps, handGrid, sor(40, 10), opts()), Run(pointed, handGrid, sor(40, 10), opts())
	if x, y := byDir.Answer, direct.Answer; x == nil || y == nil || !slices.Equal(x.CV.Chosen, y.CV.Chosen) ||
		x.CV.HeldOutFalseRate != y.CV.HeldOutFalseRate || x.CV.HeldOutSavedShare != y.CV.HeldOutSavedShare || lineOf(byDir, "held out") != lineOf(direct, "held out") {
		t.Errorf("held out by dir:1 %q, pointed at the model %q", lineOf(byDir, "held out"), lineOf(direct, "held out"))
	}
	// With recorded ids the id alone counts, whatever the content.
	recorded := deepClone(eps)
	for i, ep := range recorded {
		ep.IDFromPath, ep.ID = false, fmt.Sprintf("id%02d", i)
	}
	moved := deepClone(recorded)
	for _, ep := range moved {
		ep.Turns[0].Action = "other"
	}
	if a, b := Folds(recorded, 5), Folds(moved, 5); !slices.Equal(a, b) {
		t.Errorf("recorded ids: folds %v, with other content %v", a, b)
	}
}

// deepClone copies episodes and their turns.
func deepClone(eps []*episode.Episode) []*episode.Episode {
	out := cloneEpisodes(eps)
	for _, ep := range out {
		ep.Turns = slices.Clone(ep.Turns)
	}
	return out
}

// The same episodes read from two spellings of their paths give the same
// answer, byte for byte.
func TestSameEpisodesTwoPaths(t *testing.T) {
	eps := bundled(t)
	moved := cloneEpisodes(eps)
	for _, ep := range moved {
		ep.Source = "./" + strings.ReplaceAll(ep.Source, "/", "//")
	}
	var a, b bytes.Buffer
	Write(&a, "json", Run(eps, defaultGrid(), current, opts()), Layout{})
	Write(&b, "json", Run(moved, defaultGrid(), current, opts()), Layout{})
	if !bytes.Equal(a.Bytes(), b.Bytes()) {
		t.Error("the same episodes under other paths give another answer")
	}
}

// The text formats of the hand sets, as goldens (go test ./sweep -update
// rewrites them); the figures in them are the worked ones of the tests above.
func TestGoldens(t *testing.T) {
	cases := []struct {
		name    string
		a, b    int
		current policy.Policy
	}{
		{"ship", 100, 100, sor(40, 10)},
		{"keep", 12, 12, sor(35, 10)},
		{"unclear", 12, 12, sor(40, 10)},
		{"none", 10, 9, sor(40, 10)},
	}
	for _, c := range cases {
		r := Run(handSet(t, c.a, c.b), handGrid, c.current, opts())
		for _, format := range []string{"table", "markdown", "json"} {
			var b bytes.Buffer
			if err := Write(&b, format, r, Layout{}); err != nil {
				t.Fatal(err)
			}
			path := filepath.Join("testdata", c.name+"."+map[string]string{"table": "txt", "markdown": "md", "json": "json"}[format])
			if *update {
				os.MkdirAll("testdata", 0o755)
				if err := os.WriteFile(path, b.Bytes(), 0o644); err != nil {
					t.Fatal(err)
				}
				continue
			}
			want, err := os.ReadFile(path)
			if err != nil || !bytes.Equal(b.Bytes(), want) {
				t.Errorf("%s differs from %s (go test ./sweep -update rewrites it):\n%s", format, path, b.String())
			}
		}
	}
}

// A front wider than the terminal wraps its notes and leaves out its least
// telling columns, and the fit says so; without a width it is whole.
func TestFitTable(t *testing.T) {
	r := Run(handSet(t, 12, 12), handGrid, sor(40, 10), opts())
	var whole, narrow bytes.Buffer
	Write(&whole, "table", r, Layout{Rows: DefaultRows})
	fit := &textout.Fit{Width: 70}
	Write(&narrow, "table", r, Layout{Rows: DefaultRows, Fit: fit})
	if !strings.Contains(whole.String(), "score forgone") {
		t.Errorf("without a width the table is not whole:\n%s", whole.String())
	}
	if !strings.Contains(fit.Note(), "left out: score forgone, censored (front)") || strings.Contains(narrow.String(), "score forgone │") {
		t.Errorf("fitted to 70 columns, the front keeps score forgone, or the note (%q) does not say so:\n%s", fit.Note(), narrow.String())
	}
	for line := range strings.Lines(narrow.String()) {
		if strings.HasPrefix(line, "│") || strings.HasPrefix(line, "┌") {
			if w := textout.TextWidth(strings.TrimSuffix(line, "\n")); w > 70 {
				t.Errorf("a table line of %d columns: %q", w, line)
			}
		}
	}
}

// The system decides which configs the answer may name and how its block is
// written: on logs of a harness that runs any rule, window 35/10 is answered
// with its rule in a sentence; on ZorkGPT's, the same grid of window configs
// gets no answer, as ZorkGPT runs none of them as it is.
func TestSystemSeam(t *testing.T) {
	harness := &system.System{Name: "a harness", File: "the harness's settings", Lang: "text",
		Block: func(p policy.Policy) (string, error) {
			return fmt.Sprintf("%s; max_turns_stuck = %d, checked every %d turns\n", p.Kind().Description, p.MaxTurnsStuck(), p.CheckInterval()), nil
		}}
	window := func(w int) policy.Policy { return policy.Policy{Name: policy.Window}.With(policy.MaxTurnsStuck, w) }
	grid := []policy.Policy{window(10), window(35), window(40)}

	eps := handSet(t, 100, 100)
	if r := Run(eps, grid, sor(40, 10), opts()); r.System != system.ZorkGPT || r.Answer != nil || !strings.Contains(r.NoAnswer, "no config of this grid runs on ZorkGPT") {
		t.Errorf("ZorkGPT (%s), a grid of window: answer %v, no answer %q", r.System.Name, r.Answer, r.NoAnswer)
	}
	o := opts()
	o.System = harness
	r := Run(eps, grid, sor(40, 10), o)
	want := policy.Policy{Name: policy.Window}.Kind().Description + "; max_turns_stuck = 35, checked every 10 turns\n"
	if a := r.Answer; a == nil || r.Configs[a.Config].Policy != window(35) || a.Block != want || r.BestOverall != nil {
		t.Fatalf("the harness: answer %+v (%s), want window 35/10 with the block %q", a, r.NoAnswer, want)
	}
}

func score(w, interval int) policy.Policy {
	return policy.Policy{Name: policy.Score}.With(policy.MaxTurnsStuck, w).With(policy.CheckInterval, interval)
}

// A harness's logs (TALES's, say) are the Harness system's:
// the answer is a config it runs on the score alone, its block the rule in
// words, and now is no stop rule. On handSet, score is score-or-objective
// (no objective): 35/10 saves 60 turns on every A, 6,000 of 20,000, with no
// false termination, as in TestAnswerShipsAChange; none saves nothing.
func TestHarnessAnswer(t *testing.T) {
	eps := handSet(t, 100, 100)
	for _, ep := range eps {
		ep.Format = tales.Format
	}
	window := policy.Policy{Name: policy.Window}.With(policy.MaxTurnsStuck, 35)
	grid := []policy.Policy{score(10, 10), score(35, 10), score(40, 10), sor(35, 10), window}
	none := policy.Policy{Name: policy.None}
	r := Run(eps, grid, none, opts()) // the system from the episodes
	if r.System != system.Harness {
		t.Fatalf("Run chose the system %s", r.System.Name)
	}
	if want := []bool{true, true, true, false, false}; fmt.Sprint(r.Runnable) != fmt.Sprint(want) {
		t.Errorf("runnable %v, want %v (score-or-objective and window need objectives)", r.Runnable, want)
	}
	a := r.Answer
	if a == nil || r.Configs[a.Config].Policy != score(35, 10) || a.Verdict != Ship {
		t.Fatalf("answer %s (%s), want to ship score 35/10", answerOf(r), r.NoAnswer)
	}
	if a.In.TurnsSaved != 6000 || a.In.Unjudged() != 0 || a.Now.TurnsSaved != 0 {
		t.Errorf("saved %d with %d false terminations (now %d), want 6000, 0 (0)", a.In.TurnsSaved, a.In.Unjudged(), a.Now.TurnsSaved)
	}
	if block, err := system.Harness.Block(score(35, 10)); err != nil || a.Block != block {
		t.Errorf("block %q, want the harness's %q (%v)", a.Block, block, err)
	}
	// score-or-objective 35/10 and window 35/10 have score 35/10's outcomes
	// everywhere: one class, score 35/10 first in grid order (each changes
	// as many settings of none); no better config overall.
	if r.BestOverall != nil {
		t.Errorf("best overall %s, want none", r.Configs[r.BestOverall.Config].Policy)
	}
	var out bytes.Buffer
	if err := Write(&out, "table", r, Layout{}); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"Answer for your harness: ship score 35/10 (now none)", "Paste into your harness's step loop (Python; in another language, the first comment is the rule):",
		"elif score != self.tracked:  # any change, up or down"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("the table lacks %q:\n%s", want, out.String())
		}
	}
}

// --rank tokens ranks by the tokens saved in the one rule of the answer, the
// best overall and the front. Under score at W = 20 and no later gain:
//
//   - 12 episodes gain at turn 5: interval 10 stops at 30 (saving 70 of 100),
//     7 at 28 (72); a turn costs 1,000 tokens.
//   - 12 gain at turn 10: interval 10 stops at 30 (70), 7 at 35 (65); a turn
//     costs 1 token.
//
// By turns 20/10 saves 1,680 and 20/7 1,644; by tokens 20/10 saves
// 12 × 70,000 + 12 × 70 = 840,840 and 20/7 12 × 72,000 + 12 × 65 = 864,780.
// Now, 40/10, stops both kinds at 50.
func TestAnswerRanksByTokens(t *testing.T) {
	var eps []*episode.Episode
	for i := range 24 {
		at, cost := 5, int64(1000)
		if i >= 12 {
			at, cost = 10, 1
		}
		var buf bytes.Buffer
		s := synth.Steps{ID: fmt.Sprintf("2025-11-12T10:%02d:00", i), N: 100, MaxTurns: 100, Changes: map[int]int{at: 5}}
		if _, err := synth.Write(&buf, s.Episode()); err != nil {
			t.Fatal(err)
		}
		ep := corpus.Read([]string{"-"}, corpus.Options{Jobs: 1, Stdin: &buf}).Episodes[0]
		ep.Signals = ep.Signals.With(episode.Tokens)
		for k := range ep.Turns {
			ep.Turns[k].Tokens = cost
		}
		eps = append(eps, ep)
	}
	grid := []policy.Policy{score(20, 10), score(20, 7)}
	for _, c := range []struct {
		byTokens        bool
		want            policy.Policy
		turns           int
		tokens, heldOut int64
	}{
		{false, score(20, 10), 1680, 840_840, 0},
		{true, score(20, 7), 1644, 864_780, 864_780}, // every fold holds an episode of each kind: each chooses 20/7
	} {
		o := opts()
		o.ByTokens = c.byTokens
		r := Run(eps, grid, score(40, 10), o)
		a := r.Answer
		if a == nil || a.Verdict == Keep || r.Configs[a.Config].Policy != c.want {
			t.Fatalf("by tokens %v: answer %s (%s), want %s to lead", c.byTokens, answerOf(r), r.NoAnswer, c.want)
		}
		if a.In.TurnsSaved != c.turns || a.In.TokensSaved != c.tokens {
			t.Errorf("by tokens %v: %d turns and %d tokens saved, want %d and %d", c.byTokens, a.In.TurnsSaved, a.In.TokensSaved, c.turns, c.tokens)
		}
		if c.byTokens && (a.CV.Agree != a.CV.Folds || a.CV.HeldOutTokensSaved != c.heldOut) {
			t.Errorf("held out: %d of %d folds agree, %d tokens saved, want all and %d", a.CV.Agree, a.CV.Folds, a.CV.HeldOutTokensSaved, c.heldOut)
		}
		if rows, _ := r.FrontTable(0); r.Configs[rows[0].Config].Policy != c.want {
			t.Errorf("by tokens %v: the front's first row is %s, want %s", c.byTokens, r.Configs[rows[0].Config].Policy, c.want)
		}
		if r.BestOverall != nil {
			t.Errorf("by tokens %v: a best overall, %s, where ZorkGPT runs both", c.byTokens, r.Configs[r.BestOverall.Config].Policy)
		}
	}
}

// answerOf names the answer's config in a message, and whether it is kept.
func answerOf(r *Result) string {
	a := r.Answer
	switch {
	case a == nil:
		return "none"
	case a.Verdict == Keep:
		return "keep " + r.Current.Policy.String()
	case a.Verdict == NoClearWinner:
		return "no clear winner, " + r.Configs[a.Config].Policy.String() + " leading"
	}
	return "ship " + r.Configs[a.Config].Policy.String()
}

// Run leaves out, before it chooses anything, the configs the logs cannot
// replay (score-or-objective needs objectives, which these logs are made to
// lack), and replaces such a current setting with none: the answer is among
// the configs kept: score 35/10 leads, saving 12 × 60 = 720 turns (on 24
// episodes, no clear winner).
func TestRunLeavesOutWhatLogsLack(t *testing.T) {
	eps := handSet(t, 12, 12)
	for _, ep := range eps {
		ep.Signals &^= episode.Signals(episode.Objectives)
	}
	r := Run(eps, []policy.Policy{sor(35, 10), score(35, 10), score(40, 10)}, sor(40, 10), opts())
	var kept []string
	for _, c := range r.Configs {
		kept = append(kept, c.Policy.String())
	}
	if fmt.Sprint(kept) != "[score 35/10 score 40/10]" || r.Current.Policy.Name != policy.None || len(r.LeftOut) != 2 {
		t.Fatalf("kept %v, now %s, left out %q; want the score configs, none, and a note for each", kept, r.Current.Policy, r.LeftOut)
	}
	if a := r.Answer; a == nil || r.Configs[a.Config].Policy != score(35, 10) || a.In.TurnsSaved != 720 || a.Verdict != NoClearWinner {
		t.Errorf("answer %s (%s), want score 35/10 leading, saving 720 turns", answerOf(r), r.NoAnswer)
	}
	// Nothing the logs can replay: no config, and no answer.
	if r := Run(eps, []policy.Policy{sor(35, 10)}, sor(40, 10), opts()); len(r.Configs) != 0 || r.Answer != nil || r.BestOverall != nil {
		t.Errorf("a grid the logs cannot replay: %d configs, answer %s", len(r.Configs), answerOf(r))
	}
}

// Stand is where a change stands, on its interval alone: the same for the
// answer and for check. Margin 2 pp; now a stop rule vetoes a significant
// rise, now none does not (every stop rule adds false terminations to it).
func TestStand(t *testing.T) {
	none := policy.Policy{Name: policy.None}
	for _, c := range []struct {
		ci   *[2]float64
		now  policy.Policy
		want Standing
	}{
		{&[2]float64{-1.5, 1.9}, current, ShownWithin},
		{&[2]float64{-1.5, 2.0}, current, ShownWithin}, // at the margin, within
		{&[2]float64{-1.5, 2.1}, current, NotShown},
		{&[2]float64{0.5, 1.9}, current, SignificantlyWorse}, // within the margin, yet significantly worse
		{&[2]float64{0.5, 1.9}, none, ShownWithin},
		{&[2]float64{2.3, 9}, none, BeyondMargin},
		{&[2]float64{2.3, 9}, current, SignificantlyWorse},
		{nil, current, NotShown},
	} {
		if got := Stand(&metrics.Metric{CI: c.ci}, c.now, 0.02); got != c.want {
			t.Errorf("%v against %v: %v, want %v", c.ci, c.now, got, c.want)
		}
	}
}

// TestSettleWordsNameTheSaving: the words say when the saving's count sets
// the low end. 1 worse and 1 better of 200 (the rate's low end the floor,
// 189; as observed 197), the saving within chance, 50 wide (se 50/2z):
// saving 5 of [−20, 30], at 30 200·((z + z_β)·se/30)² = 283.8: 284, above
// 189, the low end; at 5, 10216.01: 10217, the high end.
func TestSettleWordsNameTheSaving(t *testing.T) {
	const from = "from the held-out pairs: 1 episode worse under it than under now, 1 better"
	for _, c := range []struct {
		savedCI [2]float64
		saved   float64
		want    Settle
		words   string
	}{
		{[2]float64{-20, 30}, 5, Settle{Low: 284, High: 10217, Saved: 284, HeldOut: true, Worse: 1, Better: 1},
			"284 to 10217 episodes would settle it (200 here; " + from + "; the low end is what would show the turns it saves, " +
				"at the upper bound of their interval: the first at the favourable end of its interval, the second as observed)"},
	} {
		r := &Result{Options: opts(), N: 200, Configs: []Config{{Policy: sor(35, 10)}}, Current: &Config{Policy: sor(40, 10)}}
		ms := []metrics.Metric{
			{Name: "false_termination_rate", Change: 0, CI: &[2]float64{-1.5, 1.9}, Discordant: [2]int{1, 1}},
			{Name: "turns_saved", Change: c.saved, CI: &c.savedCI},
		}
		a := &Answer{Choice: Choice{Config: 0, Stability: 1, CV: CV{Folds: 5, Agree: 5}}, HeldOut: ms, Versus: ms}
		r.decide(a)
		if a.Verdict != NoClearWinner || a.Settle == nil || *a.Settle != c.want {
			t.Errorf("saving %v: %v, settle %+v; want no clear winner, %+v", c.saved, a.Verdict, a.Settle, c.want)
			continue
		}
		if w := r.settleWords(a.Settle); w != c.words {
			t.Errorf("saving %v: settle words %q, want %q", c.saved, w, c.words)
		}
	}
}
