package synth

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"github.com/lbanalyze/lbanalyze/jsonl"
	"github.com/lbanalyze/lbanalyze/policy"
)

func play(seed uint64, c Config) *Episode {
	if c.ID == "" {
		c.ID = "2025-11-04T09:35:24"
		c.Start = time.Date(2025, 11, 4, 9, 35, 24, 512_000_000, time.UTC)
	}
	return Play(rand.New(rand.NewPCG(seed, 7)), c)
}

func render(t *testing.T, e *Episode) []byte {
	t.Helper()
	var buf bytes.Buffer
	if _, err := Write(&buf, e); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func TestPlayIsDeterministic(t *testing.T) {
	c := Config{Script: Script{Phases: []Phase{{Turns: 40}, {Stuck: true, Turns: 60, Gain: true, Objectives: []int{10, 30}}, {Turns: 30}}, End: Die}, NaN: 0.05, Huge: 0.02}
	a, b := render(t, play(3, c)), render(t, play(3, c))
	if !bytes.Equal(a, b) {
		t.Fatal("two plays with one seed differ")
	}
	if bytes.Equal(a, render(t, play(4, c))) {
		t.Fatal("two seeds play the same episode")
	}
}

// The script's phases and ending show in the turns, checked turn by turn.
func TestPlayFollowsScript(t *testing.T) {
	for seed := range uint64(20) {
		e := play(seed, Config{Script: Script{Phases: []Phase{{Turns: 50}, {Stuck: true, Turns: 70}}, End: Die}})
		n := len(e.Turns)
		last, before := e.Turns[n-1], e.Turns[n-2]
		if last.GameOver != "Player death" || !strings.Contains(last.Response, "****  You have died  ****") ||
			last.Score != before.Score-10 || last.To.Name != "Forest" {
			t.Fatalf("seed %d: the last turn is no death: %+v", seed, last)
		}
		if len(e.Spells) != 1 {
			t.Fatalf("seed %d: %d spells, want 1", seed, len(e.Spells))
		}
		sp := e.Spells[0]
		if sp.Start != 51 || sp.End < 120 || sp.End > n || sp.Ending != "death" && sp.Ending != "end of log" {
			t.Errorf("seed %d: spell %+v in %d turns", seed, sp, n)
		}
		for i := sp.Start; i < 120; i++ { // the spell: no score change, no new room beyond its two
			if e.Turns[i].Score != e.Turns[sp.Start-1].Score {
				t.Errorf("seed %d: the score moves at %d, inside the spell", seed, i+1)
			}
		}
		for i, tu := range e.Turns[:n-1] {
			if tu.GameOver != "" {
				t.Errorf("seed %d: game over at %d before the end", seed, i+1)
			}
		}
	}
}

func TestPlayRunsToMaxTurns(t *testing.T) {
	e := play(1, Config{MaxTurns: 120, Script: Script{Phases: []Phase{{Turns: 30}, {Stuck: true, Camp: true}}}})
	if len(e.Turns) != 120 || e.Spells[0].End != 120 || e.Spells[0].Ending != "end of log" {
		t.Errorf("%d turns, spell %+v", len(e.Turns), e.Spells)
	}
	camp := e.Turns[len(e.Turns)-1].To.ID
	for _, tu := range e.Turns[60:] { // well inside the spell: camping in one room
		if tu.To.ID != camp {
			t.Fatalf("camping moves from %d to %d", camp, tu.To.ID)
		}
	}
}

// A recording with a loop break is cut where that loop break stops, and the
// agent's reasoning shows the countdown it was given: W − (t − anchor) at
// the start of turn t.
func TestPlayCutByLoopBreak(t *testing.T) {
	v1 := policy.Policy{Name: policy.Score}
	e := play(2, Config{LoopBreak: &v1, Script: Script{Phases: []Phase{{Turns: 30}, {Stuck: true}}}})
	n := len(e.Turns)
	anchor := 0 // the last turn ≥ 2 whose score differs from the turn before
	for i := 1; i < n; i++ {
		if e.Turns[i].Score != e.Turns[i-1].Score {
			anchor = i + 1
		}
	}
	if n%10 != 0 || n-anchor < 40 || n-anchor >= 50 {
		t.Fatalf("cut at %d with the last change at %d", n, anchor)
	}
	for i := anchor + 20; i <= n; i++ { // turn i: the timer is i − anchor ≥ 20
		r := e.Turns[i-1].Reasoning
		want := fmt.Sprintf(" %d turns ", 40-(i-anchor))
		if i-anchor >= 40 { // past the threshold between two check turns
			want = "out of turns"
			if strings.Contains(r, "No turns left") {
				continue
			}
		}
		if !strings.Contains(r, want) {
			t.Errorf("turn %d: no countdown %q in %q", i, want, r)
		}
	}
	out := render(t, e)
	if !bytes.Contains(out, []byte(fmt.Sprintf(`"event_type": "stuck_termination", "episode_id": "2025-11-04T09:35:24", "turn": %d,`, n))) {
		t.Error("no stuck_termination at the last turn")
	}
}

// The killed run's log ends in a prefix of a final_action_selection line
// without a newline; every line before it is a whole JSON object.
func TestPlayKilled(t *testing.T) {
	e := play(5, Config{Script: Script{Phases: []Phase{{Turns: 20}}, End: Killed}})
	out := render(t, e)
	lines := bytes.Split(out, []byte("\n"))
	last := lines[len(lines)-1]
	if !bytes.HasPrefix(last, []byte(`{"timestamp": `)) || !bytes.Contains(last, []byte(`"event_type": "final_action_selection"`)) ||
		jsonl.ScanObject(last, nil) == nil {
		t.Errorf("last line is not a cut final_action_selection: %.200s", last)
	}
	for i, l := range lines[:len(lines)-1] {
		if err := jsonl.ScanObject(l, nil); err != nil {
			t.Fatalf("line %d: %v", i+1, err)
		}
	}
	if !bytes.Contains(out, []byte(`"message": "Turn 20 completed"`)) || bytes.Contains(out, []byte(`"message": "Turn 21 completed"`)) {
		t.Error("want 20 complete turns")
	}
}

// Texts are filled in without formatting errors, and what the log holds is
// ASCII although the reasoning has arrows and emoji.
func TestTexts(t *testing.T) {
	var arrows, emoji, huge int
	for seed := range uint64(10) {
		e := play(seed, Config{Script: Script{Phases: []Phase{{Turns: 80}, {Stuck: true, Turns: 60, Gain: true, Objectives: []int{5, 25}}, {Turns: 60}}, End: Die}, Huge: 0.01})
		for i, tu := range e.Turns {
			for _, s := range []string{tu.Reasoning, tu.Response, tu.Action} {
				if strings.Contains(s, "%!") {
					t.Fatalf("seed %d turn %d: a formatting error in %q", seed, i+1, s)
				}
			}
			if tu.Reasoning == "" || tu.Action == "" {
				t.Fatalf("seed %d turn %d: no reasoning or no action", seed, i+1)
			}
			arrows += strings.Count(tu.Reasoning, "\u2192")
			emoji += strings.Count(tu.Reasoning, "\U0001F914") + strings.Count(tu.Reasoning, "\U0001F5FA")
			if len(tu.Reasoning) >= 50_000 {
				huge++
			}
		}
		for i, c := range render(t, e) {
			if c >= 0x80 {
				t.Fatalf("seed %d: byte %d is not ASCII", seed, i)
			}
		}
	}
	if arrows == 0 || emoji == 0 || huge == 0 {
		t.Errorf("arrows %d, emoji %d, runaway reasonings %d: want some of each", arrows, emoji, huge)
	}
}

// Era fingerprints follow Episode.Code (docs/log-format.md, "2.2 Fingerprints for dating a file").
func TestCodeDateFingerprints(t *testing.T) {
	day := func(m, d int) time.Time { return time.Date(2025, time.Month(m), d, 12, 0, 0, 0, time.UTC) }
	for _, c := range []struct {
		code                                        time.Time
		errorType, roomDescription, reason, startup bool
	}{
		{day(10, 20), false, false, false, false},
		{day(10, 29), true, false, false, false},
		{day(11, 4), true, true, false, false},
		{day(11, 6), true, true, true, false},
		{day(11, 7), true, true, true, true},
		{time.Time{}, true, true, true, true}, // HEAD
	} {
		e := Steps{N: 20, Exceptions: []int{7}}.Episode()
		e.Code = c.code
		e.Turns[14].Discovered = []string{"Open the window"}
		out := string(render(t, e))
		for _, f := range []struct {
			has  bool
			text string
		}{
			{c.errorType, `"error_type": "RuntimeError", "fallback_action": "look"`},
			{c.roomDescription, `"event_type": "room_description_captured"`},
			{c.reason, `"objectives": ["Open the window"], "reasoning": `},
			{c.startup, `"event_type": "turn_1_objective_generation_skipped"`},
		} {
			if strings.Contains(out, f.text) != f.has {
				t.Errorf("code %s: has %s = %v, want %v", c.code.Format(time.DateOnly), f.text, !f.has, f.has)
			}
		}
	}
}

func TestDeliberationSize(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 1))
	for _, n := range []int{100, 10_000, 1 << 20} {
		text := Deliberation(r, n)
		got := len(appendPyString(nil, text)) - 2
		if got < n || got > n+200 {
			t.Errorf("Deliberation(%d) writes %d bytes", n, got)
		}
	}
}
