package patterns

import (
	"encoding/json"
	"reflect"
	"testing"

	"github.com/lbanalyze/lbanalyze/episode"
	"github.com/lbanalyze/lbanalyze/internal/corpus"
	"github.com/lbanalyze/lbanalyze/internal/testlogs"
	"github.com/lbanalyze/lbanalyze/policy"
)

var scoreP, sooP = testlogs.Score, testlogs.ScoreOrObjective

// handBuilt is an 80-turn episode worked out by hand in the tests below:
//   - score 0 up to turn 24, 5 from turn 25 on (one change, at 25);
//   - an objective completed at turn 50 (when objective is true);
//   - every turn in room 1, except turns 40 and 42 which end in room 2, so the
//     rooms at the start of turns 40..45 are 1, 2, 1, 2, 1, 1;
//   - every turn "wait" with the same response.
func handBuilt(objective bool) *episode.Episode {
	ep := &episode.Episode{ID: "hand", InitialRoomID: 1, InitialRoom: "Room One",
		Recorded: episode.Recorded{Rules: []string{"score", "score-or-objective"}},
		Signals:  episode.Signals(episode.Penalties).With(episode.Objectives, episode.Rooms)} // as ZorkGPT's source says
	for t := 1; t <= 80; t++ {
		tu := episode.Turn{RoomID: 1, Location: "Room One", Action: "wait", ResponseHash: 42}
		if t >= 25 {
			tu.Score = 5
		}
		if t == 40 || t == 42 {
			tu.RoomID, tu.Location = 2, "Room Two"
		}
		if objective && t == 50 {
			tu.Objectives = 1
		}
		ep.Turns = append(ep.Turns, tu)
	}
	return ep
}

func ip(v int) *int { return &v }

func TestStuckSpells(t *testing.T) {
	cases := []struct {
		name      string
		objective bool
		p         policy.Policy
		want      PolicyPatterns
	}{
		{
			// Score 40/10: turn 1 only initialises; the change at 25 is progress.
			// Spell 1 = turns 1..24 (timer 10 and 20 at the checks: under 40).
			// Spell 2 starts at 26 with anchor 25: the first check with
			// t − 25 ≥ 40 is 70 (60 − 25 = 35 is not), so it stops at 70; the
			// logged spell runs to 80, and check 80 (55) is over the threshold too.
			// Lead: the spell began at 26 (70 − 26 = 44); the warning at 45
			// (45 − 25 = 20 at the start of 45: lead 25); the oscillation at 43
			// (lead 27); camping is on from turn 5, so at 26 (44); the repeats
			// too (26 repeats 25 with no progress since: 44).
			name: "score", p: scoreP,
			want: PolicyPatterns{Policy: "score 40/10", StopTurn: 70, Longest: 45, Spells: []Spell{
				{Start: 1, End: 24, Length: 24, Score: 0, RoomsVisited: 1, Ended: EndProgress, LoggedEnd: 24, Checks: []int{}},
				{Start: 26, End: 70, Length: 45, Score: 5, RoomsVisited: 2, Ended: EndStop, LoggedEnd: 80, Checks: []int{70, 80}},
			}, Lead: &Lead{StopTurn: 70, StuckSpell: 44, Warning: ip(25), Oscillation: ip(27), Camping: ip(44), Repeat: ip(44)}},
		},
		{
			// Score-or-objective with the objective at 50: resets at 25 (score),
			// 50 and 51 (docs/semantics.md, "5.5.6 v2: one completion resets the timer twice"). Spells 1..24, 26..49, 52..80; the last
			// has anchor 51 and would stop at 100 > 80: end of log, no stop.
			name: "objective", objective: true, p: sooP,
			want: PolicyPatterns{Policy: "score-or-objective 40/10", Longest: 29, Spells: []Spell{
				{Start: 1, End: 24, Length: 24, Score: 0, RoomsVisited: 1, Ended: EndProgress, LoggedEnd: 24, Checks: []int{}},
				{Start: 26, End: 49, Length: 24, Score: 5, RoomsVisited: 2, Ended: EndProgress, LoggedEnd: 49, Checks: []int{}},
				{Start: 52, End: 80, Length: 29, Score: 5, RoomsVisited: 1, Ended: EndOfLog, LoggedEnd: 80, Checks: []int{}},
			}},
		},
	}
	for _, c := range cases {
		a := Analyse(handBuilt(c.objective), DefaultOptions(), c.p)
		if got := a.Policies[0]; !reflect.DeepEqual(got, c.want) {
			g, _ := json.Marshal(got)
			w, _ := json.Marshal(c.want)
			t.Errorf("%s:\n got %s\nwant %s", c.name, g, w)
		}
	}
}

