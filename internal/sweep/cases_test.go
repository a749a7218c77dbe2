package sweep

import (
	"bytes"
	"fmt"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/lbanalyze/lbanalyze/episode"
)

// The cases of the issue of the answer's rule (docs/commands.md, "sweep:
// which setting to ship"), each with its outcome worked out by hand.

// twenty are 20 of the bundled episodes on which now, score-or-objective
// 40/10, has censored outcomes beyond the limit (3 of 20, over 10%), and
// score 40/10, which saves more, has more outcomes the logs cannot show
// fine: a rule that dropped now for its censoring, or judged premature
// stops alone, would ship score 40/10.
var twenty = []string{"2025-10-19T01:47:14", "2025-10-19T07:31:11", "2025-10-19T23:26:15", "2025-10-20T07:54:36",
	"2025-10-23T12:13:26", "2025-10-23T17:58:16", "2025-10-24T16:12:38", "2025-10-25T10:40:04", "2025-10-25T16:16:02",
	"2025-10-29T11:40:47", "2025-11-01T10:12:43", "2025-11-03T06:28:59", "2025-11-03T16:38:33", "2025-11-04T13:36:26",
	"2025-11-07T04:47:39", "2025-11-08T00:26:03", "2025-11-08T17:28:33", "2025-11-12T03:27:12", "2025-11-12T23:44:30",
	"2025-11-14T06:12:21"}

// From testdata/episodes/README.md's table of these 20, at 40/10:
//
//   - now: premature on 07-31-11 (+4@145); unknown on the three v2 logs cut
//     at its own stop (11-12T03, 11-12T23, 11-14); censored on the three
//     v1-censored: 1 + 3 + 3 = 7 unjudged, 35% (low bound 5%).
//   - score: premature on nine (01-47-14, 07-31-11, 10-29, 11-03T06 and the
//     v1-censored and v2-objective ones), unknown on 11-14: 10 unjudged,
//     50%; unjudged where now is not on 01-47-14, 10-29 and 11-03T06, and
//     never the other way: +15 pp.
//
// The rule keeps now (it has fewer unjudged outcomes than score 40/10 and
// every config that saves more), censored or not. Wilson's interval of 7 in
// 20, recomputed in Python: 18.119% … 56.715%.
func TestTwentyThatShippedScore(t *testing.T) {
	var eps []*episode.Episode
	for _, ep := range bundled(t) {
		if slices.Contains(twenty, ep.ID) {
			eps = append(eps, ep)
		}
	}
	if len(eps) != 20 {
		t.Fatalf("%d of the 20 episodes", len(eps))
	}
	r := Run(eps, defaultGrid(), current, opts())
	a := r.Answer
	if a == nil || a.Verdict != Keep || a.Config != -1 || a.Versus != nil || a.Block != "" {
		t.Fatalf("answer %s (%s), want to keep now, no change leading", answerOf(r), r.NoAnswer)
	}
	now := a.Now
	if now.FalseTerminations != 1 || now.Unknown != 3 || now.Censored != 3 || now.FalseRate != 0.35 || now.FalseRateLow != 0.05 {
		t.Errorf("now: %+v, want 1 premature, 3 unknown, 3 censored (5%%–35%%)", now)
	}
	if math.Abs(now.FalseRateCI[0]-0.181192) > 5e-7 || math.Abs(now.FalseRateCI[1]-0.567146) > 5e-7 {
		t.Errorf("now's interval %v, want Wilson's 18.1192%% … 56.7146%%", now.FalseRateCI)
	}
	if r.CensoredShare(r.Current) <= r.MaxCensored {
		t.Errorf("now censored %v: the case is of now censored beyond the limit", r.CensoredShare(r.Current))
	}
	score40 := score(40, 10)
	i := slices.IndexFunc(r.Configs, func(c Config) bool { return c.Policy == score40 })
	if c := r.Configs[i]; c.FalseTerminations != 9 || c.Unknown != 1 || c.Censored != 0 || c.Worse != 3 || c.Better != 0 {
		t.Errorf("score 40/10: %+v, want 9 premature, 1 unknown, unjudged on 3 episodes where now is not", c.Tally)
	}
	var text bytes.Buffer
	Write(&text, "table", r, Layout{})
	if !strings.Contains(text.String(), "Answer for ZorkGPT: keep your current setting, score-or-objective 40/10") ||
		strings.Contains(text.String(), "ship score 40/10") {
		t.Errorf("the answer:\n%s", text.String())
	}
}

// copies are n copies of handSet's kind A (+5 at turn 5, then flat to the
// turn budget at 100), each its own id.
func copies(t *testing.T, n int) []*episode.Episode {
	a := handSet(t, 1, 0)[0]
	out := make([]*episode.Episode, n)
	for k := range out {
		c := *a
		c.ID = fmt.Sprintf("copy-%02d", k)
		out[k] = &c
	}
	return out
}

