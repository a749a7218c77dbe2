package report

import (
	"math/rand/v2"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/lbanalyze/lbanalyze/episode"
	"github.com/lbanalyze/lbanalyze/internal/corpus"
	"github.com/lbanalyze/lbanalyze/policy"
	"github.com/lbanalyze/lbanalyze/replay"
)

// bundledEpisodes are the episodes of the bundled dataset.
func bundledEpisodes(t testing.TB) []*episode.Episode {
	t.Helper()
	logs, _ := filepath.Glob("../../testdata/episodes/*/episode_log.jsonl")
	if len(logs) < 70 {
		t.Fatalf("%d bundled logs", len(logs))
	}
	return corpus.Read(logs, corpus.Options{Jobs: 1}).Episodes
}

// plainOutcomes is what AnalyseWith gave before the fast path: replay.Run
// of each policy, one by one.
func plainOutcomes(ep *episode.Episode, policies []policy.Policy, gainHorizon int) []replay.Outcome {
	var out []replay.Outcome
	for _, p := range policies {
		o := replay.Run(ep, p)
		o.GainHorizon = gainHorizon
		out = append(out, o)
	}
	return out
}

// cliGrid is the policies `episode --policy NAMES --max-turns-stuck ws
// --check-interval intervals` replays, in its order (policy × W × interval).
func cliGrid(names []policy.Name, ws, intervals []int, tweak func(*policy.Params)) []policy.Policy {
	var ps []policy.Policy
	for _, n := range names {
		for _, w := range ws {
			for _, i := range intervals {
				p := policy.Policy{Name: n, Params: policy.DefaultParams()}
				p.MaxTurnsStuck, p.CheckInterval = w, i
				if tweak != nil {
					tweak(&p.Params)
				}
				ps = append(ps, p)
			}
		}
	}
	return ps
}

func span(from, to int) []int {
	var s []int
	for v := from; v <= to; v++ {
		s = append(s, v)
	}
	return s
}

// AnalyseWith's outcomes, from the sweep's fast path, are DeepEqual to
// replay.Run of every config, one by one, on every bundled episode: under
// the benchmark grid (3 policies × W 21..220 × intervals 1..10), and under an
// edge grid in no order (W 1 and below the interval, intervals past the end
// of the log, warnings from 0, 5 and never, variants the fast path does not
// serve, patience and increase with their own settings, repeated configs),
// with and without a gain horizon.
func TestAnalyseWithFastPathEqualsRun(t *testing.T) {
	shipped := []policy.Name{policy.Score, policy.ScoreOrObjective, policy.Window}
	issue13 := cliGrid(shipped, span(21, 220), span(1, 10), nil)
	if testing.Short() {
		issue13 = cliGrid(shipped, []int{21, 22, 39, 40, 41, 100, 219, 220}, span(1, 10), nil)
	}
	edge := cliGrid(policy.Names(), []int{1, 2, 3, 7, 10, 39, 40, 41, 1000, 1 << 40}, []int{1, 3, 10, 11, 250, 5000}, nil)
	for _, wt := range []int{0, 5, 39, 1000} {
		edge = append(edge, cliGrid(shipped, []int{1, 5, 40, 60}, []int{1, 10, 7}, func(p *policy.Params) { p.WarningThreshold = wt })...)
	}
	edge = append(edge, cliGrid([]policy.Name{policy.Patience}, []int{5, 40}, []int{1, 10}, func(p *policy.Params) {
		p.ObjectivePatience, p.RoomPatience, p.ScoreMode, p.MinDelta, p.MinTurns = 20, 30, policy.ScoreIncrease, 5, 50
	})...)
	edge = append(edge, cliGrid([]policy.Name{policy.Patience, policy.Increase}, []int{5, 40}, []int{1, 10}, func(p *policy.Params) {
		p.ObjectivePatience, p.MinDelta, p.MinTurns = policy.ObjectivesOff, 2, 15
	})...)
	edge = append(edge, edge[:40]...) // met again after the others
	rand.New(rand.NewPCG(13, 1)).Shuffle(len(edge), func(i, j int) { edge[i], edge[j] = edge[j], edge[i] })

	eps := bundledEpisodes(t)
	var served, shared int
	for _, ep := range eps {
		for _, c := range []struct {
			name     string
			policies []policy.Policy
			horizon  int
		}{{"benchmark grid", issue13, 0}, {"edge", edge, 0}, {"edge, horizon 15", edge, 15}} {
			got := Analyse(ep, c.policies, policy.DefaultParams(), Options{CallsPerTurn: 4, GainHorizon: c.horizon}).Outcomes
			want := plainOutcomes(ep, c.policies, c.horizon)
			if len(got) != len(want) {
				t.Fatalf("%s, %s: %d outcomes, want %d", ep.Name(), c.name, len(got), len(want))
			}
			bad := 0
			for i := range want {
				if !reflect.DeepEqual(got[i], want[i]) {
					if bad++; bad <= 3 {
						t.Errorf("%s, %s, %s warn %d:\n fast %+v (gain %+v)\n run  %+v (gain %+v)", ep.Name(), c.name, c.policies[i],
							c.policies[i].WarningThreshold, got[i], got[i].LaterGain, want[i], want[i].LaterGain)
					}
				}
				if replay.ThresholdFree(c.policies[i].Name) {
					served++
				}
				if i > 0 && got[i].LaterGain != nil && got[i].LaterGain == got[i-1].LaterGain {
					shared++ // only the sweeper's tables share a gain between outcomes
				}
			}
			if bad > 3 {
				t.Errorf("%s, %s: %d of %d outcomes differ", ep.Name(), c.name, bad, len(want))
			}
		}
	}
	if served == 0 || shared == 0 {
		t.Errorf("%d outcomes of threshold-free policies, %d sharing a gain: the fast path was not taken", served, shared)
	}
}

// Few policies are replayed one by one, many by the fast path; either way
// the outcomes are Run's, with or without policies the fast path does not
// serve, about the size where the way changes.
func TestOutcomesAroundSweepFrom(t *testing.T) {
	ep := bundledEpisodes(t)[0]
	if got := outcomes(ep, nil, 0); got != nil {
		t.Errorf("no policies: %v", got)
	}
	grid := cliGrid([]policy.Name{policy.Score, policy.Window, policy.Increase}, span(1, 12), []int{1, 10}, nil)
	for n := 1; n <= len(grid); n++ {
		if got, want := outcomes(ep, grid[:n], 3), plainOutcomes(ep, grid[:n], 3); !reflect.DeepEqual(got, want) {
			t.Fatalf("%d policies: %v, want %v", n, got, want)
		}
	}
}
