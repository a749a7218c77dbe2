package sweep

import (
	"strings"
	"testing"

	"github.com/lbanalyze/lbanalyze/episode"
	"github.com/lbanalyze/lbanalyze/policy"
)

// Each episode's System picks the sweep's: ZorkGPT2's runs zorkburr alone,
// whose block is [tool.zorkburr]; another policy gets the change ZorkGPT2
// needs for it; and what runs now is no stop at all.
func TestZorkGPT2System(t *testing.T) {
	eps := []*episode.Episode{{ID: "a", System: episode.ZorkGPT2}, {ID: "b", System: episode.ZorkGPT2}}
	if s := SystemOf(eps); s != ZorkGPT2 || s.Stops || s.Adds != policy.Zorkburr {
		t.Fatalf("ZorkGPT2's runs: system %s (stops %v, adds %s)", s.Name, s.Stops, s.Adds)
	}
	p := policy.Policy{Name: policy.Zorkburr}.With(policy.MaxTurnsStuck, 60).With(policy.CheckInterval, 5)
	if block, err := ZorkGPT2.Block(p); err != nil || block != "[tool.zorkburr]\nmax_turns_stuck = 60\nstuck_check_interval = 5\n" {
		t.Errorf("zorkburr 60/5: %q, %v", block, err)
	}
	for _, n := range []policy.Name{policy.Supervisor, policy.Score, policy.None} {
		k, _ := policy.Lookup(n)
		_, err := ZorkGPT2.Block(policy.Policy{Name: n})
		if err == nil || !strings.HasPrefix(err.Error(), "ZorkGPT2 cannot run "+string(n)+" without a code change: ") || !strings.HasSuffix(err.Error(), k.ZorkGPT2Change) {
			t.Errorf("%s: %v, want the change ZorkGPT2 needs", n, err)
		}
	}
	// ZorkGPT runs neither of ZorkGPT2's rules as it is.
	for _, n := range []policy.Name{policy.Zorkburr, policy.Supervisor} {
		if ZorkGPT.Runs(policy.Policy{Name: n}) {
			t.Errorf("ZorkGPT runs %s", n)
		}
	}
	eps[1].System = episode.Harness
	if s := SystemOf(eps); s != ZorkGPT {
		t.Errorf("ZorkGPT2's and a harness's runs: system %s, want ZorkGPT's default", s.Name)
	}
}