func TestWarnings(t *testing.T) {
	cases := []struct {
		name      string
		objective bool
		loopBreak string
		noSignals bool // the log records no objectives (a harness's)
		want      Warnings
	}{
		{
			// v1 → the score policy. Timer at the start of t is t − anchor of
			// t − 1. Spell 1: from 20 (20 − 0) to 25, where the score change
			// escapes it; 15 turns left at 25 at most: important only.
			// Spell 2: anchor 25, warned from 45; 40 − (t − 25) turns left:
			// 10 at 55 (urgent), 5 at 60 (critical), −5 at the stop at 70.
			name: "v1", loopBreak: "v1",
			want: Warnings{Policy: "score 40/10", Shown: true, Threshold: 20, Escaped: 1, Stopped: 1, Spells: []WarningSpell{
				{Start: 20, End: 25, Turns: 6, MaxLevel: Important, MinTurnsLeft: 15, Outcome: Escaped},
				{Start: 45, End: 70, Turns: 26, UrgentFrom: 55, CriticalFrom: 60, MaxLevel: Critical, MinTurnsLeft: -5, Outcome: EndStop},
			}},
		},
		{
			// v2 → score-or-objective: spell 2 escapes at 50, where the
			// objective resets the timer on its own turn (40 − 25 = 15 left).
			// The reset at 51 makes the anchor 51: warned again from 71
			// (71 − 51 = 20) to 80 (timer 29, 11 left: important); the log ends.
			name: "v2", objective: true, loopBreak: "v2",
			want: Warnings{Policy: "score-or-objective 40/10", Shown: true, Threshold: 20, Escaped: 2, EndOfLog: 1, Spells: []WarningSpell{
				{Start: 20, End: 25, Turns: 6, MaxLevel: Important, MinTurnsLeft: 15, Outcome: Escaped},
				{Start: 45, End: 50, Turns: 6, MaxLevel: Important, MinTurnsLeft: 15, Outcome: Escaped},
				{Start: 71, End: 80, Turns: 10, MaxLevel: Important, MinTurnsLeft: 11, Outcome: EndOfLog},
			}},
		},
		{
			// No loop break in the log: not shown; replayed with Unversioned
			// (score-or-objective) — without the objective, the same spells as v1.
			name: "unversioned", loopBreak: "",
			want: Warnings{Policy: "score-or-objective 40/10", Threshold: 20, Escaped: 1, Stopped: 1, Spells: []WarningSpell{
				{Start: 20, End: 25, Turns: 6, MaxLevel: Important, MinTurnsLeft: 15, Outcome: Escaped},
				{Start: 45, End: 70, Turns: 26, UrgentFrom: 55, CriticalFrom: 60, MaxLevel: Critical, MinTurnsLeft: -5, Outcome: EndStop},
			}},
		},
		{
			// A log that records no objectives (a harness's): score-or-objective
			// cannot be replayed on it, so the warnings follow score: the same
			// spells, under score.
			name: "no objectives recorded", loopBreak: "", noSignals: true,
			want: Warnings{Policy: "score 40/10", Threshold: 20, Escaped: 1, Stopped: 1, Spells: []WarningSpell{
				{Start: 20, End: 25, Turns: 6, MaxLevel: Important, MinTurnsLeft: 15, Outcome: Escaped},
				{Start: 45, End: 70, Turns: 26, UrgentFrom: 55, CriticalFrom: 60, MaxLevel: Critical, MinTurnsLeft: -5, Outcome: EndStop},
			}},
		},
	}
	for _, c := range cases {
		ep := handBuilt(c.objective)
		ep.Recorded.Rules = map[string][]string{"v1": {"score", "score-or-objective"}, "v2": {"score-or-objective", "score"}}[c.loopBreak]
		if c.noSignals {
			ep.Signals = 0
		}
		a := Analyse(ep, DefaultOptions())
		if !reflect.DeepEqual(a.Warnings, &c.want) {
			g, _ := json.Marshal(a.Warnings)
			w, _ := json.Marshal(c.want)
			t.Errorf("%s:\n got %s\nwant %s", c.name, g, w)
		}
	}
}

