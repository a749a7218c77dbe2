package corpus

import (
	"strings"
	"testing"

	"github.com/lbanalyze/lbanalyze/source"
	"github.com/lbanalyze/lbanalyze/source/steps"
)

// A JSON Lines file or a table no source claims gets a field map guessed
// from its first object's keys or its header's names (worked by hand from
// each), which reads it; lines of text with commas get none.
func TestSuggestFields(t *testing.T) {
	for _, c := range []struct{ head, want string }{
		{`{"step": 1, "info": {"score": 0, "room": "A"}, "usage": {"prompt_tokens": 10, "completion_tokens": 5}, "action": "look"}`,
			"turn=step,score=info.score,action=action,room=info.room,tokens=usage.prompt_tokens+usage.completion_tokens"},
		// TALES's columns, were its preset not there: a space in a key quotes the map for the shell.
		{`{"Step":1,"Score":0,"Token Usage":3,"Feedback":"x","Action":"n","Observation":"o"}`,
			`'turn=Step,score=Score,action=Action,response=Feedback,tokens=Token Usage'`},
		// The total wins over the parts; a reward stands for a score; the first object's
		// member nearest the top, and the likeliest name, are taken.
		{`{"t": 0, "reward": 1.5, "usage": {"total_tokens": 9, "input_tokens": 4, "output_tokens": 5}, "env": {"score": 3}, "episode_id": "r1"}`,
			"turn=t,score=reward,tokens=usage.total_tokens,episode=episode_id"},
		{`{"turn": 1, "score": "high"}`, "give a field map naming its score's member: --fields score=KEY"},
		{`{"turn": 1, "points.total": 5}`, "give a field map naming its score's member"},
		{"", ""},
		{"[1, 2]", ""},
		{"turn,score\n1,0\n", "to read it as a table of one row a step, give a field map, e.g. --fields turn=turn,score=score"},
		// BALROG's columns outside its layout; a Reward of text is no score.
		{"Step,Action,Reasoning,Observation,Reward,Done\n0,look,,x,0.5,False\n", "--fields turn=Step,score=Reward,action=Action,response=Observation"},
		{"Step\tAction\tReward\n0\tlook\thigh\n", ""},
		{"Dear reader, hello\nyes, no\n", ""},
	} {
		got := suggestFields([]byte(c.head + "\n"))
		if c.want == "" && got != "" || c.want != "" && !strings.Contains(got, c.want) {
			t.Errorf("%s:\n got %q\nwant %q", c.head, got, c.want)
		}
	}
	// The map suggested reads the file it was guessed from.
	line := `{"step": 1, "info": {"score": 7, "room": "A"}, "usage": {"prompt_tokens": 10, "completion_tokens": 5}, "action": "look"}` + "\n"
	_, m, _ := strings.Cut(suggestFields([]byte(line)), "--fields ")
	f, err := steps.ParseFields(m)
	if err != nil {
		t.Fatal(err)
	}
	eps, _ := source.ReadAll(steps.Source{Fields: f}, strings.NewReader(line), "run.jsonl", source.Options{})
	if len(eps) != 1 || eps[0].FinalScore() != 7 || eps[0].Turns[0].Tokens != 15 || eps[0].Turns[0].Action != "look" {
		t.Errorf("read through %q: %d episodes %+v", m, len(eps), eps)
	}
}
