package replay

import (
	"fmt"
	"math"
	"runtime"
	"testing"

	"github.com/lbanalyze/lbanalyze/episode"
	"github.com/lbanalyze/lbanalyze/policy"
)

// Every setting of every policy is bounded by what an episode can use, not
// by its value: set to 10^9 or to the largest int, each replays a 300-turn
// episode that records every signal without a panic and allocating no more
// than the episode's turns call for (a checkpoint of 10^9 once took 15.7 GB;
// one of the largest int panicked in makeslice).
func TestHugeSettingsBounded(t *testing.T) {
	ep := &episode.Episode{ID: "huge", Format: "zorkgpt2-runlog", Signals: episode.Signals(0).With(episode.Rooms, episode.Objectives,
		episode.Critic, episode.Rejections, episode.Calls, episode.Responses)}
	for i := range 300 {
		ep.Turns = append(ep.Turns, episode.Turn{Score: episode.Score(i / 50), Location: fmt.Sprint("room ", i%7), Critic: 0.4, Rejections: int32(i % 4), Calls: 3})
	}
	ep.Objectives = []episode.Completion{{Turn: 30, Objective: "o"}}
	ep.Turns[29].Objectives = 1
	var ms runtime.MemStats
	for _, n := range policy.Names() {
		k, _ := policy.Lookup(n)
		for _, s := range k.Settings {
			for _, v := range []int{1_000_000_000, math.MaxInt} {
				p := policy.Policy{Name: n}.With(s, v)
				if p.Usable() != nil {
					continue
				}
				runtime.ReadMemStats(&ms)
				before := ms.TotalAlloc
				o := Run(ep, p)
				runtime.ReadMemStats(&ms)
				if got := ms.TotalAlloc - before; got > 1<<20 || o.Length != 300 && !o.Terminated() {
					t.Errorf("%s: %d bytes allocated, outcome %+v", p, got, o)
				}
			}
		}
	}
}