// 25 copies of one episode, over the default grid. On it score,
// score-or-objective and window have the same outcome at each W/I (no
// objective), a stop at the first check turn T with T − 5 ≥ W: T = W + 5 at
// intervals 1 and 5 (W is a multiple of 5), the next multiple of 10 at 10;
// none stops for W ≥ 100 (95 flat turns). Every stop is truly stuck (no
// later gain, a whole log). So the classes are by T: W = 10 at I = 1 or 5,
// T = 15, saves the most, 85 turns a copy, six configs (three policies ×
// two intervals), the nearest to now (score-or-objective 40/10) changing two
// settings: score-or-objective 10/1, first in grid order. No episode's
// outcome differs in false terminations (b = c = 0): Tango's ±z²/(25+z²) =
// ±13.3 pp, beyond the 2 pp margin, whatever 25 copies would save: no clear
// winner, 189 episodes to settle it (z²/(n+z²) ≤ 2% from n = 189), never a
// ship; the configs that never stop are one class of 3 × 11 × 3 = 99, never
// the leader.
func TestCopiesOfOneEpisode(t *testing.T) {
	r := Run(copies(t, 25), defaultGrid(), current, opts())
	a := r.Answer
	if a == nil || a.Verdict != NoClearWinner || r.Configs[a.Config].Policy != sor(10, 1) || len(r.ClassOf(a.Config)) != 6 || a.Settle == nil || (a.Settle.Low != 189 || a.Settle.High != 0) {
		t.Fatalf("answer %s (class of %d, settle %+v; %s), want no clear winner, score-or-objective 10/1 leading a class of 6, 189",
			answerOf(r), len(r.ClassOf(a.Config)), a.Settle, r.NoAnswer)
	}
	if a.In.TurnsSaved != 25*85 || a.Now.TurnsSaved != 25*50 || a.In.Unjudged() != 0 || a.Stability != 1 || a.CV.Agree != 5 {
		t.Errorf("in sample %d turns saved (now %d), %d unjudged, stability %v, %d folds agreeing; want 2125 (1250), 0, 1, 5",
			a.In.TurnsSaved, a.Now.TurnsSaved, a.In.Unjudged(), a.Stability, a.CV.Agree)
	}
	ft := metricNamed(a.Versus, "false_termination_rate")
	if w := 100 * wilson0(25); ft.Discordant != [2]int{} || math.Abs(ft.CI[1]-w) > 1e-9 || math.Abs(w-13.3192) > 1e-4 {
		t.Errorf("versus now %v (discordant %v), want ±%v pp", ft.CI, ft.Discordant, w)
	}
	never := score(150, 10)
	i := slices.IndexFunc(r.Configs, func(c Config) bool { return c.Policy == never })
	if c := r.Configs[i]; c.TurnsSaved != 0 || len(r.ClassOf(i)) != 99 || c.Class == r.Configs[a.Config].Class {
		t.Errorf("score 150/10: %d saved, a class of %d; want 0, 99, not the leader's", c.TurnsSaved, len(r.ClassOf(i)))
	}
}

// --folds equal to the episodes: each fold holds one, each chosen on the 23
// others, which hold A and B episodes alike: 35/10 every time, as on all 24
// (TestNoClearWinner).
func TestFoldsEqualToN(t *testing.T) {
	o := opts()
	o.Folds = 24
	r := Run(handSet(t, 12, 12), handGrid, sor(40, 10), o)
	a := r.Answer
	if a == nil || a.CV.Folds != 24 || a.CV.Agree != 24 || r.Configs[a.Config].Policy != sor(35, 10) {
		t.Fatalf("answer %s, cv %+v; want 24 folds, all choosing 35/10", answerOf(r), a.CV)
	}
	for k, size := range a.CV.Sizes {
		if size != 1 || a.CV.Chosen[k] != a.Config {
			t.Errorf("fold %d: %d episodes, chose %d", k, size, a.CV.Chosen[k])
		}
	}
	if a.CV.HeldOutSavedShare != 0.3 || a.CV.HeldOutFalseRate != 0 {
		t.Errorf("held out: saved %v, false %v; want 30%%, 0", a.CV.HeldOutSavedShare, a.CV.HeldOutFalseRate)
	}
}

