package main

import (
	"fmt"
	"reflect"
	"slices"
	"testing"

	"github.com/lbanalyze/lbanalyze/episode"
	"github.com/lbanalyze/lbanalyze/internal/corpus"
	"github.com/lbanalyze/lbanalyze/policy"
	"github.com/lbanalyze/lbanalyze/replay"
)

// Every policy, at its defaults and with a setting that reads the responses'
// texts, replays every bundled log and a run of repeated actions to the same
// outcome once the texts its registry entry does not say it reads are let go
// (reads, episode.Episode.DropTexts): what sweep's reading keeps is enough.
func TestReadsAreWhatPoliciesRead(t *testing.T) {
	eps := corpus.Read([]string{"../../testdata"}, corpus.Options{Jobs: 2}).Episodes
	eps = append(eps, repeating())
	if len(eps) < 20 {
		t.Fatalf("%d episodes read from testdata", len(eps))
	}
	var policies []policy.Policy
	for _, name := range policy.Names() {
		policies = append(policies, policy.New(name, nil))
	}
	// The responses of repeating alternate: kept, they differ, and the rule
	// does not stop on them; let go, they would all be "".
	ignoring, err := policy.Parse("repeat-observed:ignore=zzz", nil)
	if err != nil {
		t.Fatal(err)
	}
	policies = append(policies, ignoring)
	dropped := 0
	for _, p := range policies {
		keep := reads(p)
		for _, ep := range eps {
			if len(replay.Lacking(ep, p)) > 0 {
				continue
			}
			slim := *ep
			slim.Turns = slices.Clone(ep.Turns)
			slim.DropTexts(keep)
			if !slices.Equal(slim.Turns, ep.Turns) {
				dropped++
			}
			if got, want := replay.Run(&slim, p), replay.Run(ep, p); !reflect.DeepEqual(got, want) {
				t.Errorf("%s on %s (%s), its %v let go: %+v, want %+v", p, ep.Name(), ep.Format, keep.Lacking(episode.Signals(0).With(episode.Actions, episode.ResponseTexts)), got, want)
			}
		}
	}
	if dropped == 0 {
		t.Error("no policy let go of any text")
	}
}

// repeating is a run whose agent repeats one action, but every seventh step,
// and gets one of two responses in turn, scoring once, so that the rules on
// actions stop it.
func repeating() *episode.Episode {
	ep := &episode.Episode{ID: "repeating", Source: "made", Format: "steps", Signals: episode.Signals(0).With(episode.Actions, episode.Responses, episode.ResponseTexts)}
	for t := 1; t <= 60; t++ {
		tu := episode.Turn{Action: "look", Response: fmt.Sprintf("It is dark (%d).", t%2), ResponseHash: uint64(7 + t%2)}
		if t == 3 {
			tu.Score, tu.Action, tu.Response, tu.ResponseHash = 5, "light lamp", "The lamp is on.", 8
		} else if t > 3 {
			tu.Score = 5
		}
		if t%7 == 0 {
			tu.Action = fmt.Sprintf("open door %d", t)
		}
		ep.Turns = append(ep.Turns, tu)
	}
	return ep
}
