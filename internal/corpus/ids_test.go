package corpus

import (
	"bytes"
	"compress/gzip"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/lbanalyze/lbanalyze/source"
	"github.com/lbanalyze/lbanalyze/source/steps"
)

// step is a TALES rollout's line: the columns the benchmark writes first.
func step(n, score int, action string) string {
	return fmt.Sprintf(`{"Step":%d,"Score":%d,"Max Score":350,"Normalized Score":0.0,"Moves":%d,"Observation":"A room.","Action":%q,"Feedback":"Ok.","Prompt":"> ","Response":%q,"Token Usage":10}`+"\n",
		n, score, n, action, action)
}

// rollout is a short rollout; seed makes it differ from another's.
func rollout(seed int) string {
	return step(1, 0, "look") + step(2, seed, "north") + step(3, seed, "take lamp")
}

func ids(c *Corpus) []string {
	var out []string
	for _, ep := range c.Episodes {
		out = append(out, ep.ID)
	}
	return out
}

// warned are the messages that warn of copies or say ids were told apart.
func warned(c *Corpus) []string {
	var out []string
	for _, m := range c.Messages {
		if strings.Contains(m, "warning") || strings.Contains(m, "note") {
			out = append(out, m)
		}
	}
	return out
}

// TALES's runs of two seeds of one game are two episodes, named after their
// run, game and seed (the default seed 20241001 left out, as the run's own
// defaults are), and no copies; so are runs under tw-bench_ and tales_
// whose names say the same agent, the second told apart by its path.
func TestTALESIDs(t *testing.T) {
	dir := t.TempDir()
	run := "tw-bench_LLMAgent_gpt-4o_s20241001_c10_t0.0_convFalse"
	write(t, filepath.Join(dir, run, "JerichoEnvZork1", "a0_s20241001.jsonl"), rollout(1))
	write(t, filepath.Join(dir, run, "JerichoEnvZork1", "a0_s20241002.jsonl"), rollout(2))
	write(t, filepath.Join(dir, run, "JerichoEnvZork1", "a1_s20241002_steps100.jsonl"), rollout(3))
	c := Read([]string{dir}, Options{Jobs: 2})
	want := []string{"gpt-4o c10 / JerichoEnvZork1", "gpt-4o c10 / JerichoEnvZork1 / s20241002", "gpt-4o c10 / JerichoEnvZork1 / a1 s20241002"}
	if got := ids(c); !slices.Equal(got, want) {
		t.Errorf("ids %q, want %q", got, want)
	}
	if w := warned(c); len(w) > 0 {
		t.Errorf("runs of two seeds warned of: %q", w)
	}
	for _, ep := range c.Episodes {
		if !ep.IDFromPath || ep.Fact("run") != run || ep.Fact("game") != "JerichoEnvZork1" {
			t.Errorf("%s: id from path %v, run %q, game %q", ep.ID, ep.IDFromPath, ep.Fact("run"), ep.Fact("game"))
		}
	}

	write(t, filepath.Join(dir, "tales_LLMAgent_gpt-4o_s20241001_c10_t0.0_convFalse", "JerichoEnvZork1", "a0_s20241001.jsonl"), rollout(4))
	c = Read([]string{dir}, Options{Jobs: 2})
	renamed := "gpt-4o c10 / JerichoEnvZork1 (" + filepath.ToSlash(dir) + "/tw-bench_LLMAgent_gpt-4o_s20241001_c10_t0.0_convFalse/JerichoEnvZork1/a0_s20241001)"
	want = []string{"gpt-4o c10 / JerichoEnvZork1", renamed, "gpt-4o c10 / JerichoEnvZork1 / s20241002", "gpt-4o c10 / JerichoEnvZork1 / a1 s20241002"}
	if got := ids(c); !slices.Equal(got, want) {
		t.Errorf("ids %q, want %q", got, want)
	}
	if w := warned(c); len(w) != 1 || !strings.HasPrefix(w[0], "note: 1 episode whose logs record no id would have had the id of another file's") {
		t.Errorf("messages %q: want one note of the id told apart", w)
	}
}