func TestRoomPatternsAndRepeats(t *testing.T) {
	a := Analyse(handBuilt(false), DefaultOptions())
	one, two := Room{ID: 1, Name: "Room One"}, Room{ID: 2, Name: "Room Two"}
	// Rooms at the start of 40..45: 1 2 1 2 1 1. Turn 43 sees 1-2-1-2 (turns
	// 40..43), turn 44 2-1-2-1; turn 45 sees 1-2-1-1: two turns.
	wantOsc := Pattern{FirstTurn: 43, Turns: 2, Rooms: []Room{one, two},
		Spells: []PatternSpell{{Start: 43, End: 44, Turns: 2, Rooms: []Room{one, two}}}}
	if !reflect.DeepEqual(a.Oscillation, wantOsc) {
		t.Errorf("oscillation %+v, want %+v", a.Oscillation, wantOsc)
	}
	// Camping: room 1 fills the window from turn 5 (window 5 = threshold) and
	// never drops under 5 of 10 (at most two 2s): turns 5..80, 76 turns.
	wantCamp := Pattern{FirstTurn: 5, Turns: 76, Rooms: []Room{one},
		Spells: []PatternSpell{{Start: 5, End: 80, Turns: 76, Rooms: []Room{one}}}}
	if !reflect.DeepEqual(a.Camping, wantCamp) {
		t.Errorf("camping %+v, want %+v", a.Camping, wantCamp)
	}
	// Repeats (v1 → score progress): every turn from 2 repeats the previous
	// one, except 25, the turn of the score change: 79 − 1 = 78; the runs are
	// 2..24 (23) and 26..80 (55).
	r := a.Repeats
	if r.Turns != 78 || r.FirstTurn != 2 || r.LongestRun != 55 || r.TurnsWithResponse != 80 ||
		!reflect.DeepEqual(r.Top, []RepeatedAction{{Action: "wait", Repeats: 78, FirstTurn: 2}}) {
		t.Errorf("repeats %+v", r)
	}
	// Novelty: "wait" is new only at turn 1.
	if a.Novelty != (Novelty{Window: 15, Turns: 80, Novel: 1, Share: 1.0 / 80}) {
		t.Errorf("novelty %+v", a.Novelty)
	}
}

func TestNovelty(t *testing.T) {
	mk := func(actions ...string) *episode.Episode {
		ep := &episode.Episode{}
		for _, a := range actions {
			ep.Turns = append(ep.Turns, episode.Turn{Action: a})
		}
		return ep
	}
	cases := []struct {
		name    string
		actions []string
		window  int
		want    Novelty
	}{
		// Window 3: a b c d new; a at 5 was last seen at 1, 4 turns back: new;
		// b at 6 likewise; a at 7 was seen at 5: not new. 6 of 7.
		{"window 3", []string{"a", "b", "c", "d", "a", "b", "a"}, 3, Novelty{Window: 3, Turns: 7, Novel: 6, Share: 6.0 / 7}},
		// Exactly window turns back is inside the previous window (t − 3 .. t − 1).
		{"boundary", []string{"a", "b", "c", "a"}, 3, Novelty{Window: 3, Turns: 4, Novel: 3, Share: 0.75}},
		// A turn without an action (turn_exception) is not counted; case and
		// spaces do not make an action new.
		{"gap and case", []string{"Look", "", " look"}, 3, Novelty{Window: 3, Turns: 2, Novel: 1, Share: 0.5}},
	}
	for _, c := range cases {
		if got := novelty(mk(c.actions...), c.window); got != c.want {
			t.Errorf("%s: %+v, want %+v", c.name, got, c.want)
		}
	}
}

