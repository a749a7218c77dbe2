package system

import (
	"slices"
	"strings"
	"testing"

	"github.com/lbanalyze/lbanalyze/episode"
	"github.com/lbanalyze/lbanalyze/internal/corpus"
	"github.com/lbanalyze/lbanalyze/policy"
	"github.com/lbanalyze/lbanalyze/source/steps"
)

func at(n policy.Name, w, interval int) policy.Policy {
	return policy.Policy{Name: n}.With(policy.MaxTurnsStuck, w).With(policy.CheckInterval, interval)
}

// Every log format a system lists is a source's, and no two systems list
// one; an episode is the system's of its format: the harness's for a format
// no system lists, ZorkGPT's for none (an episode made by hand).
func TestOf(t *testing.T) {
	srcs := corpus.Registry()
	formats := []string{steps.Format}
	for _, s := range srcs.Files {
		formats = append(formats, s.Format())
	}
	for _, s := range srcs.Dirs {
		formats = append(formats, s.Format())
	}
	listed := map[string]string{}
	for _, s := range All() {
		for _, f := range s.Formats {
			if !slices.Contains(formats, f) {
				t.Errorf("%s lists log format %q, which no source reads", s.Name, f)
			}
			if other, ok := listed[f]; ok {
				t.Errorf("log format %q is listed by %s and %s", f, other, s.Name)
			}
			listed[f] = s.Name
		}
	}
	for _, c := range []struct {
		format string
		want   *System
	}{
		{"zorkgpt", ZorkGPT}, {"zorkgpt2-burr", ZorkGPT2}, {"zorkgpt2-runlog", ZorkGPT2}, {"zorkgpt2-snapshot", ZorkGPT2},
		{"tales", Harness}, {"jsonl", Harness}, {"csv", Harness}, {"balrog", Harness}, {"unheard-of", Harness}, {"", ZorkGPT},
	} {
		if got := Of(&episode.Episode{Format: c.format}); got != c.want {
			t.Errorf("an episode of format %q: %s, want %s", c.format, got.Name, c.want.Name)
		}
	}
	two := []*episode.Episode{{Format: "zorkgpt2-runlog"}, {Format: "zorkgpt2-burr"}}
	if s := OfAll(two); s != ZorkGPT2 {
		t.Errorf("two ZorkGPT2 runs: %s", s.Name)
	}
	if s := OfAll(append(two, &episode.Episode{Format: "tales"})); s != ZorkGPT {
		t.Errorf("runs of two systems: %s, want ZorkGPT's default", s.Name)
	}
	if s := OfAll(nil); s != ZorkGPT {
		t.Errorf("no episode: %s", s.Name)
	}
}

// Every system runs some policies as they are and says, for each other
// policy, the smallest change that would run it (a harness: that it needs
// more than a score).
func TestRunsOrChange(t *testing.T) {
	runs := map[*System][]policy.Name{
		ZorkGPT:  {policy.Score, policy.ScoreOrObjective},
		ZorkGPT2: {policy.Zorkburr},
		// patience's defaults count objectives; textquests counts the score
		// too; the repetition rules and the presets made of them need what
		// each step did, which a harness's logs record.
		Harness: {policy.Score, policy.GeminiCLI, policy.OpenClaw, policy.OpenCode, policy.OpenHands, policy.Zorkburr,
			policy.Alternate, policy.Errored, policy.Increase, policy.None, policy.Repeat, policy.RepeatObserved},
		// The caps, at their default (off): a harness that can switch its
		// caps off runs them and none.
		// Each runs its own caps as they ran (own-cap): its block is the
		// run as it is.
		MiniSweAgent:  {policy.Cost, policy.None, policy.OwnCap, policy.Steps, policy.Time},
		Tau2:          {policy.OwnCap},
		TerminalBench: {policy.OwnCap},
		Agents:        nil,
	}
	for _, s := range All() {
		var got []policy.Name
		for _, n := range policy.Names() {
			_, err := s.Block(at(n, 40, 10))
			if err == nil {
				got = append(got, n)
				continue
			}
			if s == Harness {
				continue
			}
			prefix := s.Name + " cannot run " + string(n) + " without a code change: "
			if msg := err.Error(); !strings.HasPrefix(msg, prefix) || len(msg) < len(prefix)+20 {
				t.Errorf("%s, %s: %q, want the change it needs", s.Name, n, msg)
			}
		}
		if !slices.Equal(got, runs[s]) {
			t.Errorf("%s runs %v as it is, want %v", s.Name, got, runs[s])
		}
	}
}

