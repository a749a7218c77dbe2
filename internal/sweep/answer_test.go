package sweep

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
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

// handSet is a episodes of kind A then b of kind B, 100 turns each, whose
// outcomes under score-or-objective at interval 10 are worked out by hand:
//
//   - A: +5 at turn 5, then flat, no objective. W = 10: the anchor is 5, the
//     check at 20 finds 15 ≥ 10: a stop at 20. W = 35: 40 − 5 = 35 ≥ 35, a
//     stop at 40, saving 60. W = 40: 35 < 40 at 40, 45 at 50: a stop at 50,
//     saving 50. No later gain and no objective: truly stuck, every time.
//   - B: +5 at 15, 30, …, 90. W = 10 stops by turn 40 (40 − 30 = 10), with
//     gains still to come: a false termination. W = 35 or 40 never stops: the
//     longest flat run is 15 turns.
func handSet(t testing.TB, a, b int) []*episode.Episode {
	t.Helper()
	var eps []*episode.Episode
	for i := range a + b {
		s := synth.Steps{ID: fmt.Sprintf("2025-11-12T%02d:%02d:00", 10+i/60, i%60), N: 100, Changes: map[int]int{5: 5}}
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
	return eps
}

func sor(w, interval int) policy.Policy {
	return policy.Policy{Name: policy.ScoreOrObjective}.With(policy.MaxTurnsStuck, w).With(policy.CheckInterval, interval)
}

// handGrid: W = 10 is beyond the 5% target on any set with B episodes; 35
// saves more than 40 on every A episode.
var handGrid = []policy.Policy{sor(10, 10), sor(35, 10), sor(40, 10)}

func TestAnswerShipsAChange(t *testing.T) {
	// 12 A and 12 B: 35/10 saves 12 × 60 = 720 of 2400 turns (30.0%), no
	// false termination; now (40/10) 600 (25.0%). It saves 10 turns more on
	// every A, half the episodes: a resample without one is a chance of 2^-24,
	// so the interval of +120 lies clear of 0.
	r := Run(handSet(t, 12, 12), handGrid, sor(40, 10), opts())
	a := r.Answer
	if a == nil {
		t.Fatalf("no answer: %s", r.NoAnswer)
	}
	if got := r.Configs[a.Config].Policy; got != sor(35, 10) || !a.MeetsTarget || a.KeepCurrent {
		t.Fatalf("answer %s (meets %v, keep %v), want 35/10 shipped", got, a.MeetsTarget, a.KeepCurrent)
	}
	if a.In.TurnsSaved != 720 || a.In.FalseTerminations != 0 || a.In.SavedShare != 0.3 || a.Now.TurnsSaved != 600 || a.Now.SavedShare != 0.25 {
		t.Errorf("in sample %+v, now %+v; want 720 (30%%) and 600 (25%%), no false termination", a.In, a.Now)
	}
	want := "[tool.zorkgpt.loop_break]\nmax_turns_stuck = 35\nstuck_check_interval = 10\nenable_objective_based_progress = true\nstuck_warning_threshold = 20\n"
	if a.Block != want {
		t.Errorf("block %q, want %q", a.Block, want)
	}
	// Every training fold holds A episodes and B episodes: each chooses 35/10,
	// which holds out with no false termination and 30% of the turns saved.
	if cv := a.CV; cv.Agree != 5 || cv.Undecided != 0 || cv.HeldOutFalseRate != 0 || cv.HeldOutSavedShare != 0.3 {
		t.Errorf("cv %+v, want 5 folds agreeing, 0%% false, 30%% saved", cv)
	}
	if a.Stability != 1 || len(a.Rivals) != 0 {
		t.Errorf("stability %v, rivals %v; want 1 and none", a.Stability, a.Rivals)
	}
	saved := versusMetric(t, a, "turns_saved")
	if saved.Change != 120 || saved.CI == nil || saved.CI[0] <= 0 {
		t.Errorf("versus now, turns saved %+v: want +120, its interval clear of 0", saved)
	}
	if r.BestOverall != nil {
		t.Errorf("best overall %s, though ZorkGPT runs every config", r.Configs[r.BestOverall.Config].Policy)
	}
}

func versusMetric(t *testing.T, a *Answer, name string) metrics.Metric {
	t.Helper()
	for _, m := range a.Versus {
		if m.Name == name {
			return m
		}
	}
	t.Fatalf("no %s in versus", name)
	return metrics.Metric{}
}

func TestAnswerKeepsTheCurrentSetting(t *testing.T) {
	cases := []struct {
		name    string
		a, b    int
		current policy.Policy
		why     string
	}{
		// 35/10 is itself the current setting.
		{"the best is now", 12, 12, sor(35, 10), "it is the best config ZorkGPT runs as it is"},
		// 30/10, outside the grid, stops A at 40 (40 − 5 = 35 ≥ 30) and B
		// never: the same tally as 35/10, and a tie goes to now.
		{"now does as well", 12, 12, sor(30, 10), "it does at least as well, by the same rule, as score-or-objective 35/10"},
		// 2 A among 24: 35/10 saves 20 turns more than now, but a resample
		// holds no A with a chance of (22/24)^24 = 12%, so the interval of the
		// change reaches 0.
		{"not distinguishable", 2, 22, sor(40, 10), "score-or-objective 35/10, is not distinguishable from it"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := Run(handSet(t, c.a, c.b), handGrid, c.current, opts())
			a := r.Answer
			if a == nil {
				t.Fatalf("no answer: %s", r.NoAnswer)
			}
			if !a.KeepCurrent || a.Block != "" || !strings.Contains(a.Why, c.why) {
				t.Errorf("keep %v, block %q, why %q; want kept, no block, %q", a.KeepCurrent, a.Block, a.Why, c.why)
			}
			if a.Now.Tally != r.Current.Tally {
				t.Errorf("now %+v, the current setting %+v", a.Now.Tally, r.Current.Tally)
			}
			var b bytes.Buffer
			if err := Write(&b, "json", r, Layout{}); err != nil {
				t.Fatal(err)
			}
			var j struct{ Answer map[string]any }
			if err := json.Unmarshal(b.Bytes(), &j); err != nil {
				t.Fatal(err)
			}
			if j.Answer["keep_current"] != true || j.Answer["block"] != nil || j.Answer["config"] != c.current.String() {
				t.Errorf("json answer: keep %v, block %v, config %v", j.Answer["keep_current"], j.Answer["block"], j.Answer["config"])
			}
		})
	}
	// Not distinguishable: the interval of the turns saved reaches 0.
	r := Run(handSet(t, 2, 22), handGrid, sor(40, 10), opts())
	if m := versusMetric(t, r.Answer, "turns_saved"); m.Change != 20 || m.CI == nil || m.CI[0] > 0 {
		t.Errorf("turns saved versus now %+v: want +20 with an interval from 0", m)
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
		// Without W = 10, B episodes have the same outcome under every config:
		// only the 3 A episodes tell 35 from 40.
		{"too few stops", 3, 21, handGrid[1:], "only 3 of the 24 episodes have outcomes that differ"},
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

// Which target binds, on hand-made tallies of n = 20 episodes (5% false
// terminations = 1 episode, 10% censored = 2).
func TestLimits(t *testing.T) {
	cases := []struct {
		name                string
		tallies             []Tally
		lowest, leastCensor int
	}{
		{"the false-termination rate", []Tally{{2, 100, 0, 0, 0}, {3, 300, 0, 1, 0}}, 0, -1},
		// 0 and 1 meet the false-termination target, censored 3 and 5: 0 is the
		// least censored; within the censoring limit only 2, at 2 of 20.
		{"censoring", []Tally{{0, 100, 0, 3, 0}, {1, 200, 0, 5, 0}, {2, 50, 0, 0, 0}}, 2, 0},
		{"censoring alone", []Tally{{0, 100, 0, 3, 0}}, -1, 0},
	}
	for _, c := range cases {
		r := &Result{Options: opts(), N: 20}
		var idx []int
		for i, tl := range c.tallies {
			r.Configs = append(r.Configs, Config{Tally: tl})
			idx = append(idx, i)
		}
		if l := r.limits(idx); l.LowestFalse != c.lowest || l.LeastCensored != c.leastCensor {
			t.Errorf("%s: %+v, want lowest %d, least censored %d", c.name, l, c.lowest, c.leastCensor)
		}
	}
}

// The front best first by the answer's rule, on hand-made tallies (n = 20):
// within both targets by turns saved, then beyond the false-termination
// target by its rate, the censored last.
func TestFrontRanked(t *testing.T) {
	tallies := []Tally{
		{0, 100, 0, 0, 0},  // 0: meets both
		{1, 150, 0, 0, 0},  // 1: meets both, more saved
		{4, 380, 0, 0, 0},  // 2: 20% false terminations
		{0, 400, 50, 5, 0}, // 3: censored 25%
		{3, 350, 0, 0, 0},  // 4: 15% false terminations
	}
	o := opts()
	o.System = system.ZorkGPT
	r := &Result{Options: o, N: 20, TotalTurns: 1000}
	for i, tl := range tallies {
		r.Configs = append(r.Configs, Config{Policy: sor(10+5*i, 10), Tally: tl})
		r.Runnable = append(r.Runnable, true)
	}
	r.Front = front(r.Configs, r.saved)
	r.Current = &r.Configs[0]
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

// The text formats of the hand sets, as goldens (go test ./sweep -update
// rewrites them); the figures in them are the worked ones of the tests above.
func TestGoldens(t *testing.T) {
	cases := []struct {
		name    string
		a, b    int
		current policy.Policy
	}{
		{"ship", 12, 12, sor(40, 10)},
		{"keep", 2, 22, sor(40, 10)},
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

	eps := handSet(t, 12, 12)
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
// (no objective): 35/10 saves 60 turns on every A, 720 of 2400, with no false
// termination, as in TestAnswerShipsAChange; none saves nothing.
func TestHarnessAnswer(t *testing.T) {
	eps := handSet(t, 12, 12)
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
	if a == nil || r.Configs[a.Config].Policy != score(35, 10) || a.KeepCurrent {
		t.Fatalf("answer %s (%s), want to ship score 35/10", answerOf(r), r.NoAnswer)
	}
	if a.In.TurnsSaved != 720 || a.In.FalseTerminations != 0 || a.Now.TurnsSaved != 0 {
		t.Errorf("saved %d with %d false terminations (now %d), want 720, 0 (0)", a.In.TurnsSaved, a.In.FalseTerminations, a.Now.TurnsSaved)
	}
	if block, err := system.Harness.Block(score(35, 10)); err != nil || a.Block != block {
		t.Errorf("block %q, want the harness's %q (%v)", a.Block, block, err)
	}
	// score-or-objective 35/10 ties with score 35/10 and comes later: no better
	// config overall.
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
		s := synth.Steps{ID: fmt.Sprintf("2025-11-12T10:%02d:00", i), N: 100, Changes: map[int]int{at: 5}}
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
		if a == nil || a.KeepCurrent || r.Configs[a.Config].Policy != c.want {
			t.Fatalf("by tokens %v: answer %s (%s), want to ship %s", c.byTokens, answerOf(r), r.NoAnswer, c.want)
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
	case a.KeepCurrent:
		return "keep " + r.Current.Policy.String()
	}
	return "ship " + r.Configs[a.Config].Policy.String()
}

// Run leaves out, before it chooses anything, the configs the logs cannot
// replay (score-or-objective needs objectives, which these logs are made to
// lack), and replaces such a current setting with none: the answer is among
// the configs kept. As in TestHarnessAnswer, score 35/10 saves 720 turns.
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
	if a := r.Answer; a == nil || r.Configs[a.Config].Policy != score(35, 10) || a.In.TurnsSaved != 720 {
		t.Errorf("answer %s (%s), want to ship score 35/10, saving 720 turns", answerOf(r), r.NoAnswer)
	}
	// Nothing the logs can replay: no config, and no answer.
	if r := Run(eps, []policy.Policy{sor(35, 10)}, sor(40, 10), opts()); len(r.Configs) != 0 || r.Answer != nil || r.BestOverall != nil {
		t.Errorf("a grid the logs cannot replay: %d configs, answer %s", len(r.Configs), answerOf(r))
	}
}
