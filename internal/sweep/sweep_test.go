package sweep

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/lbanalyze/lbanalyze/episode"
	"github.com/lbanalyze/lbanalyze/internal/corpus"
	"github.com/lbanalyze/lbanalyze/internal/metrics"
	"github.com/lbanalyze/lbanalyze/internal/report"
	"github.com/lbanalyze/lbanalyze/policy"
	"github.com/lbanalyze/lbanalyze/replay"
	"github.com/lbanalyze/lbanalyze/system"
)

func bundled(t testing.TB) []*episode.Episode {
	t.Helper()
	c := corpus.Read([]string{"../../testdata/episodes"}, corpus.Options{Jobs: 2})
	if len(c.Episodes) != 75 {
		t.Fatalf("read %d bundled episodes, want 75", len(c.Episodes))
	}
	return c.Episodes
}

// defaultGrid is the sweep command's default grid.
func defaultGrid() []policy.Policy {
	var ps []policy.Policy
	for _, n := range []policy.Name{policy.Score, policy.ScoreOrObjective, policy.Window} {
		for w := 10; w <= 150; w += 5 {
			for _, iv := range []int{1, 5, 10} {
				p := policy.Policy{Name: n}.With(policy.MaxTurnsStuck, w).With(policy.CheckInterval, iv)
				ps = append(ps, p)
			}
		}
	}
	return ps
}

func opts() Options {
	return Options{MaxFalseRate: 0.05, MaxCensored: 0.10, Folds: 5, Costs: metrics.Costs{CallsPerTurn: 4}, Jobs: 2}
}

var current = policy.Policy{Name: policy.ScoreOrObjective}

// Every config's metrics are batch's for the same policy: the after column of
// metrics.Compare, computed by replaying each episode with replay.Run.
func TestConfigsEqualBatch(t *testing.T) {
	eps := bundled(t)
	grid := defaultGrid()
	r := Run(eps, grid, current, opts())
	for i := 0; i < len(grid); i += 7 { // a sample of the grid, every policy and interval
		pairs := make([]metrics.Pair, len(eps))
		for e, ep := range eps {
			b, a := replay.Run(ep, current), replay.Run(ep, grid[i])
			pairs[e] = metrics.Pair{Ep: ep, Baseline: &b, After: &a}
		}
		for k, m := range metrics.Compare(pairs, metrics.Costs{CallsPerTurn: 4}) {
			got, ok := r.Defs.Value(&r.Configs[i].Sums, k)
			if ok != m.AfterOK || got != m.After {
				t.Errorf("%s: %s = %v (%v), batch says %v (%v)", grid[i], m.Name, got, ok, m.After, m.AfterOK)
			}
		}
	}
}

// The choice rule, on hand-made tallies of n = 20 episodes (5% = 1 episode,
// 10% censored = 2 episodes).
func TestChoose(t *testing.T) {
	r := &Result{Options: opts()}
	cases := []struct {
		name    string
		tallies []Tally
		want    int
		met     bool
	}{
		{"most saved within the target", []Tally{{1, 100, 0, 0, 0}, {1, 150, 9, 0, 0}, {2, 300, 0, 0, 0}}, 1, true},
		{"a tie on turns goes to fewer false terminations", []Tally{{1, 150, 0, 0, 0}, {0, 150, 5, 0, 0}}, 1, true},
		{"then to less score forgone", []Tally{{1, 150, 5, 0, 0}, {1, 150, 2, 0, 0}}, 1, true},
		{"then to the first", []Tally{{1, 150, 2, 0, 0}, {1, 150, 2, 0, 0}}, 0, true},
		{"censored beyond the limit is not chosen", []Tally{{0, 500, 0, 3, 0}, {1, 100, 0, 2, 0}}, 1, true},
		{"none within: the lowest rate", []Tally{{4, 500, 0, 0, 0}, {2, 100, 0, 0, 0}, {2, 200, 0, 0, 0}}, 2, false},
		{"all censored: none", []Tally{{0, 500, 0, 3, 0}}, -1, false},
	}
	for _, c := range cases {
		idx := make([]int, len(c.tallies))
		for i := range idx {
			idx[i] = i
		}
		got, met := r.choose(idx, func(i int) Tally { return c.tallies[i] }, 20)
		if got != c.want || met != c.met {
			t.Errorf("%s: chose %d (met %v), want %d (%v)", c.name, got, met, c.want, c.met)
		}
	}
	// Ranked by tokens: the most tokens saved within the target (1 false
	// termination in 20), whatever the turns; the one with 9,000 is not within.
	r.ByTokens = true
	tallies := []Tally{{1, 300, 0, 0, 1000}, {1, 100, 0, 0, 5000}, {3, 50, 0, 0, 9000}}
	if got, met := r.choose([]int{0, 1, 2}, func(i int) Tally { return tallies[i] }, 20); got != 1 || !met {
		t.Errorf("by tokens: chose %d (met %v), want 1 (true)", got, met)
	}
	// 1 dominates 0 (more tokens, as few false terminations, as little
	// forgone), though 0 saves more turns.
	if got := front(configsOf(tallies), r.saved); !slices.Equal(got, []int{2, 1}) {
		t.Errorf("by tokens: front %v, want [2 1] (most tokens first)", got)
	}
}

