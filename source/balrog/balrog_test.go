package balrog

import (
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/lbanalyze/lbanalyze/episode"
	"github.com/lbanalyze/lbanalyze/source"
	"github.com/lbanalyze/lbanalyze/source/steps"
)

func TestLayout(t *testing.T) {
	for _, c := range []struct {
		path string
		want layout
		ok   bool
	}{
		{"subs/gpt/textworld/coin_collector/coin_collector_run_07.csv", layout{"textworld", "coin_collector"}, true},
		{"textworld/coin_collector/coin_collector_run_07.csv.gz", layout{"textworld", "coin_collector"}, true},
		// A task of two parts is two directories, and its last part names the file.
		{"out/babyai/BabyAI-MixedTrainLocal-v0/goto/BabyAI-MixedTrainLocal-v0/goto_run_00.csv",
			layout{"babyai", "BabyAI-MixedTrainLocal-v0/goto"}, true},
		{"/abs/out/crafter/default/default_run_12.csv", layout{"crafter", "default"}, true},
		{"coin_collector/coin_collector_run_07.csv", layout{}, false}, // no environment above the task
		{"textworld/coin_collector/other_run_07.csv", layout{}, false},
		{"textworld/coin_collector/coin_collector.csv", layout{}, false},
		{"-", layout{}, false},
	} {
		got, ok := layoutOf(filepath.FromSlash(c.path))
		if got != c.want || ok != c.ok {
			t.Errorf("%s: %+v %v, want %+v %v", c.path, got, ok, c.want, c.ok)
		}
	}
}

// TextWorld's Reward is the score; the other environments' a reward; an
// environment not known, or a file out of the layout, is left to --fields.
func TestFieldsFor(t *testing.T) {
	f, err := fieldsFor("x/textworld/t/t_run_00.csv")
	if err != nil || f.Score.String() != "Reward" || f.Reward != nil {
		t.Errorf("textworld: %+v %v", f, err)
	}
	for _, env := range []string{"crafter", "babyai", "nle", "minihack", "babaisai"} {
		f, err := fieldsFor("x/" + env + "/t/t_run_00.csv")
		if err != nil || f.Reward.String() != "Reward" || f.Score != nil {
			t.Errorf("%s: %+v %v", env, f, err)
		}
	}
	for _, c := range []struct{ path, says string }{
		{"x/mygame/t/t_run_00.csv", `BALROG's environment "mygame" is not one lbanalyze knows`},
		{"loose.csv", "not in BALROG's layout"},
	} {
		_, err := fieldsFor(c.path)
		if err == nil || !strings.Contains(err.Error(), c.says) || !strings.Contains(err.Error(), "--fields turn=Step,reward=Reward") {
			t.Errorf("%s: %v, want it to say %q and how to read it", c.path, err, c.says)
		}
	}
}

func TestClaims(t *testing.T) {
	for _, c := range []struct {
		head string
		want bool
	}{
		{"Step,Observation,Action,Reasoning,Reward,Done\n0,a,b,,0,False\n", true},
		{"Step,Action,Reasoning,Observation,Reward,Done\n", true},
		{"Step,Action,Reasoning,Observation,Reward\n", false},
		{"Step,Score\n", false},
	} {
		if got := Source.Claims([]byte(c.head)); got != c.want {
			t.Errorf("%q: %v, want %v", c.head, got, c.want)
		}
	}
}