// A log read through a field map, which records no id, is named by its path
// below the directory given: BALROG's layout, <submission>/<env>/<task>/
// <task>_run_NN, the same run names under every submission.
func TestPathIDs(t *testing.T) {
	dir := t.TempDir()
	var want []string
	for _, sub := range []string{"20241103_claude", "20250425_grok-3"} {
		for _, task := range []string{"coin_collector", "treasure_hunter"} {
			for run := range 2 {
				id := fmt.Sprintf("%s/textworld/%s/%s_run_%02d", sub, task, task, run)
				write(t, filepath.Join(dir, filepath.FromSlash(id)+".jsonl"), fmt.Sprintf("{\"Step\": 0, \"Reward\": 0}\n{\"Step\": 1, \"Reward\": %d}\n", len(want)))
				want = append(want, id)
			}
		}
	}
	srcs := &Sources{Files: []source.Source{steps.Source{Fields: steps.Fields{Turn: steps.Path{"Step"}, Score: steps.Path{"Reward"}}}}}
	c := Read([]string{dir}, Options{Jobs: 3, Sources: srcs})
	if got := ids(c); !slices.Equal(got, want) {
		t.Errorf("ids\n%q\nwant\n%q", got, want)
	}
	if w := warned(c); len(w) > 0 {
		t.Errorf("distinct runs warned of: %q", w)
	}
	for _, ep := range c.Episodes {
		if b := c.Below(ep.Source); b != ep.ID+".jsonl" {
			t.Errorf("%s: below %q", ep.ID, b)
		}
	}

	// A file named itself is named after its file, as before.
	named := filepath.Join(dir, "20241103_claude", "textworld", "coin_collector", "coin_collector_run_01.jsonl")
	c = Read([]string{named}, Options{Jobs: 1, Sources: srcs})
	if got := ids(c); !slices.Equal(got, []string{"coin_collector_run_01"}) || c.Below(named) != "" {
		t.Errorf("a file named itself: ids %q, below %q", got, c.Below(named))
	}
}

// Two files whose names differ only in the extensions of a log keep them in
// their ids; two directories given that hold the same path give each of
// their files its path as given (one no other directory holds too), without
// the extensions of a log unless they tell two apart.
func TestPathIDsAlike(t *testing.T) {
	dir := t.TempDir()
	write(t, filepath.Join(dir, "a", "run.jsonl"), "{\"s\": 1}\n")
	var gz bytes.Buffer
	zw := gzip.NewWriter(&gz)
	zw.Write([]byte("{\"s\": 2}\n"))
	zw.Close()
	write(t, filepath.Join(dir, "a", "run.jsonl.gz"), gz.String())
	write(t, filepath.Join(dir, "b", "x", "run.jsonl"), "{\"s\": 3}\n")
	write(t, filepath.Join(dir, "c", "x", "run.jsonl"), "{\"s\": 4}\n")
	for i, p := range []string{"b/y/run.jsonl", "b/y/run.jsonl.gz", "c/y/run.jsonl", "c/y/run.jsonl.gz", "c/z/only.jsonl"} {
		write(t, filepath.Join(dir, filepath.FromSlash(p)), fmt.Sprintf("{\"s\": %d}\n", 5+i)) // a .gz name, plain content
	}
	srcs := &Sources{Files: []source.Source{steps.Source{Fields: steps.Fields{Score: steps.Path{"s"}}}}}
	c := Read([]string{filepath.Join(dir, "a"), filepath.Join(dir, "b"), filepath.Join(dir, "c")}, Options{Jobs: 2, Sources: srcs})
	slash := filepath.ToSlash(dir)
	want := []string{"run.jsonl", "run.jsonl.gz", slash + "/b/x/run", slash + "/b/y/run.jsonl", slash + "/b/y/run.jsonl.gz",
		slash + "/c/x/run", slash + "/c/y/run.jsonl", slash + "/c/y/run.jsonl.gz", slash + "/c/z/only"}
	if got := ids(c); !slices.Equal(got, want) {
		t.Errorf("ids %q, want %q", got, want)
	}
	if w := warned(c); len(w) > 0 {
		t.Errorf("distinct files warned of: %q", w)
	}
}

