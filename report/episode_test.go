package report

import (
	"bytes"
	"math/rand/v2"
	"path/filepath"
	"reflect"
	"slices"
	"testing"

	"github.com/lbanalyze/lbanalyze/episode"
	"github.com/lbanalyze/lbanalyze/internal/corpus"
	"github.com/lbanalyze/lbanalyze/internal/metrics"
	"github.com/lbanalyze/lbanalyze/internal/testlogs"
	"github.com/lbanalyze/lbanalyze/internal/textout"
	"github.com/lbanalyze/lbanalyze/policy"
	"github.com/lbanalyze/lbanalyze/replay"
)

var score, sor = testlogs.Score, testlogs.ScoreOrObjective

// bundledEpisodes are the episodes of the bundled dataset.
func bundledEpisodes(t testing.TB) []*episode.Episode {
	t.Helper()
	logs, _ := filepath.Glob("../testdata/episodes/*/episode_log.jsonl")
	if len(logs) < 70 {
		t.Fatalf("%d bundled logs", len(logs))
	}
	return corpus.Read(logs, corpus.Options{Jobs: 1}).Episodes
}

// analyseReplayable is Analyse of the policies ep's log can replay, with
// every outcome held, the others named in its notes: what AnalyseGrid writes.
func analyseReplayable(ep *episode.Episode, policies []policy.Policy, opts Options) Episode {
	e := Analyse(ep, slices.Collect(replay.Replayable(ep, slices.Values(policies))), policy.DefaultTimer(), opts)
	e.Unreplayed = replay.Unreplayable(ep, slices.Values(policies))
	return e
}