func TestRevisitDisagreements(t *testing.T) {
	// Rooms at the start of turns 1..4: 1 (initial), 1, 2, 1. Visits: turn 1
	// none before; turn 2 previous [1] → 1; turn 3 is room 2, previous [1 1]
	// → 0; turn 4 previous min(5, 3) = 3 entries [1 1 2] → 2. Penalised: 2, 4.
	ep := &episode.Episode{InitialRoomID: 1, Recorded: episode.Recorded{Rules: []string{"score", "score-or-objective"}}, Signals: episode.Signals(episode.Penalties)}
	for _, r := range []int{1, 2, 1, 1} {
		ep.Turns = append(ep.Turns, episode.Turn{RoomID: r})
	}
	ep.Recorded.Penalties = []episode.Penalty{
		{Turn: 2, LocationID: 1, RecentVisits: 1, BaseConfidence: 0.9, AdjustedConfidence: 0.7}, // agrees
		{Turn: 4, LocationID: 1, RecentVisits: 1, BaseConfidence: 0.9, AdjustedConfidence: 0.5}, // replay says 2; and 0.9 − 0.2 ≠ 0.5
	}
	rv := Analyse(ep, DefaultOptions()).Revisit
	want := []RevisitDisagreement{{Turn: 4, LoggedRoom: 1, LoggedVisits: 1, ReplayedRoom: 1, ReplayedVisits: 2}}
	if rv.Penalised != 2 || rv.Agree != 1 || rv.DisagreementCount != 1 || !reflect.DeepEqual(rv.Disagreements, want) ||
		rv.ConfidenceMismatches != 1 || !reflect.DeepEqual(rv.ByVisits, []int{1, 1, 0, 0, 0}) {
		t.Errorf("%+v", rv)
	}
}

// TestSampleLog: the sample of era E3a (testdata/samples/README.md: names,
// no ids, no zork_response, no loop break). Rooms at the start of turns 1..5:
// West, North, Behind, Behind, Kitchen; after: North, Behind, Behind,
// Kitchen, Living Room. Score 0, 0, 0, 10, 10.
func TestSampleLog(t *testing.T) {
	c := corpus.Read([]string{"../../testdata/samples/episode-e3a.jsonl"}, corpus.Options{Jobs: 1})
	if len(c.Episodes) != 1 {
		t.Fatalf("%+v", c)
	}
	a := Analyse(c.Episodes[0], DefaultOptions(), scoreP)
	// Camping at turn 5: window min(10, 5) = 5 entries, Behind House twice at
	// most, under the threshold of 5; no four rooms in a row go A, B, A, B.
	if a.RoomKey != "name" || a.Turns != 5 || a.WarningsShown || a.Camping.FirstTurn != 0 || a.Oscillation.FirstTurn != 0 {
		t.Errorf("%+v", a)
	}
	// No room ids: Phase 1B cannot be replayed; no responses: no repeats.
	if a.Revisit.Replayed || a.Revisit.Penalised != 0 || a.Repeats.TurnsWithResponse != 0 {
		t.Errorf("revisit %+v repeats %+v", a.Revisit, a.Repeats)
	}
	// north, east, open window, west, west: turn 5 repeats turn 4, 4 new of 5.
	if a.Novelty.Novel != 4 || a.Novelty.Turns != 5 {
		t.Errorf("novelty %+v", a.Novelty)
	}
	// The score changes at turn 4 only (turn 1 initialises the tracker): spells
	// 1..3, ended by progress, and 5..5, cut by the log; both shorter than
	// MinSpell, the longest 3.
	pp := a.Policies[0]
	if pp.StopTurn != 0 || pp.ShortSpells != 2 || pp.Longest != 3 || len(pp.Spells) != 0 || pp.Lead != nil || len(a.Warnings.Spells) != 0 {
		t.Errorf("%+v", pp)
	}
}

