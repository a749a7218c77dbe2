package sweep

import (
	"bytes"
	"cmp"
	"encoding/json"
	"fmt"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/lbanalyze/lbanalyze/episode"
	"github.com/lbanalyze/lbanalyze/internal/corpus"
	"github.com/lbanalyze/lbanalyze/internal/metrics"
	"github.com/lbanalyze/lbanalyze/internal/textout"
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
	return Options{MaxFalseRate: 0.05, MaxCensored: 0.10, FTMargin: 0.02, Folds: 5, Costs: metrics.Costs{CallsPerTurn: 4}, Jobs: 2}
}

var current = policy.Policy{Name: policy.ScoreOrObjective}

// Every config's metrics are batch's for the same policy: the after column of
// metrics.Compare, computed by replaying each episode with replay.Run.
func TestConfigsEqualBatch(t *testing.T) {
	eps := bundled(t)
	grid := defaultGrid()
	r := Run(eps, grid, current, opts())
	for i := 0; i < len(grid); i += 7 { // a sample of the grid, every policy and interval
		pairs := make(metrics.Pairs, len(eps))
		for e, ep := range eps {
			b, a := replay.Run(ep, current), replay.Run(ep, grid[i])
			pairs[e] = metrics.PairOf(ep, b, a)
		}
		for k, m := range metrics.Compare(pairs, metrics.Costs{CallsPerTurn: 4}, system.ZorkGPT.Shows.Applies) {
			got, ok := r.Defs.Value(&r.Configs[i].Sums, k)
			if ok != m.AfterOK || got != m.After {
				t.Errorf("%s: %s = %v (%v), batch says %v (%v)", grid[i], m.Name, got, ok, m.After, m.AfterOK)
			}
		}
	}
}

// Now's sums, made from its one replay on every core (summed), are batch's
// baseline column for the same policy, and its tally the one evaluate
// gives now as a config of its own.
func TestNowEqualsBatch(t *testing.T) {
	eps := bundled(t)
	r := Run(eps, defaultGrid(), current, opts())
	pairs := make(metrics.Pairs, len(eps))
	for e, ep := range eps {
		o := replay.Run(ep, current)
		pairs[e] = metrics.PairOf(ep, o, o)
	}
	for k, m := range metrics.Compare(pairs, metrics.Costs{CallsPerTurn: 4}, system.ZorkGPT.Shows.Applies) {
		got, ok := r.Defs.Value(&r.Current.Sums, k)
		if ok != m.BaselineOK || got != m.Baseline {
			t.Errorf("now: %s = %v (%v), batch says %v (%v)", m.Name, got, ok, m.Baseline, m.BaselineOK)
		}
	}
	if c := r.evaluate(ordered(eps), []policy.Policy{current}, nil)[0]; c.Tally != r.Current.Tally {
		t.Errorf("now's tally %+v, evaluated %+v", r.Current.Tally, c.Tally)
	}
}

