package replay

import (
	"fmt"
	"math"
	"math/rand/v2"
	"reflect"
	"testing"
	"unsafe"

	"github.com/lbanalyze/lbanalyze/episode"
	"github.com/lbanalyze/lbanalyze/policy"
)

// roundTrips reports what o compacted and made whole again lacks of o.
func roundTrips(t *testing.T, what string, o Outcome) {
	t.Helper()
	c := o.Compact()
	if back := c.Outcome(o.Policy); !reflect.DeepEqual(back, o) {
		t.Errorf("%s: compacted and back\n%+v\nwant\n%+v", what, back, o)
	}
}

// Every outcome of every policy on the bundled episodes, the CLI's fixtures
// and random episodes comes back whole from its Compact, with a gain
// horizon or without.
func TestCompactRoundTrips(t *testing.T) {
	ps := grid(append(policy.Names(), "increase", "patience"), []int{1, 7, 40}, []int{1, 10}, []int{0, 20})
	check := func(what string, ep *episode.Episode) {
		for _, p := range ps {
			for _, h := range []int{0, 30} {
				o := Run(ep, p)
				o.GainHorizon = h
				roundTrips(t, fmt.Sprintf("%s %s horizon %d", what, p, h), o)
			}
		}
	}
	for _, path := range datasetLogs(t) {
		for _, ep := range readFile(t, path) {
			check(path+" "+ep.Name(), ep)
		}
	}
	rng := rand.New(rand.NewPCG(5, 9))
	for k := range 100 {
		check(fmt.Sprintf("random episode %d", k), randomEpisode(rng))
	}
}

// What the replay of the logs above never gives comes back too: each field
// past zero alone, and a turn past 32 bits, kept whole.
func TestCompactKeepsTheRare(t *testing.T) {
	full := Outcome{Policy: v2, TerminationTurn: 50, TurnsStuck: 40, ScoreAtTermination: 3.5, TurnsSaved: 10, Length: 50, ScoreForgone: 2,
		LaterGain: &Gain{Turn: 55, Points: 2}, WindowObjectives: []episode.Completion{{Turn: 45, Objective: "a"}}, StopReason: "repeat",
		Cut: true, Censored: true, WarningStartTurn: 30, Logged: episode.Signals(0).With(episode.Tokens, episode.Costs), TokensSaved: 1000, CallsSaved: 40,
		NudgeTurn: 44, NudgesHeeded: 2, DollarsSaved: 0.25, SecondsSaved: 12.5, Judged: episode.ByResult, GainHorizon: 1 << 40}
	roundTrips(t, "every field", full)
	v := reflect.ValueOf(&full).Elem()
	for i := range v.NumField() {
		o := Outcome{Policy: v1}
		reflect.ValueOf(&o).Elem().Field(i).Set(v.Field(i))
		roundTrips(t, v.Type().Field(i).Name+" alone", o)
	}
	long := full
	long.TerminationTurn, long.Length = math.MaxInt32+1, math.MaxInt32+1
	roundTrips(t, "a turn past 32 bits", long)
	if c := full.Compact(); c.whole {
		t.Error("an outcome whose turns fit in 32 bits is kept whole")
	}
	if n := unsafe.Sizeof(Compact{}); n > 64 {
		t.Errorf("a Compact takes %d bytes, want at most 64", n)
	}
}