// plainOutcomes are replay.Run of each policy, one by one: what the fast
// path must give.
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
func cliGrid(names []policy.Name, ws, intervals []int, tweak func(policy.Policy) policy.Policy) []policy.Policy {
	var ps []policy.Policy
	for _, n := range names {
		for _, w := range ws {
			for _, i := range intervals {
				p := policy.Policy{Name: n}.With(policy.MaxTurnsStuck, w).With(policy.CheckInterval, i)
				if tweak != nil {
					p = tweak(p)
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

// Analyse's outcomes, from the sweep's fast path, are DeepEqual to
// replay.Run of every config, one by one, on every bundled episode: under
// the benchmark grid (3 policies × W 21..220 × intervals 1..10), and under an
// edge grid in no order (W 1 and below the interval, intervals past the end
// of the log, warnings from 0, 5 and never, variants the fast path does not
// serve, patience and increase with their own settings, repeated configs),
// with and without a gain horizon.
func TestAnalyseFastPathEqualsRun(t *testing.T) {
	shipped := []policy.Name{policy.Score, policy.ScoreOrObjective, policy.Window}
	benchGrid := cliGrid(shipped, span(21, 220), span(1, 10), nil)
	if testing.Short() {
		benchGrid = cliGrid(shipped, []int{21, 22, 39, 40, 41, 100, 219, 220}, span(1, 10), nil)
	}
	edge := cliGrid(policy.Names(), []int{1, 2, 3, 7, 10, 39, 40, 41, 1000, 1 << 40}, []int{1, 3, 10, 11, 250, 5000}, nil)
	for _, wt := range []int{0, 5, 39, 1000} {
		edge = append(edge, cliGrid(shipped, []int{1, 5, 40, 60}, []int{1, 10, 7}, func(p policy.Policy) policy.Policy { return p.With(policy.WarningThreshold, wt) })...)
	}
	edge = append(edge, cliGrid([]policy.Name{policy.Patience}, []int{5, 40}, []int{1, 10}, func(p policy.Policy) policy.Policy {
		return p.With(policy.ObjectivePatience, 20).With(policy.RoomPatience, 30).With(policy.ScoreMode, policy.ScoreIncrease).With(policy.MinDelta, 5).With(policy.MinTurns, 50)
	})...)
	edge = append(edge, cliGrid([]policy.Name{policy.Patience, policy.Increase}, []int{5, 40}, []int{1, 10}, func(p policy.Policy) policy.Policy {
		return p.With(policy.ObjectivePatience, policy.ObjectivesOff).With(policy.MinDelta, 2).With(policy.MinTurns, 15)
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
		}{{"benchmark grid", benchGrid, 0}, {"edge", edge, 0}, {"edge, horizon 15", edge, 15}} {
			got := Analyse(ep, c.policies, policy.DefaultTimer(), Options{Costs: metrics.Costs{CallsPerTurn: 4}, GainHorizon: c.horizon}).Outcomes
			want := plainOutcomes(ep, c.policies, c.horizon)
			if len(got) != len(want) {
				t.Fatalf("%s, %s: %d outcomes, want %d", ep.Name(), c.name, len(got), len(want))
			}
			bad := 0
			for i := range want {
				if !reflect.DeepEqual(got[i], want[i]) {
					if bad++; bad <= 3 {
						t.Errorf("%s, %s, %s warn %d:\n fast %+v (gain %+v)\n run  %+v (gain %+v)", ep.Name(), c.name, c.policies[i],
							c.policies[i].WarningThreshold(), got[i], got[i].LaterGain, want[i], want[i].LaterGain)
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
// serve, about the size where the way changes; held (Analyse) or replayed a
// chunk at a time (AnalyseGrid).
func TestOutcomesAroundSweepFrom(t *testing.T) {
	ep := bundledEpisodes(t)[0]
	opts := Options{Costs: metrics.Costs{CallsPerTurn: 4}, GainHorizon: 3}
	if e := Analyse(ep, nil, policy.DefaultTimer(), opts); len(e.Outcomes) != 0 || e.Results() != 0 {
		t.Errorf("no policies: %v", e.Outcomes)
	}
	grid := cliGrid([]policy.Name{policy.Score, policy.Window, policy.Increase}, span(1, 12), []int{1, 10}, nil)
	for n := 1; n <= len(grid); n++ {
		want := plainOutcomes(ep, grid[:n], 3)
		if got := Analyse(ep, grid[:n], policy.DefaultTimer(), opts).Outcomes; !reflect.DeepEqual(got, want) {
			t.Fatalf("%d policies: %v, want %v", n, got, want)
		}
		if got := gridOutcomes(ep, policy.List(grid[:n]...), opts); !reflect.DeepEqual(got, want) {
			t.Fatalf("%d policies, as a grid: %v, want %v", n, got, want)
		}
	}
}

// gridOutcomes are the outcomes AnalyseGrid replays, chunk after chunk.
func gridOutcomes(ep *episode.Episode, g *policy.Grid, opts Options) []replay.Outcome {
	e := AnalyseGrid(ep, g, policy.DefaultTimer(), opts)
	var all []replay.Outcome
	e.each(func(from int, out []replay.Outcome) error {
		if from != len(all) {
			panic("a chunk out of order")
		}
		all = append(all, out...)
		return nil
	})
	if len(all) != e.Results() {
		panic("Results is not the outcomes replayed")
	}
	return all
}

// An episode analysed over a grid writes the bytes the same episode writes
// with every outcome held, in every format: its results replayed a chunk at
// a time (four chunks here), those of the policies a log cannot replay left
// out and named alike (an episode whose log records no objectives).
func TestGridWritesAsHeld(t *testing.T) {
	eps := bundledEpisodes(t)[:3]
	lacking := *eps[1]
	lacking.Signals = episode.Signals(0).With(episode.Rooms, episode.Tokens)
	eps = append(eps, &lacking)
	policies := cliGrid([]policy.Name{policy.Score, policy.ScoreOrObjective, policy.Window}, span(1, 120), span(1, 10), nil)
	g := policy.List(policies...)
	opts := Options{Costs: metrics.Costs{CallsPerTurn: 4, CostPerCall: 0.01}, GainHorizon: 30}
	var held, grid []Episode
	for _, ep := range eps {
		held = append(held, analyseReplayable(ep, policies, opts))
		grid = append(grid, AnalyseGrid(ep, g, policy.DefaultTimer(), opts))
	}
	if n := grid[0].Results(); n <= 3*replay.SweepChunk || grid[0].Outcomes != nil {
		t.Fatalf("%d results, %d held: the grid is not replayed in chunks", n, len(grid[0].Outcomes))
	}
	if n := grid[3].Results(); n != 1200 || len(grid[3].Unreplayed) != 2 {
		t.Fatalf("the log without objectives: %d results, notes %q", n, grid[3].Unreplayed)
	}
	for _, format := range textout.Formats {
		var want, got bytes.Buffer
		if err := WriteEpisodes(&want, format, held, nil); err != nil {
			t.Fatal(err)
		}
		if err := WriteEpisodes(&got, format, grid, nil); err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got.Bytes(), want.Bytes()) {
			i := 0
			for i < min(got.Len(), want.Len()) && got.Bytes()[i] == want.Bytes()[i] {
				i++
			}
			t.Errorf("%s: the grid's output differs at byte %d of %d", format, i, want.Len())
		}
	}
}