// A config is shown non-inferior to now from its discordant episodes alone,
// by Tango's bound within the margin; the bounds recomputed in Python by
// bisection on the score statistic: at n = 200, none worse and none better
// passes (+1.88 pp), one worse does not (+2.78 pp), nor 2 and 2 (+2.69 pp);
// with none discordant, z²/(n+z²) passes from n = 189 (+1.99 pp; 188:
// +2.002 pp); at n = 20, 4 better and none worse passes (−0.66 pp), 3 do
// not (+3.53 pp); 6 better and 1 worse pass (+1.12 pp), 5 do not (+4.91 pp).
func TestScreen(t *testing.T) {
	s := newScreen(0.02, true)
	for _, c := range []struct {
		b, c, n int
		want    bool
	}{{0, 0, 200, true}, {1, 0, 200, false}, {2, 2, 200, false}, {0, 0, 188, false}, {0, 0, 189, true},
		{0, 4, 20, true}, {0, 3, 20, false}, {1, 6, 20, true}, {1, 5, 20, false}, {3, 0, 20, false}} {
		if got := shownWithin(&Tally{Worse: c.b, Better: c.c}, s.table(c.n)); got != c.want {
			t.Errorf("%d worse, %d better of %d: shown %v, want %v", c.b, c.c, c.n, got, c.want)
		}
		if got := s.passes(c.b, c.c, c.n); got != c.want {
			t.Errorf("%d worse, %d better of %d: passes %v, want %v", c.b, c.c, c.n, got, c.want)
		}
	}
}

// The ties of the default grid on the bundled set: score-or-objective 40/10
// and window 40/10 agree on every episode (window anchors a completion at
// its own turn, which at interval 10 changes no stop here), so now's row is
// "score-or-objective 40/10 = window 40/10".
func TestNowsClassOnTheBundledSet(t *testing.T) {
	r := Run(bundled(t), defaultGrid(), current, opts())
	rows, _ := r.FrontTable(1)
	if got := rows[len(rows)-1].Cells[1]; got != "score-or-objective 40/10 = window 40/10" {
		t.Errorf("now's row is %q", got)
	}
	for _, i := range r.NowClass {
		if r.Configs[i].Class != -1 {
			t.Errorf("%s is in now's class with class %d", r.Configs[i].Policy, r.Configs[i].Class)
		}
	}
}

// TestScreenVeto: of 480 episodes, 5 stopped early under a change and none
// under now (Tango's interval of the change +0.24 … +2.42 pp, a significant
// rise, by McNemar's score test too: (5 − 0)²/5 = 5 > 3.84). Where now is a
// stop rule, that rise keeps the change from the screen whatever the
// margin; where now is no stop rule (a harness: every rule adds false
// terminations) the margin alone judges it: within 5 pp, not within 2.
func TestScreenVeto(t *testing.T) {
	for _, c := range []struct {
		margin float64
		veto   bool
		want   bool
	}{
		{0.05, true, false},
		{0.05, false, true},
		{0.02, false, false},
		{0.02, true, false},
	} {
		if got := newScreen(c.margin, c.veto).passes(5, 0, 480); got != c.want {
			t.Errorf("margin %g, veto %v: passes %v, want %v", c.margin, c.veto, got, c.want)
		}
	}
	// No difference at all passes either way: its bounds straddle 0.
	if !newScreen(0.02, true).passes(0, 0, 480) {
		t.Error("0 worse, 0 better of 480: not within 2 pp")
	}
}

// A price per token on logs that record no tokens prices nothing: no dollars
// (never $0.00), and a note that says so and points at --cost-per-call. With
// a price per call too, the calls are priced; with some logs recording
// tokens, the note counts the others.
func TestPricePerTokenWithoutTokens(t *testing.T) {
	o := opts()
	o.CostPerMTok = 2.5
	r := Run(handSet(t, 12, 12), handGrid, sor(40, 10), o)
	if r.Dollars != nil || !slices.ContainsFunc(r.LeftOut, func(s string) bool {
		return strings.Contains(s, "no log read records tokens") && strings.Contains(s, "--cost-per-call")
	}) {
		t.Errorf("dollars %v, notes %q: want none, and the note", r.Dollars, r.LeftOut)
	}
	if l := lineOf(r, "versus now"); strings.Contains(l, "$") {
		t.Errorf("the versus now line says dollars: %q", l)
	}
	o.CostPerCall = 0.01
	if r := Run(handSet(t, 12, 12), handGrid, sor(40, 10), o); r.Dollars == nil || len(r.LeftOut) != 0 {
		t.Errorf("priced per call too: dollars %v, notes %q", r.Dollars, r.LeftOut)
	}
	o.CostPerCall = 0
	eps := handSet(t, 12, 12)
	for _, ep := range eps[:5] {
		ep.Signals = ep.Signals.With(episode.Tokens)
	}
	if r := Run(eps, handGrid, sor(40, 10), o); len(r.LeftOut) != 1 || !strings.Contains(r.LeftOut[0], "19 of the 24 episodes record no tokens") {
		t.Errorf("notes %q, want 19 of the 24 without tokens", r.LeftOut)
	}
}
