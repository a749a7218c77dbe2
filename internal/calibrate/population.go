package calibrate

import (
	"bytes"
	"fmt"
	"path"
	"runtime"
	"sync"

	"github.com/lbanalyze/lbanalyze/episode"
	"github.com/lbanalyze/lbanalyze/internal/synth/dataset"
	"github.com/lbanalyze/lbanalyze/source"
	"github.com/lbanalyze/lbanalyze/source/zorkgpt"
)

// population is the n episodes `lbanalyze synth --seed seed --episodes n`
// writes (the generator of the bundled set, the kinds in its proportions),
// each read back from its log by ZorkGPT's source as `lbanalyze sweep` reads
// a directory of them: its source named population/<id>/episode_log.jsonl.
// The same seed gives the same episodes, whatever the workers.
func population(seed uint64, n, workers int) ([]*episode.Episode, error) {
	slots := dataset.Compose(seed, n)
	eps := make([]*episode.Episode, len(slots))
	errs := make([]error, len(slots))
	next := make(chan int)
	var wg sync.WaitGroup
	for range max(1, min(workers, runtime.GOMAXPROCS(0))) {
		wg.Go(func() {
			for i := range next {
				eps[i], errs[i] = generate(seed, slots[i])
			}
		})
	}
	for i := range slots {
		next <- i
	}
	close(next)
	wg.Wait()
	ids := map[string]bool{}
	for i, err := range errs {
		if err != nil {
			return nil, err
		}
		if ids[eps[i].ID] {
			return nil, fmt.Errorf("episode id %s twice in a population of %d", eps[i].ID, n)
		}
		ids[eps[i].ID] = true
	}
	return eps, nil
}

// generate plays the episode of slot s and reads its log back.
func generate(seed uint64, s dataset.Slot) (*episode.Episode, error) {
	e, err := dataset.Generate(seed, s, false)
	if err != nil {
		return nil, err
	}
	name := path.Join("population", s.Dir(), dataset.LogName)
	eps, _ := source.ReadAll(zorkgpt.Source{}, bytes.NewReader(e.Log), name, source.Options{})
	if len(eps) != 1 {
		return nil, fmt.Errorf("%s: the log reads as %d episodes", name, len(eps))
	}
	return eps[0], nil
}