func configsOf(ts []Tally) []Config {
	cs := make([]Config, len(ts))
	for i, t := range ts {
		cs[i].Tally = t
	}
	return cs
}

// scan is an independent route to a choice: a plain scan of batch-style
// replays over the grid's configs that keep, picking the most turns saved
// within the targets (ties: fewer false terminations).
func scan(eps []*episode.Episode, grid []policy.Policy, keep func(policy.Policy) bool, maxFalse float64) (saved, ft int) {
	saved = -1
	for _, p := range grid {
		if !keep(p) {
			continue
		}
		f, s, cens := 0, 0, 0
		for _, ep := range eps {
			out := replay.Run(ep, p)
			f += b2i(out.FalseTerminationCandidate())
			s += out.TurnsSaved
			cens += b2i(out.Censored)
		}
		if float64(f) > maxFalse*float64(len(eps)) || 10*cens > len(eps) {
			continue
		}
		if s > saved || s == saved && f < ft {
			saved, ft = s, f
		}
	}
	return saved, ft
}

// The answer on the bundled set, checked by an independent route: the best
// config ZorkGPT runs and the best overall are the configs a plain scan of
// batch-style replays picks, among score and score-or-objective and among
// every policy; the block to paste is ZorkGPT's for the answer.
func TestAnswerBundled(t *testing.T) {
	eps := bundled(t)
	grid := defaultGrid()
	o := opts()
	o.MaxFalseRate = 0.10 // the bundled set has no config at 5%
	r := Run(eps, grid, current, o)
	zork := func(p policy.Policy) bool { return p.Name != policy.Window }
	saved, ft := scan(eps, grid, zork, o.MaxFalseRate)
	a := r.Answer
	if a == nil || !a.MeetsTarget || r.Configs[a.Config].TurnsSaved != saved || r.Configs[a.Config].FalseTerminations != ft {
		t.Fatalf("answer %+v (%s); a plain scan of score and score-or-objective picks %d saved, %d false", a, r.NoAnswer, saved, ft)
	}
	if a.KeepCurrent || a.Block == "" || !strings.Contains(a.Block, "enable_objective_based_progress") {
		t.Errorf("a change is answered (%s saves %d turns more than now) without its block: keep %v, block %q",
			r.Configs[a.Config].Policy, saved-r.Current.TurnsSaved, a.KeepCurrent, a.Block)
	}
	if want, _ := system.ZorkGPT.Block(r.Configs[a.Config].Policy); a.Block != want {
		t.Errorf("block %q, want ZorkGPT's %q", a.Block, want)
	}
	bestSaved, bestFT := scan(eps, grid, func(policy.Policy) bool { return true }, o.MaxFalseRate)
	if bestSaved == saved && bestFT == ft {
		if r.BestOverall != nil {
			t.Errorf("best overall %s, though the answer is as good", r.Configs[r.BestOverall.Config].Policy)
		}
	} else if b := r.BestOverall; b == nil || r.Configs[b.Config].TurnsSaved != bestSaved || r.Configs[b.Config].FalseTerminations != bestFT ||
		r.Runnable[b.Config] || b.Change == "" {
		t.Errorf("best overall %+v; a plain scan of every policy picks %d saved, %d false", b, bestSaved, bestFT)
	}
	for _, f := range []Figures{a.In, a.Now} {
		if f.FalseRate < f.FalseRateCI[0] || f.FalseRate > f.FalseRateCI[1] || f.SavedShare < f.SavedShareCI[0] || f.SavedShare > f.SavedShareCI[1] {
			t.Errorf("figures outside their intervals: %+v", f)
		}
	}
	if a.Now.Tally != r.Current.Tally {
		t.Errorf("now %+v, the current setting %+v", a.Now.Tally, r.Current.Tally)
	}
	if a.Stability <= 0 || a.Stability > 1 || a.CV.Folds != 5 || a.CV.Agree+a.CV.Undecided > 5 {
		t.Errorf("stability %v, cv %+v", a.Stability, a.CV)
	}
}

// Same input, same bytes: whatever the workers or the order of episodes.
func TestDeterministic(t *testing.T) {
	eps := bundled(t)
	grid := defaultGrid()
	want := map[string][]byte{}
	for _, jobs := range []int{1, 2, 5} {
		o := opts()
		o.Jobs = jobs
		in := slices.Clone(eps)
		if jobs == 5 {
			slices.Reverse(in)
		}
		r := Run(in, grid, current, o)
		for _, format := range report.Formats {
			var b bytes.Buffer
			if err := Write(&b, format, r, Layout{}); err != nil {
				t.Fatal(err)
			}
			if jobs == 1 {
				want[format] = b.Bytes()
			} else if !bytes.Equal(b.Bytes(), want[format]) {
				t.Errorf("jobs %d: another %s", jobs, format)
			}
		}
	}
}

