package sweep

import (
	"math"
	"strings"
	"testing"

	"github.com/lbanalyze/lbanalyze/policy"
	"github.com/lbanalyze/lbanalyze/system"
)

// Priced at $0.01 a call (4 calls a turn), handSet's 12 A and 12 B: 35/10
// saves 60 turns on every A, $2.40 each, $28.80 in all; now (40/10) 50 turns,
// $24.00. Resampled, the sum is $2.40 times the count of A episodes drawn
// (binomial, 24 draws of one half: 7 to 17 at 95%), about $16.80 to $40.80.
// Every config the front shows is priced; the answer's in sample line (on
// 24 episodes, no clear winner: TestNoClearWinner) and the front say the
// dollars with their interval.
func TestDollarsSaved(t *testing.T) {
	o := opts()
	o.CostPerCall = 0.01
	r := Run(handSet(t, 12, 12), handGrid, sor(40, 10), o)
	a := r.Answer
	if a == nil || r.Configs[a.Config].Policy != sor(35, 10) {
		t.Fatalf("answer %s, want 35/10", answerOf(r))
	}
	d, ok := r.Dollars[sor(35, 10)]
	if !ok || math.Abs(d.Saved-28.8) > 1e-9 || d.CI == nil || math.Abs(d.CI[0]-16.8) > 2.41 || math.Abs(d.CI[1]-40.8) > 2.41 {
		t.Errorf("35/10 saves %+v (interval %v), want $28.80 within about $16.80 … $40.80", d, d.CI)
	}
	if now := r.Dollars[sor(40, 10)]; math.Abs(now.Saved-24) > 1e-9 {
		t.Errorf("now saves $%v, want $24.00", now.Saved)
	}
	for _, i := range r.Front {
		if _, ok := r.Dollars[r.Configs[i].Policy]; !ok {
			t.Errorf("%s is on the front but not priced", r.Configs[i].Policy)
		}
	}
	// Versus now, the dollars 35/10 saves over now's, $28.80 − $24.00, as at
	// least the lower bound of their interval (the choice biases it).
	if l := lineOf(r, "versus now"); !strings.Contains(l, "cost saved +$4.80 (at least ") {
		t.Errorf("the versus now line is %q", l)
	}
	rows, _ := r.FrontTable(0)
	if h := r.FrontHeader(); h[3] != costHeader || !strings.Contains(rows[0].Cells[3], "$28.80 ($") {
		t.Errorf("the front's cost column: %v, %v", h, rows[0].Cells)
	}
	unpriced := Run(handSet(t, 12, 12), handGrid, sor(40, 10), opts())
	if unpriced.Dollars != nil || strings.Contains(lineOf(unpriced, "versus now"), "cost saved") {
		t.Errorf("unpriced, the sweep says dollars: %v", unpriced.Dollars)
	}
}

// lineOf is the text of the answer's line labelled label, "" if none.
func lineOf(r *Result, label string) string {
	for _, l := range r.Sections()[0].Lines {
		if l.Label == label {
			return l.Text
		}
	}
	return ""
}

// The front lists the configs the system runs as it is first: on ZorkGPT's
// logs window (which it cannot run) comes after score-or-objective, however
// much it saves. On handSet window 20/10 stops A at 30 (30 − 5 ≥ 20) and B
// never (its flat runs are 15 turns): it saves the most with no false
// termination, and no config of the grid has its outcomes.
func TestFrontRunnableFirst(t *testing.T) {
	window := policy.Policy{Name: policy.Window}.With(policy.MaxTurnsStuck, 20).With(policy.CheckInterval, 10)
	r := Run(handSet(t, 12, 12), append(handGrid, window), sor(40, 10), opts())
	if r.System != system.ZorkGPT {
		t.Fatalf("system %s", r.System.Name)
	}
	rows, _ := r.FrontTable(0)
	seen := false
	for _, row := range rows {
		if row.Config < 0 {
			continue
		}
		runs := r.Runnable[row.Config]
		if runs && seen {
			t.Errorf("%s, which ZorkGPT runs, comes after one it cannot run", row.Cells[1])
		}
		seen = seen || !runs
	}
	if !seen {
		t.Errorf("no config of the front needs a change: the case shows nothing")
	}
}