// A policy without a sentence of a system's own is named by the system's
// words for any policy, with the policy's definition from the registry: a
// new policy needs no system's file.
func TestAnyChange(t *testing.T) {
	for _, s := range []struct {
		name      string
		anyChange string
	}{{zorkGPT, zorkGPTAnyChange}, {zorkGPT2, zorkGPT2AnyChange}} {
		for _, n := range policy.Names() {
			k, _ := policy.Lookup(n)
			msg := cannot(s.name, at(n, 40, 10), nil, s.anyChange).Error()
			prefix := s.name + " cannot run " + string(n) + " without a code change: "
			if !strings.HasPrefix(msg, prefix) || !strings.HasSuffix(msg, string(n)+"'s rule: "+k.Description) {
				t.Errorf("%s, %s: %q, want the system's words with the policy's definition", s.name, n, msg)
			}
		}
	}
}

func TestOffered(t *testing.T) {
	for _, c := range []struct {
		s    *System
		want []policy.Name
	}{
		{ZorkGPT, nil}, // its logs get the commands' defaults
		{Harness, []policy.Name{policy.Score, policy.Increase}},
		{ZorkGPT2, []policy.Name{policy.Score, policy.Supervisor, policy.Zorkburr, policy.Increase}},
	} {
		if !slices.Equal(c.s.Offered, c.want) {
			t.Errorf("%s is offered %v, want %v", c.s.Name, c.s.Offered, c.want)
		}
		// In the order of the registry's lists.
		if !slices.IsSortedFunc(c.s.Offered, func(a, b policy.Name) int {
			return slices.Index(policy.Names(), a) - slices.Index(policy.Names(), b)
		}) {
			t.Errorf("%s: %v is not in the order of policy.Names", c.s.Name, c.s.Offered)
		}
	}
}

// ZorkGPT refuses what its GameConfiguration's bounds and validators refuse
// (docs/log-format.md, "6. [tool.zorkgpt.loop_break]"), for its own rules and
// their variants; ZorkGPT2's rules and a policy without a timer are no
// setting of ZorkGPT's; the other systems refuse nothing.
func TestRefusals(t *testing.T) {
	for _, c := range []struct {
		p    policy.Policy
		want int
	}{
		{at(policy.Score, 40, 10), 0},
		{at(policy.Score, 20, 10), 1},           // warning threshold 20 must be < max_turns_stuck
		{at(policy.ScoreOrObjective, 5, 10), 2}, // max_turns_stuck 5 < interval 10; warning 20 ≥ 5
		{at(policy.Window, 1001, 10), 1},        // above the range
		{at(policy.Patience, 20, 10), 1},        // a variant of its rule
		{at(policy.Zorkburr, 5, 10), 0},         // ZorkGPT2's
		{at(policy.Supervisor, 5, 10), 0},       // no timer
		{at(policy.None, 5, 10), 0},
	} {
		if got := ZorkGPT.Refusals(c.p); len(got) != c.want {
			t.Errorf("%s: %d refusals %q, want %d", c.p, len(got), got, c.want)
		}
	}
	p := at(policy.Score, 20, 10).With(policy.WarningThreshold, 4)
	if got := ZorkGPT.Refusals(p); len(got) != 1 || got[0] != "stuck_warning_threshold = 4 is outside ZorkGPT's range 5..100" {
		t.Errorf("score 20/10/4: %q", got)
	}
	for _, s := range []*System{ZorkGPT2, Harness} {
		if s.Refusals != nil {
			t.Errorf("%s refuses settings of its own", s.Name)
		}
	}
}

