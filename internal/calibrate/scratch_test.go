package calibrate

import (
	"encoding/json"
	"os"
	"sync"
	"testing"

	"github.com/lbanalyze/lbanalyze/internal/sweep"
	"github.com/lbanalyze/lbanalyze/policy"
)

type dumpRow struct {
	N, R                   int
	Verdict                string
	Chosen                 string
	Stab                   float64
	Agree, Folds           int
	FTHi, FTLo, SvLo, SvHi float64
	InFTHi, InFTLo         float64
	TrueDiff, TrueSaved    float64
	TrueDiffLow            float64
	Disc                   [2]int
}

func TestScratchDump(t *testing.T) {
	if os.Getenv("SCRATCH") == "" {
		t.Skip()
	}
	pop, err := population(1, 1500, 2)
	if err != nil {
		t.Fatal(err)
	}
	configs, now := grid(), DefaultNow()
	if v := os.Getenv("NOW"); v != "" {
		now, _ = policy.Parse(v, nil)
	}
	tr := newTruth(pop, append(configs, now), 2)
	f, _ := os.Create(os.Getenv("OUT"))
	defer f.Close()
	var mu sync.Mutex
	enc := json.NewEncoder(f)
	for _, n := range []int{30, 75, 200} {
		next := make(chan int)
		var wg sync.WaitGroup
		for range 2 {
			wg.Go(func() {
				for r := range next {
					res := Sweep(draw(pop, n, 1, r), now)
					a := res.Answer
					row := dumpRow{N: n, R: r, Verdict: "none"}
					if a != nil {
						row.Verdict = a.Verdict.String()
						row.Stab, row.Agree, row.Folds = a.Stability, a.CV.Agree, a.CV.Folds
						if a.Config >= 0 {
							p := res.Configs[a.Config].Policy
							row.Chosen = p.String()
							row.TrueDiff, _ = tr.Of(Quantity{Figure: FalseRate, Of: p, Base: now, Versus: true})
							row.TrueDiffLow, _ = tr.Of(Quantity{Figure: FalseRateLow, Of: p, Base: now, Versus: true})
							row.TrueSaved, _ = tr.Of(Quantity{Figure: SavedPerEpisode, Of: p, Base: now, Versus: true})
							for _, m := range a.Versus {
								if m.Name == "false_termination_rate" {
									row.FTLo, row.FTHi, row.Disc = m.CI[0], m.CI[1], m.Discordant
								}
								if m.Name == "turns_saved" {
									row.SvLo, row.SvHi = m.CI[0]/float64(n), m.CI[1]/float64(n)
								}
							}
							_ = sweep.Ship
						}
					}
					mu.Lock()
					enc.Encode(row)
					mu.Unlock()
				}
			})
		}
		for r := range 200 {
			next <- r
		}
		close(next)
		wg.Wait()
	}
}