// The choice rule, on hand-made tallies of n = 20 episodes (10% censored =
// 2 episodes), now's the last: the most saved among the configs with no more
// outcomes the logs cannot show fine than now and censored outcomes within
// the limit; ties to fewer such outcomes, less score forgone, fewer
// premature stops, the fewest settings changed from now (now itself first),
// grid order.
func TestChoose(t *testing.T) {
	r := &Result{Options: opts()}
	now := Tally{FalseTerminations: 1, Unknown: 1, TurnsSaved: 100}
	r.setCurrent(&Config{Policy: sor(40, 10), Tally: now})
	cases := []struct {
		name    string
		tallies []Tally
		changed []int
		want    int // -1: now
	}{
		{"the most saved with no more than now", []Tally{{FalseTerminations: 1, TurnsSaved: 150}, {Unknown: 2, TurnsSaved: 200},
			{FalseTerminations: 3, TurnsSaved: 400}}, []int{1, 1, 1}, 1},
		{"now when none saves more", []Tally{{TurnsSaved: 90}}, []int{1}, -1},
		{"now on an exact tie", []Tally{now}, []int{0}, -1},
		{"a tie on saved goes to fewer unjudged", []Tally{{Unknown: 2, TurnsSaved: 200}, {Censored: 1, TurnsSaved: 200}}, []int{1, 1}, 1},
		{"then less forgone", []Tally{{TurnsSaved: 200, ScoreForgone: 5}, {TurnsSaved: 200, ScoreForgone: 2}}, []int{1, 1}, 1},
		{"then fewer premature", []Tally{{FalseTerminations: 1, TurnsSaved: 200}, {Unknown: 1, TurnsSaved: 200}}, []int{1, 1}, 1},
		{"then the nearest to now", []Tally{{TurnsSaved: 200}, {TurnsSaved: 200}}, []int{2, 1}, 1},
		{"then grid order", []Tally{{TurnsSaved: 200}, {TurnsSaved: 200}}, []int{1, 1}, 0},
		{"censored beyond the limit is not chosen", []Tally{{Censored: 2, TurnsSaved: 500}, {Censored: 3, TurnsSaved: 900}}, []int{1, 1}, 0},
	}
	for _, c := range cases {
		ts := append(slices.Clone(c.tallies), now)
		changed := append(slices.Clone(c.changed), -1)
		pool := make([]int, len(c.tallies))
		for i := range pool {
			pool[i] = i
		}
		got := r.choose(pool, ts, changed, 20)
		if got == len(c.tallies) {
			got = -1
		}
		if got != c.want {
			t.Errorf("%s: chose %d, want %d", c.name, got, c.want)
		}
	}
	// Ranked by tokens: the most tokens saved, whatever the turns; the one
	// with 9,000 has more false terminations than now.
	r.ByTokens = true
	tallies := []Tally{{FalseTerminations: 1, TurnsSaved: 300, TokensSaved: 1000}, {FalseTerminations: 1, TurnsSaved: 100, TokensSaved: 5000},
		{FalseTerminations: 3, TurnsSaved: 50, TokensSaved: 9000}, now}
	if got := r.choose([]int{0, 1, 2}, tallies, []int{1, 1, 1, -1}, 20); got != 1 {
		t.Errorf("by tokens: chose %d, want 1", got)
	}
	// 1 dominates 0 (more tokens, as few false terminations, as little
	// forgone), though 0 saves more turns.
	if got := front(configsOf(tallies[:3]), []int{0, 1, 2}, r.saved); !slices.Equal(got, []int{2, 1}) {
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

// scanned is a config's figures by a plain replay of every episode.
type scanned struct {
	p                          policy.Policy
	unjudged, saved, pre, cens int
	forgone                    episode.Score
}

func scanOf(eps []*episode.Episode, p policy.Policy) scanned {
	s := scanned{p: p}
	for _, ep := range eps {
		o := replay.Run(ep, p)
		s.unjudged += b2i(o.Unjudged())
		s.saved += o.TurnsSaved
		s.forgone = s.forgone.Add(o.ScoreForgone)
		s.pre += b2i(o.FalseTerminationCandidate())
		s.cens += b2i(o.Censored)
	}
	return s
}

// scan is an independent route to the rule's choice: plain replays of the
// grid's configs that keep, picking the most turns saved among those with
// no more unjudged outcomes than now and at most 10% censored (ties: fewer
// unjudged, less forgone, fewer premature, fewest settings changed, grid
// order); the zero scanned when none saves more than now.
func scan(eps []*episode.Episode, grid []policy.Policy, now policy.Policy, keep func(policy.Policy) bool) scanned {
	n := scanOf(eps, now)
	best, bestChanged := n, -1
	for _, p := range grid {
		if !keep(p) {
			continue
		}
		s := scanOf(eps, p)
		if s.unjudged > n.unjudged || 10*s.cens > len(eps) {
			continue
		}
		ch := Changed(p, now)
		if c := cmp.Or(cmp.Compare(s.saved, best.saved), cmp.Compare(best.unjudged, s.unjudged), cmp.Compare(best.forgone, s.forgone),
			cmp.Compare(best.pre, s.pre), cmp.Compare(bestChanged, ch)); c > 0 {
			best, bestChanged = s, ch
		}
	}
	if bestChanged < 0 {
		return scanned{}
	}
	return best
}

// The answer on the bundled set, checked by an independent route: the
// change that leads and the best overall are the configs a plain scan of
// batch-style replays picks, among score and score-or-objective and among
// every policy. On 75 episodes no change can be shown within 2 pp of now's
// false-termination rate: no clear winner.
func TestAnswerBundled(t *testing.T) {
	eps := bundled(t)
	grid := defaultGrid()
	r := Run(eps, grid, current, opts())
	zork := func(p policy.Policy) bool { return p.Name != policy.Window }
	lead := scan(eps, grid, current, zork)
	a := r.Answer
	if a == nil || a.Config < 0 || r.Configs[a.Config].Policy != lead.p {
		t.Fatalf("answer %s (%s); a plain scan of score and score-or-objective picks %v", answerOf(r), r.NoAnswer, lead.p)
	}
	// The named config's own comparison, checked by plain replays here: it
	// differs from now on no episode's false termination and saves 80
	// turns more; Tango's interval of 0 of 75 is
	// ±z²/(75+z²) = ±4.87 pp. The held-out pairs are the rule's, another
	// config chosen on one fold: 1 episode worse. The verdict is taken on
	// them, and so is the count to settle it: at the favourable end of
	// Tango's interval the floor, 189 (z²/(n+z²) ≤ 2% from n = 189); as
	// observed, 1 of 75 discordant and Δ = 1/75, (1.959964 + 0.841621)²·
	// (1/75)/(0.02 − 1/75)² = 7.84888·0.013333/0.0000444 = 2354.7: 2,355.
	var worse, better int
	for _, ep := range eps {
		o, no := replay.Run(ep, lead.p), replay.Run(ep, current)
		u, nu := o.Unjudged(), no.Unjudged()
		worse, better = worse+b2i(u && !nu), better+b2i(nu && !u)
	}
	ft, sv := metricNamed(a.Versus, "false_termination_rate"), metricNamed(a.Versus, "turns_saved")
	if worse != 0 || better != 0 || ft.Discordant != [2]int{} || math.Abs(ft.CI[1]-100*wilson0(75)) > 1e-9 ||
		math.Abs(ft.CI[1]-4.87) > 0.005 || sv.Change != float64(lead.saved-scanOf(eps, current).saved) || sv.Change != 80 {
		t.Errorf("versus now: discordant %v (plain replays %d, %d), interval %v, turns saved %v; want none, ±4.87 pp, +80",
			ft.Discordant, worse, better, ft.CI, sv.Change)
	}
	if h := metricNamed(a.HeldOut, "false_termination_rate"); h.Discordant != [2]int{1, 0} || a.HeldOutIsOwn() {
		t.Errorf("held out: discordant %v, want the rule's 1 worse, 0 better", h.Discordant)
	}
	if a.Verdict != NoClearWinner || a.Block != "" || a.Settle == nil || *a.Settle != (Settle{Low: 189, High: 2355, HeldOut: true, Worse: 1}) {
		t.Errorf("%v, block %q, settle %+v: want no clear winner, no block, 189 to 2,355 episodes from the held-out pairs", a.Verdict, a.Block, a.Settle)
	}
	best := scan(eps, grid, current, func(policy.Policy) bool { return true })
	if b := r.BestOverall; b != nil && (r.Configs[b.Config].Policy != best.p || r.Runnable[b.Config] || b.Change == "") ||
		b == nil && best.p.Name == policy.Window {
		t.Errorf("best overall %+v; a plain scan of every policy picks %v", b, best.p)
	}
	for _, f := range []Figures{a.In, a.Now} {
		if f.FalseRate < f.FalseRateCI[0] || f.FalseRate > f.FalseRateCI[1] || f.FalseRateLow > f.FalseRate {
			t.Errorf("figures outside their intervals: %+v", f)
		}
	}
	if a.Now.Tally != r.Current.Tally {
		t.Errorf("now %+v, the current setting %+v", a.Now.Tally, r.Current.Tally)
	}
	if a.Stability <= 0 || a.Stability > 1 || a.CV.Folds != 5 || a.CV.Agree > 5 {
		t.Errorf("stability %v, cv %+v", a.Stability, a.CV)
	}
}

// 20 bundled episodes on which now (score-or-objective 40/10) is censored
// in 15% of them, beyond the limit: now is never dropped for censoring, and
// no config saves more turns than now without more false terminations (the
// plain scan finds none), so keep it.
func TestAnswerKeepsNowCensored(t *testing.T) {
	ids := map[string]bool{}
	for _, id := range []string{"2025-10-22T14:10:40", "2025-10-23T17:58:16", "2025-10-25T16:16:02", "2025-10-26T07:56:50",
		"2025-10-28T19:10:49", "2025-10-29T04:11:20", "2025-10-29T11:40:47", "2025-10-30T13:07:06", "2025-10-30T18:58:53",
		"2025-10-31T16:49:48", "2025-11-01T10:12:43", "2025-11-01T14:44:52", "2025-11-04T05:00:49", "2025-11-04T20:44:47",
		"2025-11-06T05:28:32", "2025-11-07T04:47:39", "2025-11-08T00:26:03", "2025-11-08T17:28:33", "2025-11-11T07:30:29",
		"2025-11-13T05:30:30"} {
		ids[id] = true
	}
	eps := slices.DeleteFunc(bundled(t), func(ep *episode.Episode) bool { return !ids[ep.ID] })
	if len(eps) != 20 {
		t.Fatalf("%d episodes", len(eps))
	}
	grid := defaultGrid()
	if s := scan(eps, grid, current, func(p policy.Policy) bool { return p.Name != policy.Window }); s.p.Name != "" {
		t.Fatalf("a plain scan finds %v saving %d turns with no more unjudged outcomes than now", s.p, s.saved)
	}
	r := Run(eps, grid, current, opts())
	if a := r.Answer; a == nil || a.Verdict != Keep || a.Config != -1 || r.CensoredShare(r.Current) != 0.15 {
		t.Errorf("answer %s (%s), now censored %v: want to keep now, 15%% censored", answerOf(r), r.NoAnswer, r.CensoredShare(r.Current))
	}
}

// 25 copies of one bundled episode (score-or-objective 40/10 stops it at 90,
// before its late gain): every config tells the same story 25 times. The
// rule's choice saves the most turns without more false terminations than
// now's 25 (a plain scan finds it); it stands for the configs with its outcome
// on that episode, and a config that never stops is never chosen; but 25
// copies cannot show a change within 2 pp (±z²/(25+z²) = ±13.3 pp, no episode
// differing), and at least 189 episodes would: no clear winner. No safer
// change is chosen: those that avoid the premature stop never stop this
// episode, and a change that saves nothing is no loop break to ship.
func TestAnswerCopies(t *testing.T) {
	var one *episode.Episode
	for _, ep := range bundled(t) {
		if ep.ID == "2025-10-22T22:12:40" {
			one = ep
		}
	}
	eps := make([]*episode.Episode, 25)
	for i := range eps {
		c := *one
		c.Source = fmt.Sprintf("copy%02d/episode_log.jsonl", i)
		eps[i] = &c
	}
	grid := defaultGrid()
	lead := scan(eps, grid, current, func(p policy.Policy) bool { return p.Name != policy.Window })
	r := Run(eps, grid, current, opts())
	a := r.Answer
	if a == nil || a.Verdict != NoClearWinner || r.Configs[a.Config].Policy != lead.p || a.Settle == nil || (a.Settle.Low != 189 || a.Settle.High != 0) || a.Stability != 1 || a.CV.Agree != 5 {
		t.Fatalf("answer %s (%s), settle %+v, stability %v, folds %d: want no clear winner, %v leading, 189, 1, 5",
			answerOf(r), r.NoAnswer, a.Settle, a.Stability, a.CV.Agree, lead.p)
	}
	if r.Configs[a.Config].TurnsSaved == 0 {
		t.Errorf("the choice %s never stops", r.Configs[a.Config].Policy)
	}
	same := 0
	o := replay.Run(one, r.Configs[a.Config].Policy)
	for _, p := range grid {
		if x := replay.Run(one, p); x.TerminationTurn == o.TerminationTurn && x.FalseTerminationCandidate() == o.FalseTerminationCandidate() {
			same++
		}
	}
	if size := len(r.ClassOf(a.Config)); size != same {
		t.Errorf("class of %d, but %d configs of the grid stop at %d alike", size, same, o.TerminationTurn)
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
		for _, format := range textout.Formats {
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
	for _, key := range []string{"policy", "settings", "false_termination_rate", "turns_saved_pct", "censored_pct", "pareto"} {
		if _, ok := j.Configs[0][key]; !ok {
			t.Errorf("configs[0] has no %q", key)
		}
	}
	// A config carries its own policy's settings, no other's (docs/output.md,
	// "Settings"): score the timer's three, not patience's.
	if s, _ := j.Configs[0]["settings"].(map[string]any); j.Configs[0]["policy"] != "score" || len(s) != 3 ||
		s["max_turns_stuck"] == nil || s["check_interval"] == nil || s["stuck_warning_threshold"] == nil {
		t.Errorf("configs[0]: policy %v, settings %v", j.Configs[0]["policy"], j.Configs[0]["settings"])
	}
	for _, key := range []string{"verdict", "config", "index", "keep_current", "block", "lang", "figures", "ci95", "cv", "stability",
		"versus_current", "chosen", "episodes_to_settle"} {
		if _, ok := j.Answer[key]; !ok {
			t.Errorf("answer has no %q", key)
		}
	}
	if cv, _ := j.Answer["cv"].(map[string]any); cv["held_out_false_termination_rate"] == nil || cv["held_out_turns_saved_pct"] == nil {
		t.Errorf("cv %v", cv)
	}
	if (j.Answer["verdict"] == "ship") != (j.Answer["block"] != nil) {
		t.Errorf("a block to paste, or a change shipped without it: %v", j.Answer)
	}
	// The answer's interval of the false-termination rate is of the rate
	// its config's row gives.
	if i, ok := j.Answer["index"].(float64); ok {
		ci, _ := j.Answer["ci95"].(map[string]any)["false_termination_rate"].([]any)
		rate := j.Configs[int(i)]["false_termination_rate"].(float64)
		if len(ci) != 2 || ci[0].(float64) > rate || ci[1].(float64) < rate {
			t.Errorf("ci95 %v of the false-termination rate, configs[%v] %v", ci, i, rate)
		}
	}
	if !strings.HasSuffix(b.String(), "}\n") {
		t.Error("json does not end with a newline")
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