// The block ZorkGPT is given is read back by ParseConfig, ZorkGPT's
// validation, as the same policy; a setting it refuses, or a policy it
// cannot run, gets none.
func TestZorkGPTBlockRoundTrip(t *testing.T) {
	for _, p := range []policy.Policy{
		at(policy.ScoreOrObjective, 55, 5),
		at(policy.Score, 30, 10),
		at(policy.Score, 12, 1), // threshold lowered to 11
	} {
		block, err := ZorkGPT.Block(p)
		if err != nil {
			t.Fatalf("%s: %v", p, err)
		}
		c, err := ParseConfig("pyproject.toml", []byte(block))
		if err != nil {
			t.Fatalf("%s: ZorkGPT's validation refuses\n%s: %v", p, block, err)
		}
		if got := c.Policy; got.Name != p.Name || got.MaxTurnsStuck() != p.MaxTurnsStuck() || got.CheckInterval() != p.CheckInterval() {
			t.Errorf("%s: read back as %s", p, got)
		}
		if w := c.Policy.WarningThreshold(); w >= p.MaxTurnsStuck() || w < 5 {
			t.Errorf("%s: warning threshold %d", p, w)
		}
	}
	lowWarning := at(policy.Score, 10, 20).With(policy.WarningThreshold, 5)
	for _, p := range []policy.Policy{
		at(policy.Window, 40, 10),             // needs a code change
		at(policy.Score, 5, 5),                // no threshold 5 <= T < 5
		lowWarning,                            // W < interval
		at(policy.ScoreOrObjective, 2000, 10), // W > 1000
	} {
		if block, err := ZorkGPT.Block(p); err == nil {
			t.Errorf("%s: ZorkGPT cannot run it, yet its block is\n%s", p, block)
		}
	}
}

// ZorkGPT2 runs zorkburr alone, whose block is [tool.zorkburr]; ZorkGPT runs
// neither of ZorkGPT2's rules; and what runs now on ZorkGPT2 is no stop.
func TestZorkGPT2Block(t *testing.T) {
	if ZorkGPT2.Stops() || ZorkGPT2.Adds != policy.Zorkburr || ZorkGPT2.Now.Name != policy.None {
		t.Errorf("ZorkGPT2: stops %v, adds %s, now %s", ZorkGPT2.Stops(), ZorkGPT2.Adds, ZorkGPT2.Now)
	}
	if block, err := ZorkGPT2.Block(at(policy.Zorkburr, 60, 5)); err != nil || block != "[tool.zorkburr]\nmax_turns_stuck = 60\nstuck_check_interval = 5\n" {
		t.Errorf("zorkburr 60/5: %q, %v", block, err)
	}
	for _, n := range []policy.Name{policy.Zorkburr, policy.Supervisor} {
		if ZorkGPT.Runs(at(n, 40, 10)) {
			t.Errorf("ZorkGPT runs %s", n)
		}
	}
}

// The settings a self-check may infer: ZorkGPT's are those some warning
// threshold makes valid (W ≥ I, 5 ≤ threshold < W, W ≤ 1000, I ≤ 100);
// ZorkGPT2's any W from 1 and interval from 1.
func TestAccepts(t *testing.T) {
	for _, c := range []struct {
		s    *System
		w, i int
		want bool
	}{
		{ZorkGPT, 40, 10, true}, {ZorkGPT, 6, 1, true}, {ZorkGPT, 5, 1, false}, {ZorkGPT, 10, 20, false},
		{ZorkGPT, 1000, 100, true}, {ZorkGPT, 1001, 10, false}, {ZorkGPT, 200, 101, false},
		{ZorkGPT2, 1, 1, true}, {ZorkGPT2, 5000, 300, true}, {ZorkGPT2, 0, 1, false},
	} {
		if got := c.s.Accepts(c.w, c.i); got != c.want {
			t.Errorf("%s accepts %d/%d: %v, want %v", c.s.Name, c.w, c.i, got, c.want)
		}
		if c.s == ZorkGPT {
			p := at(policy.Score, c.w, c.i).With(policy.WarningThreshold, 5)
			if refused := len(ZorkGPT.Refusals(p)) > 0; refused == c.want {
				t.Errorf("%d/%d: accepted %v, but refused %v with the lowest threshold", c.w, c.i, c.want, refused)
			}
		}
	}
}

// What Terminal-Bench runs today is each task's own timeout (own-cap), in
// its block tb run without --global-agent-timeout-sec; a batch compares it
// with the time cap it would add, as a system that stops no run on a rule of
// its own.
func TestTerminalBenchNow(t *testing.T) {
	s := TerminalBench
	if s.Now.Name != policy.OwnCap || s.Stops() || s.Adds != policy.Time {
		t.Errorf("now %s, stops %v, adds %s; want own-cap, false, time", s.Now, s.Stops(), s.Adds)
	}
	if block, err := s.Block(s.Now); err != nil || !strings.Contains(block, "without --global-agent-timeout-sec") {
		t.Errorf("own-cap: %q, %v", block, err)
	}
	if _, err := Agents.Block(policy.Policy{Name: policy.OwnCap}); err == nil {
		t.Error("the agents writing ATIF have no own-cap block")
	}
}