func TestSpans(t *testing.T) {
	// The v1 hand-built episode: oscillation 43..44, camping 5..80, repeats
	// 2..24 and 26..80; penalties on every turn from 2 except 41 (it starts
	// in room 2, and the five starts before it, 36..40, are all room 1; turn
	// 43 also starts in room 2 but 41 is among its previous five); warnings
	// 20..25 important, 45..54 important, 55..59 urgent, 60..70 critical.
	a := Analyse(handBuilt(false), DefaultOptions())
	want := []Span{
		{Pattern: "oscillation", Start: 43, End: 44},
		{Pattern: "camping", Start: 5, End: 80},
		{Pattern: "repeat", Start: 2, End: 24}, {Pattern: "repeat", Start: 26, End: 80},
		{Pattern: "revisit_penalty", Start: 2, End: 40}, {Pattern: "revisit_penalty", Start: 42, End: 80},
		{Pattern: "warning", Level: Important, Start: 20, End: 25},
		{Pattern: "warning", Level: Important, Start: 45, End: 54},
		{Pattern: "warning", Level: Urgent, Start: 55, End: 59},
		{Pattern: "warning", Level: Critical, Start: 60, End: 70},
	}
	if got := a.Spans(); !reflect.DeepEqual(got, want) {
		t.Errorf("spans\n got %+v\nwant %+v", got, want)
	}
}

// A log that names no room (a harness's) has no room pattern: the unknown
// room is not a room one camps in.
func TestNoRooms(t *testing.T) {
	ep := &episode.Episode{ID: "harness"}
	for range 40 {
		ep.Turns = append(ep.Turns, episode.Turn{Action: "look"})
	}
	a := Analyse(ep, DefaultOptions())
	if a.RoomKey != "none" || a.Camping.Turns != 0 || a.Oscillation.Turns != 0 {
		t.Errorf("room key %q, camping %d turns, oscillation %d turns", a.RoomKey, a.Camping.Turns, a.Oscillation.Turns)
	}
	ep.Turns[3].Location = "Kitchen" // one room named: rooms are told by name
	if a := Analyse(ep, DefaultOptions()); a.RoomKey != "name" {
		t.Errorf("room key %q, want name", a.RoomKey)
	}
}

// The revisit penalty and the warnings are analysed only for a system they
// apply to (Options.Revisit, Options.Warnings): off, the analysis has neither
// section, no warning lead and no shading of them, and a dataset's summary
// counts only the episodes analysed for them, leaving both out when none was.
func TestSectionsOff(t *testing.T) {
	off := DefaultOptions()
	off.Revisit, off.Warnings = false, false
	a := Analyse(handBuilt(false), off, scoreP)
	if a.Revisit != nil || a.Warnings != nil {
		t.Fatalf("revisit %+v, warnings %+v: want neither", a.Revisit, a.Warnings)
	}
	// score 40/10 stops handBuilt at 70, its spell begun at 26 (TestStuckSpells).
	if l := a.Policies[0].Lead; l == nil || l.StuckSpell != 44 || l.Warning != nil {
		t.Errorf("lead %+v: want the spell's 44 and no warning", l)
	}
	for _, s := range a.Spans() {
		if s.Pattern == "warning" || s.Pattern == "revisit_penalty" {
			t.Errorf("a span of %s", s.Pattern)
		}
	}
	d := a.Digest()
	if d.Warned || d.Revisited || d.Warning != 0 || d.Spells != 0 {
		t.Errorf("digest %+v", d)
	}
	s := summarise([]Digest{d})
	var names []string
	for _, p := range s.Patterns {
		names = append(names, p.Pattern)
	}
	if !reflect.DeepEqual(names, []string{"oscillation", "camping", "repeat", "state_loop"}) || s.Revisit != nil || s.Escape != nil ||
		len(s.Leads) != 1 || s.Leads[0].Warning != nil {
		t.Errorf("summary of an episode without them: patterns %v, revisit %+v, escape %+v, leads %+v", names, s.Revisit, s.Escape, s.Leads)
	}
	// With one episode analysed for both: each is counted over it alone.
	on := Analyse(handBuilt(false), DefaultOptions(), scoreP).Digest()
	s = summarise([]Digest{on, d})
	of := map[string]int{}
	for _, p := range s.Patterns {
		of[p.Pattern] = p.Of
	}
	if of["warning"] != 1 || of["revisit_penalty"] != 1 || of["camping"] != 2 || s.Revisit == nil || s.Revisit.Episodes != 1 ||
		s.Escape == nil || s.Escape.WithWarnings.Episodes+s.Escape.WithoutWarnings.Episodes != 1 || s.Leads[0].Warning == nil || s.Leads[0].Warning.N != 1 {
		t.Errorf("summary of one of each: of %v, revisit %+v, escape %+v, leads %+v", of, s.Revisit, s.Escape, s.Leads)
	}
}
