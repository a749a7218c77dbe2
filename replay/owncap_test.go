package replay

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/lbanalyze/lbanalyze/episode"
	"github.com/lbanalyze/lbanalyze/internal/realdata"
	"github.com/lbanalyze/lbanalyze/internal/testlogs"
	"github.com/lbanalyze/lbanalyze/policy"
	"github.com/lbanalyze/lbanalyze/source"
	"github.com/lbanalyze/lbanalyze/source/terminalbench"
)

// own-cap against no cap and a tighter one, worked by hand on 4 ticks
// (120 s). A run its own cap ended: own-cap stops at 4, its last step,
// saving nothing and forgoing nothing, so judged, not censored: truly stuck
// (docs/semantics.md, "6.2": stopped, neither a candidate nor unknown),
// solved or not; none never stops, and the log cut by the cap leaves it
// censored; time max 60 stops at 2, before the solve: premature. A run that
// ended by itself (game_over): own-cap never stops, and nothing is censored.
func TestOwnCap(t *testing.T) {
	for _, c := range []struct {
		name                       string
		ep                         *episode.Episode
		rule                       string
		stop                       int
		censored, premature, stuck bool
	}{
		{"capped, solved", testlogs.Trial("t", 120, episode.EndCap, true), "own-cap", 4, false, false, true},
		{"capped, failed", testlogs.Trial("t", 120, episode.EndCap, false), "own-cap", 4, false, false, true},
		{"capped, no cap", testlogs.Trial("t", 120, episode.EndCap, true), "none", 0, true, false, false},
		{"capped, tighter", testlogs.Trial("t", 120, episode.EndCap, true), "time:max=60", 2, false, true, false},
		{"ended by itself", testlogs.Trial("t", 120, episode.EndGameOver, true), "own-cap", 0, false, false, false},
	} {
		p, err := policy.Parse(c.rule, nil)
		if err != nil {
			t.Fatal(err)
		}
		o := Run(c.ep, p)
		if o.TerminationTurn != c.stop || o.Censored != c.censored || o.FalseTerminationCandidate() != c.premature || o.TrulyStuck() != c.stuck {
			t.Errorf("%s, %s: stop %d, censored %v, premature %v, truly stuck %v; want %d, %v, %v, %v", c.name, c.rule,
				o.TerminationTurn, o.Censored, o.FalseTerminationCandidate(), o.TrulyStuck(), c.stop, c.censored, c.premature, c.stuck)
		}
	}
}

// On Terminal-Bench's leaderboard (shared/external/terminal-bench), own-cap
// stops exactly the 1,504 trials their own timeout ended (failure_mode
// agent_timeout, the README's count), each on its last tick, timed or not,
// and leaves no trial censored.
func TestOwnCapOnTerminalBench(t *testing.T) {
	root := realdata.External(t, "terminal-bench")
	p := policy.Policy{Name: policy.OwnCap}
	trials, stops := 0, 0
	filepath.WalkDir(root, func(path string, e os.DirEntry, err error) error {
		if err != nil || !e.IsDir() || !(terminalbench.Dir{}).ClaimsDir(path) {
			return err
		}
		(terminalbench.Dir{}).ReadDir(path, source.Options{}, func(ep *episode.Episode) {
			trials++
			o := Run(ep, p)
			capped := ep.End.Reason == episode.EndCap
			if o.Censored || o.Terminated() != capped || capped && o.TerminationTurn != ep.N() {
				t.Errorf("%s: %s (end %s): stop %d of %d, censored %v", path, ep.ID, ep.End.Reason, o.TerminationTurn, ep.N(), o.Censored)
			}
			if o.Terminated() {
				stops++
			}
		})
		return filepath.SkipDir
	})
	if trials != 5200 || stops != 1504 {
		t.Errorf("%d trials, %d stopped; the README counts 5,200 and 1,504 agent_timeout", trials, stops)
	}
}