// write puts files under a temporary directory, by slash paths.
func write(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	for name, body := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// read reads the run at path below dir, as a walk of dir reads it: its id
// the path below dir (source.Options.PathID).
func read(t *testing.T, dir, path string) ([]*episode.Episode, *source.Result) {
	t.Helper()
	f, err := os.Open(filepath.Join(dir, filepath.FromSlash(path)))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	return source.ReadAll(Source, f, f.Name(), source.Options{PathID: source.Stem(path)})
}

// Hand-worked: a TextWorld run of 4 steps whose Reward is the score (0, 0,
// 1, 3), and whose summary gives 1003 tokens (1000 in, 3 out): 251 on the
// first three steps and 250 on the last, estimates; the environment ended it.
func TestTextWorldRun(t *testing.T) {
	dir := write(t, map[string]string{
		"sub/textworld/treasure_hunter/treasure_hunter_run_02.csv": "Step,Observation,Action,Reasoning,Reward,Done\n" +
			"0,\"-= Attic =-\nA counter.\",look,,0,False\n1,Taken.,take key,,0,False\n2,\"Opened, at last.\",open door,,1,False\n3,You win.,go north,,3,True\n",
		"sub/textworld/treasure_hunter/treasure_hunter_run_02.json": `{"task": "treasure_hunter", "input_tokens": 1000, "output_tokens": 3, "done": true, "num_steps": 4, "client": {"model_id": "m-1", "base_url": "x"}, "trajectory": [["a", "b"]]}`,
	})
	eps, res := read(t, dir, "sub/textworld/treasure_hunter/treasure_hunter_run_02.csv")
	if len(eps) != 1 {
		t.Fatalf("%d episodes, %+v", len(eps), res)
	}
	ep := eps[0]
	var scores []episode.Score
	var tokens []int64
	for _, tu := range ep.Turns {
		scores, tokens = append(scores, tu.Score), append(tokens, tu.Tokens)
	}
	if ep.ID != "sub/textworld/treasure_hunter/treasure_hunter_run_02" || !ep.IDFromPath || ep.Format != Format || !reflect.DeepEqual(scores, []episode.Score{0, 0, 1, 3}) {
		t.Errorf("id %q, format %q, scores %v", ep.ID, ep.Format, scores)
	}
	if !reflect.DeepEqual(tokens, []int64{251, 251, 251, 250}) || !ep.Signals.Has(episode.Tokens) || !ep.Estimated.Has(episode.Tokens) {
		t.Errorf("tokens %v, signals %b, estimated %b", tokens, ep.Signals, ep.Estimated)
	}
	if ep.End.Reason != episode.EndGameOver || ep.End.Turn != 4 || ep.Fact("env") != "textworld" || ep.Fact("model") != "m-1" || ep.Fact("tokens") != "1003" {
		t.Errorf("end %+v, facts %+v", ep.End, ep.Facts)
	}
	// What a step did: its Action, and its Observation as the response
	// (docs/sources.md, "What a step did").
	if ep.Turns[2].Response != "Opened, at last." || !ep.Signals.Has(episode.ResponseTexts) || ep.Turns[1].ResponseHash == ep.Turns[2].ResponseHash {
		t.Errorf("responses %q %q", ep.Turns[1].Response, ep.Turns[2].Response)
	}
	if ep.Turns[0].Action != "look" || ep.Turns[2].Action != "open door" || ep.ProblemCount != 0 {
		t.Errorf("actions %q %q, problems %q", ep.Turns[0].Action, ep.Turns[2].Action, ep.ProblemMessages())
	}
}

// A BabyAI run, its task of two parts, whose Reward is a reward; and a
// Crafter run without its summary (a run that did not finish): no tokens,
// its end not known, said in a note.
func TestRewardRuns(t *testing.T) {
	const babyai = "out/babyai/BabyAI-MixedTrainLocal-v0/goto/BabyAI-MixedTrainLocal-v0/goto_run_00"
	dir := write(t, map[string]string{
		babyai + ".csv":  "Step,Action,Reasoning,Observation,Reward,Done\n0,turn left,,a wall,0,False\n1,go forward,,a key,0.9015625,True\n",
		babyai + ".json": `{"task": "BabyAI-MixedTrainLocal-v0/goto", "input_tokens": 10, "output_tokens": 2, "done": true, "num_steps": 2}`,
		"out/crafter/default/default_run_00.csv": "Step,Action,Reasoning,Observation,Reward,Done\n0,Noop,,grass,0.0,False\n1,Do,,tree,1.0,False\n" +
			"2,Noop,,grass,-0.1,False\n3,Do,,tree,0.1,False\n",
	})
	eps, _ := read(t, dir, babyai+".csv")
	if len(eps) != 1 || eps[0].ID != babyai || eps[0].FinalScore() != 0.9015625 || eps[0].Fact("task") != "BabyAI-MixedTrainLocal-v0/goto" {
		t.Errorf("babyai: %+v", eps)
	}
	eps, _ = read(t, dir, "out/crafter/default/default_run_00.csv")
	ep := eps[0]
	if ep.FinalScore() != 1 || ep.Turns[2].Score != 0.9 || ep.Signals.Has(episode.Tokens) || ep.End.Reason != episode.EndNone {
		t.Errorf("crafter: final %v, after 3 %v, signals %b, end %+v", ep.FinalScore(), ep.Turns[2].Score, ep.Signals, ep.End)
	}
	if len(ep.Notes) < 2 || ep.Notes[1] != "its summary, default_run_00.json, is not there: the run's tokens and end are not known (evaluator.py writes it once the episode ends)" {
		t.Errorf("notes %q", ep.Notes)
	}
}

// An environment lbanalyze does not know is refused whole, saying how to read
// it; an explicit field map reads it.
func TestUnknownEnvironment(t *testing.T) {
	dir := write(t, map[string]string{"out/mygame/lvl/lvl_run_00.csv": "Step,Observation,Action,Reasoning,Reward,Done\n0,a,b,,1,True\n"})
	path := filepath.Join(dir, "out/mygame/lvl/lvl_run_00.csv")
	eps, res := read(t, dir, "out/mygame/lvl/lvl_run_00.csv")
	if len(eps) != 0 || len(res.Rejected) != 1 || !strings.Contains(res.Rejected[0].Reason, `"mygame" is not one lbanalyze knows`) {
		t.Errorf("%d episodes, %+v", len(eps), res)
	}
	f, _ := steps.ParseFields("turn=Step,reward=Reward")
	file, _ := os.Open(path)
	defer file.Close()
	eps, _ = source.ReadAll(steps.Table{Fields: f}, file, path, source.Options{})
	if len(eps) != 1 || eps[0].FinalScore() != 1 {
		t.Errorf("through a field map: %+v", eps)
	}
}

// A run reached through a symbolic link (a directory of links to each
// submission's textworld, for one group a model) has the layout of where it
// truly lies: its environment is known, its id the path given.
func TestLinkedRun(t *testing.T) {
	dir := write(t, map[string]string{
		"subs/m1/textworld/coin/coin_run_00.csv": "Step,Observation,Action,Reasoning,Reward,Done\n0,a,go,,0,False\n1,b,go,,1,True\n",
	})
	if err := os.MkdirAll(filepath.Join(dir, "tw"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(dir, "subs/m1/textworld"), filepath.Join(dir, "tw/m1")); err != nil {
		t.Skip("no symbolic links here:", err)
	}
	eps, res := read(t, dir, "tw/m1/coin/coin_run_00.csv")
	if len(eps) != 1 || eps[0].Fact("env") != "textworld" || eps[0].FinalScore() != 1 || eps[0].ID != "tw/m1/coin/coin_run_00" {
		t.Errorf("%+v %+v", eps, res)
	}
}

// A summary that is not a regular file, or past 16 MiB, is not read
// (filekind.ReadSmall: a FIFO would hang the walk), and the notes say why.
func TestSummaryNotRead(t *testing.T) {
	const run = "out/crafter/default/default_run_00"
	dir := write(t, map[string]string{run + ".csv": "Step,Action,Reasoning,Observation,Reward,Done\n0,Noop,,grass,1.0,True\n"})
	if err := os.Mkdir(filepath.Join(dir, run+".json"), 0o755); err != nil {
		t.Fatal(err)
	}
	eps, _ := read(t, dir, run+".csv")
	want := "its summary, default_run_00.json, is not a regular file (a directory), not read: the run's tokens and end are not known (evaluator.py writes it once the episode ends)"
	if len(eps) != 1 || !slices.Contains(eps[0].Notes, want) || eps[0].Signals.Has(episode.Tokens) || eps[0].FinalScore() != 1 {
		t.Errorf("%+v, want the note %q", eps, want)
	}
}
