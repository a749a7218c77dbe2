package replay

import (
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"testing"

	"github.com/lbanalyze/lbanalyze/episode"
	"github.com/lbanalyze/lbanalyze/internal/realdata"
	"github.com/lbanalyze/lbanalyze/policy"
	"github.com/lbanalyze/lbanalyze/source"
	"github.com/lbanalyze/lbanalyze/source/zorkgpt2"
)

// zorkburrGrid is zorkburr under every W and I of a wide grid, with several
// warning thresholds (which zorkburr has not: its countdown is fixed).
func zorkburrGrid() []policy.Policy {
	return grid([]policy.Name{policy.Zorkburr}, append(values(1, 80, 1), 100, 150, 1000, 1<<40), append(values(1, 30, 1), 50, 97, 250), []int{20, 5})
}

// decayingEpisode is n turns whose score moves at random: often early, then
// seldom, up and down (a death's −10), so that counters reach W on check
// turns and off them, and gains land on check turns too.
func decayingEpisode(rng *rand.Rand, n int) *episode.Episode {
	ep := &episode.Episode{ID: "random", Turns: make([]episode.Turn, n), Signals: episode.Signals(0).With(episode.Calls)}
	score, p := 0, 0.3
	for t := range ep.Turns {
		if rng.Float64() < p {
			score += []int{5, 10, -10, 25}[rng.IntN(4)]
		}
		p = max(0.01, p*0.97)
		ep.Turns[t] = episode.Turn{Score: episode.Score(score), Calls: int32(3 + 2*rng.IntN(3))}
	}
	return ep
}

// TestZorkburrFastPathEqualsRun: the sweep's fast path gives zorkburr the
// outcome Run gives it, on every config of a wide grid, over random
// episodes; so ThresholdFree holds for it.
func TestZorkburrFastPathEqualsRun(t *testing.T) {
	ps := zorkburrGrid()
	fastPathOnRandom(t, policy.Zorkburr, rand.New(rand.NewPCG(19, 96)), 30, ps, ps)
}

// fastPathOnRandom requires name to be ThresholdFree, and the fast path to
// give Run's outcome of every policy of decaying on rounds decaying
// episodes, and of random on as many random ones (with objectives, real
// scores and a recorded stop).
func fastPathOnRandom(t *testing.T, name policy.Name, rng *rand.Rand, rounds int, decaying, random []policy.Policy) {
	t.Helper()
	if k, _ := policy.Lookup(name); !k.ThresholdFree {
		t.Fatalf("%s is not marked ThresholdFree", name)
	}
	for i := range rounds {
		ep := decayingEpisode(rng, 20+rng.IntN(400))
		sweepMatchesRun(t, fmt.Sprintf("decaying episode %d (%d turns)", i, ep.N()), ep, decaying)
		ep = randomEpisode(rng)
		sweepMatchesRun(t, fmt.Sprintf("random episode %d (%d turns)", i, ep.N()), ep, random)
	}
}

// The same on the real episode ep96, read from its run log (it skips when
// the real runs are absent).
func TestZorkburrFastPathOnRealEpisode(t *testing.T) {
	path := filepath.Join(realdata.Dir(t, "zorkgpt2"), "ep96", "run_log_ep96.txt")
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	eps, _ := source.ReadAll(zorkgpt2.RunLog{}, f, path, source.Options{})
	if len(eps) != 1 || eps[0].N() != 110 {
		t.Fatalf("%d episodes", len(eps))
	}
	sweepMatchesRun(t, "ep96", eps[0], zorkburrGrid())
	// ep96 by hand: flat from turn 20 (score 50) to 91, +4 at 92. Under 40/10
	// the counter is 39 at 59 and 40 at 60: a stop at 60 with 50 turns saved
	// and 4 points forgone (the +4 at 92, 32 turns later).
	o := Run(eps[0], policy.Policy{Name: policy.Zorkburr})
	if o.TerminationTurn != 60 || o.TurnsStuck != 40 || o.TurnsSaved != 50 || o.ScoreForgone != 4 || o.LaterGain == nil || o.LaterGain.Turn != 92 {
		t.Errorf("zorkburr 40/10 on ep96: %+v", o)
	}
}