// Files of the same content are copies, said in one line a set, whatever
// their compression; an id they record is not warned of again, but one a
// third file of other content records too is.
func TestCopiesByContent(t *testing.T) {
	dir := t.TempDir()
	body := log("2025-11-12T10:00:00")
	write(t, filepath.Join(dir, "a", "episode_log.jsonl"), body)
	var gz bytes.Buffer
	zw := gzip.NewWriter(&gz)
	zw.Write([]byte(body))
	zw.Close()
	write(t, filepath.Join(dir, "a", "episode_log.jsonl.gz"), gz.String())
	c := Read([]string{dir}, Options{Jobs: 2})
	a := filepath.Join(dir, "a", "episode_log.jsonl")
	want := []string{"warning: 2 files hold the same content (" + a + ", " + a + ".gz): each is analysed and counted as a run of its own; if they are copies of one run, not runs that went alike, keep one"}
	if w := warned(c); !slices.Equal(w, want) || len(c.Episodes) != 2 {
		t.Errorf("%d episodes, messages\n%q\nwant\n%q", len(c.Episodes), w, want)
	}

	b := filepath.Join(dir, "b", "episode_log.jsonl")
	write(t, b, body+log("2025-11-12T11:00:00"))
	c = Read([]string{dir}, Options{Jobs: 2})
	want = append(want, "warning: episode 2025-11-12T10:00:00 is in 2 files ("+a+", "+b+"): each is analysed and counted; remove the copies you do not mean")
	if w := warned(c); !slices.Equal(w, want) {
		t.Errorf("messages\n%q\nwant\n%q", w, want)
	}
}

// Ids recorded in many files are warned of a line an id, each naming two
// files and counting the rest, and past five ids in one line: the output
// stays short however many copies there are.
func TestCopiesBounded(t *testing.T) {
	dir := t.TempDir()
	for f := range 6 {
		var body string
		for e := range 7 {
			body += log(fmt.Sprintf("2025-11-12T10:%02d:00", e))
		}
		write(t, filepath.Join(dir, fmt.Sprintf("%d", f), "episode_log.jsonl"), body+log(fmt.Sprintf("2025-11-13T10:00:0%d", f)))
	}
	c := Read([]string{dir}, Options{Jobs: 2})
	w := warned(c)
	if len(w) != 6 {
		t.Fatalf("%d messages, want 5 and one more:\n%s", len(w), strings.Join(w, "\n"))
	}
	first := "warning: episode 2025-11-12T10:00:00 is in 6 files (" + filepath.Join(dir, "0", "episode_log.jsonl") + ", " +
		filepath.Join(dir, "1", "episode_log.jsonl") + " and 4 more)"
	if !strings.HasPrefix(w[0], first) || w[5] != "warning: 2 more episode ids are each in more than one file: each is analysed and counted" {
		t.Errorf("messages:\n%s", strings.Join(w, "\n"))
	}
}

// A symbolic link to a directory is followed, its logs named by the path
// through the link; one that leads back to a directory already read is
// passed over, counted in one note.
func TestSymbolicLinks(t *testing.T) {
	top := t.TempDir()
	dir := filepath.Join(top, "runs")
	elsewhere := filepath.Join(top, "elsewhere")
	write(t, filepath.Join(dir, "a", "r.jsonl"), "{\"s\": 1}\n")
	write(t, filepath.Join(elsewhere, "b", "r.jsonl"), "{\"s\": 2}\n")
	for link, target := range map[string]string{
		filepath.Join(dir, "more"):        elsewhere,               // followed
		filepath.Join(dir, "a", "loop"):   dir,                     // back to the root
		filepath.Join(elsewhere, "again"): filepath.Join(dir, "a"), // read through "more", then met again
	} {
		if err := os.Symlink(target, link); err != nil {
			t.Skip("no symbolic links here:", err)
		}
	}
	srcs := &Sources{Files: []source.Source{steps.Source{Fields: steps.Fields{Score: steps.Path{"s"}}}}}
	c := Read([]string{dir}, Options{Jobs: 2, Sources: srcs})
	if got, want := ids(c), []string{"a/r", "more/b/r"}; !slices.Equal(got, want) {
		t.Errorf("ids %q, want %q", got, want)
	}
	want := []string{"note: 2 symbolic links under the directories given lead to a directory already read (a loop, or a second way in): passed over"}
	if w := warned(c); !slices.Equal(w, want) {
		t.Errorf("messages %q, want %q", w, want)
	}
}