// The json format has the keys the README documents, one row per config.
func TestJSONShape(t *testing.T) {
	eps := bundled(t)
	grid := defaultGrid()[:30]
	var b bytes.Buffer
	if err := Write(&b, "json", Run(eps, grid, current, opts()), Layout{}); err != nil {
		t.Fatal(err)
	}
	var j struct {
		N       int              `json:"n"`
		Grid    map[string]any   `json:"grid"`
		Configs []map[string]any `json:"configs"`
		Front   []int            `json:"front"`
		Current map[string]any   `json:"current"`
		Answer  map[string]any   `json:"answer"`
	}
	if err := json.Unmarshal(b.Bytes(), &j); err != nil {
		t.Fatalf("invalid json: %v\n%s", err, b.String()[:min(b.Len(), 500)])
	}
	if j.N != 75 || len(j.Configs) != 30 || len(j.Front) == 0 || j.Current == nil || j.Answer == nil {
		t.Fatalf("n %d, %d configs, front %v, current %v, answer %v", j.N, len(j.Configs), j.Front, j.Current, j.Answer)
	}
	for _, key := range []string{"policy", "max_turns_stuck", "check_interval", "objective_patience", "false_termination_rate",
		"turns_saved_pct", "censored_pct", "pareto"} {
		if _, ok := j.Configs[0][key]; !ok {
			t.Errorf("configs[0] has no %q", key)
		}
	}
	if j.Configs[0]["objective_patience"] != nil {
		t.Errorf("score has no objective patience, yet %v", j.Configs[0]["objective_patience"])
	}
	for _, key := range []string{"config", "keep_current", "block", "lang", "figures", "ci95", "cv", "stability", "versus_current"} {
		if _, ok := j.Answer[key]; !ok {
			t.Errorf("answer has no %q", key)
		}
	}
	if cv, _ := j.Answer["cv"].(map[string]any); cv["held_out_false_termination_rate"] == nil || cv["held_out_turns_saved_pct"] == nil {
		t.Errorf("cv %v", cv)
	}
	if j.Answer["keep_current"] == false && j.Answer["block"] == nil {
		t.Errorf("a change is answered without its block: %v", j.Answer)
	}
	if !strings.HasSuffix(b.String(), "}\n") {
		t.Error("json does not end with a newline")
	}
}

// A fold depends on the episode, not on where it stands in the input.
func TestFoldsByEpisode(t *testing.T) {
	eps := bundled(t)
	count := make([]int, 5)
	for _, ep := range eps {
		count[Fold(ep, 5)]++
	}
	for k, c := range count {
		if c < 5 {
			t.Errorf("fold %d holds %d of 75 episodes: %v", k, c, count)
		}
	}
}

// The JSON grid lists each setting's values as the rows show them: in
// users' words and units, min_delta in points, not the thousandths it is
// kept in.
func TestGridAsRowsShowIt(t *testing.T) {
	var grid []policy.Policy
	for _, delta := range []int{0, 1000, 2500} {
		for _, mode := range []int{policy.ScoreChanges, policy.ScoreIncrease} {
			grid = append(grid, policy.Policy{Name: policy.Patience}.With(policy.MinDelta, delta).With(policy.ScoreMode, mode))
		}
	}
	g := Run(bundled(t)[:5], grid, current, opts()).grid()
	if got := fmt.Sprint(g["min_delta"], g["score_mode"]); got != "[0 1 2.5] [changes increase]" {
		t.Errorf("grid min_delta, score_mode: %s, want [0 1 2.5] [changes increase]", got)
	}
}

// Priced sums are the same floats whatever the workers: a chunk of configs
// is summed along the chunk, so its bounds must not move with the cores.
func TestPricedSumsWhateverTheWorkers(t *testing.T) {
	eps, grid := bundled(t), defaultGrid()
	var want []float64
	for _, jobs := range []int{1, 2, 7} {
		o := opts()
		o.Jobs, o.CostPerCall, o.CostPerMTok = jobs, 0.0137, 0.37
		r := Run(eps, grid, current, o)
		var got []float64
		for i := range r.Configs {
			for k := range r.Defs.Len() {
				v, _ := r.Defs.Value(&r.Configs[i].Sums, k)
				got = append(got, v)
			}
		}
		if jobs == 1 {
			want = got
			continue
		}
		for i := range got {
			if math.Float64bits(got[i]) != math.Float64bits(want[i]) {
				t.Fatalf("jobs %d: value %d is %v, with 1 job %v", jobs, i, got[i], want[i])
			}
		}
	}
}
