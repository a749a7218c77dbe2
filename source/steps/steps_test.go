package steps

import (
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/lbanalyze/lbanalyze/episode"
	"github.com/lbanalyze/lbanalyze/internal/testlogs"
	"github.com/lbanalyze/lbanalyze/source"
)

func mustFields(t *testing.T, s string) Fields {
	t.Helper()
	f, err := ParseFields(s)
	if err != nil {
		t.Fatal(err)
	}
	return f
}

// read reads log through the field map s.
func read(t *testing.T, s, log string) ([]*episode.Episode, *source.Result) {
	t.Helper()
	return source.ReadAll(Source{Fields: mustFields(t, s)}, strings.NewReader(log), "runs/ep7.jsonl", source.Options{})
}

func scores(ep *episode.Episode) []float64 {
	var s []float64
	for _, tu := range ep.Turns {
		s = append(s, float64(tu.Score))
	}
	return s
}

func TestParseFields(t *testing.T) {
	for _, c := range []struct {
		in   string
		want Fields
		err  string
	}{
		{in: "turn=Step,score=Score,tokens=Token Usage", want: Fields{Turn: Path{"Step"}, Score: Path{"Score"}, Tokens: Path{"Token Usage"}}},
		{in: " score = info.game.score , scored=best", want: Fields{Score: Path{"info", "game", "score"}, Scoring: episode.ScoredBest}},
		// The first "=" ends the name: a marker may hold more.
		{in: "score=s,restart=obs,restart_marker=-= Restarting =-", want: Fields{Score: Path{"s"}, Restart: Path{"obs"}, RestartMarker: "-= Restarting =-"}},
		{in: "turn=Step", err: "no score"},
		{in: "score=Score,points=Score", err: `unknown key "points"`},
		{in: "score=Score,score=S", err: "score is given twice"},
		{in: "score", err: `"score": write NAME=KEY`},
		{in: "score=a..b", err: "an empty key between dots"},
		{in: "score=", err: "an empty key"},
		{in: "score=s,scored=max", err: "give last"},
		{in: "score=s,restart_marker=x", err: "restart_marker without restart"},
		{in: "score=s,death_marker=died", err: "death_marker without response"},
		// A count adds members; another key takes a "+" as part of its name.
		{in: "score=s,tokens=usage.prompt_tokens + usage.completion_tokens,calls=c+d+e", want: Fields{Score: Path{"s"},
			Tokens: Path{"usage", "prompt_tokens"}, MoreTokens: []Path{{"usage", "completion_tokens"}}, Calls: Path{"c"}, MoreCalls: []Path{{"d"}, {"e"}}}},
		{in: "score=a+b", want: Fields{Score: Path{"a+b"}}},
		{in: "score=s,tokens=a+", err: `tokens = "a+": an empty key in a sum (write KEY+KEY)`},
	} {
		got, err := ParseFields(c.in)
		switch {
		case c.err != "" && (err == nil || !strings.Contains(err.Error(), c.err)):
			t.Errorf("%q: error %v, want one saying %q", c.in, err, c.err)
		case c.err == "" && (err != nil || !reflect.DeepEqual(got, c.want)):
			t.Errorf("%q: %+v, %v; want %+v", c.in, got, err, c.want)
		}
	}
}

func TestLoadFields(t *testing.T) {
	dir := t.TempDir()
	write := func(name, body string) string { return testlogs.WriteFile(t, dir, name, body) }
	good := write("tales.toml", "turn = \"Step\"\nscore = \"Score\"\ntokens = \"Token Usage\"\nrestart = \"Observation\"\nrestart_marker = \"-= Restarting =-\"\nscored = \"best\"\n")
	f, err := LoadFields(good)
	want := Fields{Turn: Path{"Step"}, Score: Path{"Score"}, Tokens: Path{"Token Usage"}, Restart: Path{"Observation"},
		RestartMarker: "-= Restarting =-", Scoring: episode.ScoredBest}
	if err != nil || !reflect.DeepEqual(f, want) {
		t.Errorf("%+v, %v; want %+v", f, err, want)
	}
	for _, c := range []struct{ body, err string }{
		{"score = 3\n", `score = 3: a key is given as a string`},
		{"[fields]\nscore = \"Score\"\n", "[fields]: a fields file has no tables"},
		{"score = \"Score\"\nlevel = \"x\"\n", `unknown key "level"`},
		{"turn = \"Step\"\n", "no score"},
		{"score = \n", "bad.toml"},
		// 17 arrays open: a depth of 18 by line 1's 16th bracket.
		{"score = " + strings.Repeat("[", 17) + strings.Repeat("]", 17) + "\n", "bad.toml:1: nested more than 16 deep"},
	} {
		if _, err := LoadFields(write("bad.toml", c.body)); err == nil || !strings.Contains(err.Error(), c.err) || !strings.Contains(err.Error(), "bad.toml") {
			t.Errorf("%q: error %v, want one naming the file and saying %q", c.body, err, c.err)
		}
	}
}

func TestRead(t *testing.T) {
	// Hand-worked: three steps, one restart, tokens on each.
	log := `{"t": 1, "s": 5, "a": "open door", "r": "Opened.", "tok": 100, "new": false}
{"t": 2, "s": 15, "a": "north", "r": "You have died.", "tok": 120, "new": false}
{"t": 3, "s": 0, "a": "look", "r": "West of House", "tok": 90, "new": true}
`
	eps, res := read(t, "turn=t,score=s,action=a,response=r,tokens=tok,restart=new,death_marker=have died,scored=best", log)
	if len(eps) != 1 || res.Lines != 3 || res.Segments != 1 {
		t.Fatalf("%d episodes, %+v", len(eps), res)
	}
	ep := eps[0]
	if ep.ID != "ep7" || ep.Format != Format || ep.Scoring != episode.ScoredBest || ep.End.Reason != episode.EndNone {
		t.Errorf("id %q, format %q, scoring %v, end %v", ep.ID, ep.Format, ep.Scoring, ep.End)
	}
	if !reflect.DeepEqual(scores(ep), []float64{5, 15, 0}) || ep.Turns[1].Action != "north" || !ep.Turns[2].Restart || ep.Turns[1].Restart ||
		ep.Turns[0].Tokens+ep.Turns[1].Tokens+ep.Turns[2].Tokens != 310 || !reflect.DeepEqual(ep.Deaths, []episode.Death{{Turn: 2, Reason: "died"}}) {
		t.Errorf("turns %+v, deaths %v", ep.Turns, ep.Deaths)
	}
	if ep.Turns[0].ResponseHash == 0 || ep.Turns[0].ResponseHash == ep.Turns[1].ResponseHash {
		t.Errorf("response hashes %x %x", ep.Turns[0].ResponseHash, ep.Turns[1].ResponseHash)
	}
	if ep.Fact("best_score") != "15" || ep.Fact("restarts") != "1" {
		t.Errorf("facts %+v", ep.Facts)
	}
	if ep.Turns[1].Response != "You have died." {
		t.Errorf("response text %q", ep.Turns[1].Response)
	}
	if want := episode.Signals(0).With(episode.Actions, episode.Responses, episode.ResponseTexts, episode.Tokens, episode.Restarts); ep.Signals != want {
		t.Errorf("signals %b, want %b", ep.Signals, want)
	}
}

// A count that adds members: the sum on each step (worked by hand), unknown
// on a step that lacks one of them or holds no count in it, each named.
func TestSum(t *testing.T) {
	log := `{"s": 0, "u": {"p": 100, "c": 20}, "n": 1}
{"s": 1, "u": {"p": 150, "c": 30.0}, "n": 2}
{"s": 1, "u": {"p": 200}, "n": 1}
{"s": 2, "u": {"p": 10, "c": -5}, "n": 1}
`
	eps, _ := read(t, "score=s,tokens=u.p+u.c,calls=n+n", log)
	if len(eps) != 1 {
		t.Fatalf("%d episodes", len(eps))
	}
	ep := eps[0]
	var tokens []int64
	var calls []int32
	for _, tu := range ep.Turns {
		tokens, calls = append(tokens, tu.Tokens), append(calls, tu.Calls)
	}
	if !reflect.DeepEqual(tokens, []int64{120, 180, 0, 0}) || !reflect.DeepEqual(calls, []int32{2, 4, 2, 2}) {
		t.Errorf("tokens %v, calls %v; want [120 180 0 0], [2 4 2 2]", tokens, calls)
	}
	msgs := strings.Join(ep.ProblemMessages(), "\n")
	for _, want := range []string{`3: no "u.p+u.c" (the tokens) on this step`, `4: "u.p+u.c" (the tokens) is negative: counted as unknown`} {
		if !strings.Contains(msgs, want) {
			t.Errorf("problems %q lack %q", msgs, want)
		}
	}
}

func TestMissingScoreNamesKeyAndLine(t *testing.T) {
	log := "{\"Step\": 1, \"Score\": 0}\n{\"Step\": 2, \"score\": 5}\n{\"Step\": 3, \"Score\": null}\n{\"Step\": 4, \"Score\": \"7\"}\n{\"Step\": 5, \"Score\": 2.5}\n{\"Step\": 6, \"Score\": 8.0}\n"
	eps, _ := read(t, "turn=Step,score=Score", log)
	ep := eps[0]
	want := []string{
		`runs/ep7.jsonl:2: no "Score" (the score): this step is skipped`, // "score" is another key, as json.loads sees it
		`runs/ep7.jsonl:3: no "Score" (the score): this step is skipped`,
		`runs/ep7.jsonl:4: "Score" (the score) is a string, not a number: this step is skipped`,
	}
	if got := ep.ProblemMessages(); !reflect.DeepEqual(got, want) {
		t.Errorf("problems\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	// Steps 2 to 4 are missing: the score carried forward; a score need
	// not be whole (2.5); 8.0 is 8.
	if !reflect.DeepEqual(scores(ep), []float64{0, 0, 0, 0, 2.5, 8}) || ep.MissingTurns != 3 || ep.SkippedLines != 3 {
		t.Errorf("scores %v, missing %d, skipped %d", scores(ep), ep.MissingTurns, ep.SkippedLines)
	}
}

func TestKeys(t *testing.T) {
	for _, c := range []struct {
		name, fields, log string
		want              []float64
	}{
		{"dotted", "score=info.score", `{"info": {"score": 3, "moves": 1}}` + "\n" + `{"info": {"score": 4}}` + "\n", []float64{3, 4}},
		// An escape in a key is undone before it is matched, as json.loads does.
		{"escaped key", "score=score", `{"sco\u0072e": 3}` + "\n", []float64{3}},
		// Of two equal keys the last wins, as in json.loads.
		{"repeated key", "score=score", `{"score": 3, "score": 4}` + "\n", []float64{4}},
		// Matched exactly, case and all, as json.loads matches them: "SCORE"
		// beside score is not the score, at the top level or nested.
		{"keys by case", "score=score", `{"score": 3, "SCORE": 9, "Score": 8}` + "\n" + `{"SCORE": 9, "score": 4, "Score": 8}` + "\n", []float64{3, 4}},
		{"nested keys by case", "score=info.score", `{"info": {"score": 3, "SCORE": 9}}` + "\n" + `{"INFO": {"score": 9}, "info": {"Score": 8, "score": 4}}` + "\n", []float64{3, 4}},
		// Matched exactly: a nested member of the same name is not the top-level one.
		{"nested, same name", "score=score", `{"info": {"score": 9}, "score": 1}` + "\n", []float64{1}},
		// A repeated key's last value wins whole, as json.loads keeps it: the
		// score of the first "info" is not in the second.
		{"a nested object repeated", "score=info.score", `{"info": {"score": 1}, "info": {"score": 2}}` + "\n" + `{"info": {"score": 3}, "info": {"x": 4}}` + "\n" + `{"info": {"score": 5}}` + "\n", []float64{2, 5}},
		{"numbered from 0", "turn=step,score=score", `{"step": 0, "score": 1}` + "\n" + `{"step": 1, "score": 2}` + "\n", []float64{1, 2}},
		{"a step back is skipped", "turn=step,score=score", `{"step": 1, "score": 1}` + "\n" + `{"step": 3, "score": 2}` + "\n" + `{"step": 2, "score": 9}` + "\n", []float64{1, 1, 2}},
	} {
		eps, res := read(t, c.fields, c.log)
		if len(eps) != 1 || !reflect.DeepEqual(scores(eps[0]), c.want) {
			t.Errorf("%s: %d episodes (%+v), scores %v; want %v", c.name, len(eps), res, scores(eps[0]), c.want)
		}
	}
}

// The episode member keeps its runs apart however their lines interleave:
// a's lines after 7's go on with a (docs/bad-input.md, "Runs in one file").
func TestEpisodeMember(t *testing.T) {
	log := `{"ep": "a", "s": 1}
{"ep": "a", "s": 2}
{"ep": 7, "s": 3}
{"s": 4}
{"ep": "a", "s": 5}
`
	eps, res := read(t, "episode=ep,score=s", log)
	var ids []string
	var all [][]float64
	for _, ep := range eps {
		ids = append(ids, ep.ID)
		all = append(all, scores(ep))
	}
	if !reflect.DeepEqual(ids, []string{"a", "7"}) || !reflect.DeepEqual(all, [][]float64{{1, 2, 5}, {3}}) || res.Segments != 2 {
		t.Errorf("ids %v, scores %v, segments %d", ids, all, res.Segments)
	}
	if p := eps[1].ProblemMessages(); len(p) != 1 || !strings.Contains(p[0], `:4: no "ep" (the episode)`) {
		t.Errorf("problems %q", p)
	}
}

func TestOptionalMembers(t *testing.T) {
	log := `{"s": 1, "tok": 10, "room": "Kitchen"}
{"s": 1, "room": 12}
{"s": 1, "tok": -3, "room": true}
`
	eps, _ := read(t, "score=s,tokens=tok,room=room", log)
	ep := eps[0]
	if ep.Turns[0].Location != "Kitchen" || ep.Turns[1].RoomID != 12 || ep.Turns[2].RoomID != 0 || ep.Turns[2].Location != "" ||
		ep.Turns[0].Tokens != 10 || ep.Turns[1].Tokens != 0 || ep.Turns[2].Tokens != 0 || ep.SkippedLines != 0 {
		t.Errorf("turns %+v", ep.Turns)
	}
	notes := strings.Join(ep.Notes, "; ")
	if !strings.Contains(notes, `2 of 3 steps have no usable "tok" (the tokens)`) {
		t.Errorf("notes %q", notes)
	}
}

func TestLongLine(t *testing.T) {
	// A step of 1 MiB (a whole prompt): read whole, its prompt passed over.
	big := strings.Repeat("x", 1<<20)
	log := `{"Step": 1, "Score": 2, "Prompt": "` + big + `", "Token Usage": 5}` + "\n" + `{"Step": 2, "Score": 3, "Prompt": "", "Token Usage": 6}` + "\n"
	eps, res := read(t, "turn=Step,score=Score,tokens=Token Usage", log)
	if len(eps) != 1 || !reflect.DeepEqual(scores(eps[0]), []float64{2, 3}) || eps[0].Turns[0].Tokens != 5 {
		t.Errorf("%+v %+v", eps, res)
	}
}

func TestClaims(t *testing.T) {
	s := Source{Fields: mustFields(t, "turn=Step,score=Score")}
	for _, c := range []struct {
		head string
		want bool
	}{
		{`{"Step": 1, "Score": 0}` + "\n", true},
		{"\n\n" + `{"Step": 1, "Score": 0}` + "\n", true},
		{`{"Step": 1, "score": 0}` + "\n", false},
		{`{"Step": 1, "Score": 0, "Prompt": "a long cut`, true}, // judged by the members the head holds
		{`{"Step": 1, "Prompt": "a long cut`, false},            // not for want of a sight of its score
		{`{"Step": 1, "Sc`, false},
		{`{"Step": 1, "Score": {"x": 1}, "Score": 2}` + "\n", true},
		{`{"timestamp": "2025-10-18T17:19:41", "level": "INFO"}` + "\n", false}, // a ZorkGPT log
		{`{"Step": 1, "Score": 0,,}` + "\n", false},
		{`[{"Step": 1, "Score": 0}]` + "\n", false},
		{"", false},
	} {
		if got := s.Claims([]byte(c.head)); got != c.want {
			t.Errorf("Claims(%q) = %v, want %v", c.head, got, c.want)
		}
	}
}

func TestMarker(t *testing.T) {
	m := newMarker("-= Restarting =-")
	for _, c := range []struct {
		raw  string
		want bool
	}{
		{`"died.\n\n-= Restarting =-\nWest"`, true},
		{`"-= Restarting =-"`, true},
		{`"\u002d= Restarting =-"`, true}, // spelled with an escape
		{`"-= Restart =-"`, false},
		{`"no marker at all"`, false},
	} {
		if got := m.in(value{raw: []byte(c.raw)}); got != c.want {
			t.Errorf("in(%s) = %v, want %v", c.raw, got, c.want)
		}
	}
}

// Past the first source.MaxRejected, the segments without a step are counted,
// not dropped unsaid: 25 episodes whose every score is unreadable give 20
// rejections and one line for the 5 after them.
func TestRejectedCounted(t *testing.T) {
	var log strings.Builder
	for i := range 25 {
		fmt.Fprintf(&log, "{\"ep\": \"e%d\", \"s\": \"x\"}\n", i)
	}
	eps, res := read(t, "episode=ep,score=s", log.String())
	if len(eps) != 0 || res.Segments != 25 || len(res.Rejected) != source.MaxRejected+1 {
		t.Fatalf("%d episodes, %d segments, %d rejections", len(eps), res.Segments, len(res.Rejected))
	}
	last := res.Rejected[source.MaxRejected]
	if last.Segment != 21 || !strings.Contains(last.Reason, "nor can 4 of the segments after it") {
		t.Errorf("last rejection %+v", last)
	}
}

// A log that records no id is named by source.Options.PathID when the reader
// is given one, else after its file; the member --by names (a nested one
// too) is kept as a fact of its key, from the first step that has it, once
// an episode: a number as written.
func TestPathIDAndMember(t *testing.T) {
	log := `{"s": 0, "info": {}}` + "\n" + `{"s": 1, "info": {"model": "gpt-4o"}}` + "\n" + `{"s": 2, "info": {"model": "other"}}` + "\n"
	f := mustFields(t, "score=s")
	for _, c := range []struct {
		opt        source.Options
		id, member string
		facts      int
	}{
		{source.Options{}, "ep7", "", 0},
		{source.Options{PathID: "sub/textworld/task/run_00", Member: "info.model"}, "sub/textworld/task/run_00", "gpt-4o", 1},
		{source.Options{Member: "s"}, "ep7", "0", 1},
		{source.Options{Member: "absent"}, "ep7", "", 0},
	} {
		eps, _ := source.ReadAll(Source{Fields: f}, strings.NewReader(log), "runs/ep7.jsonl", c.opt)
		if len(eps) != 1 {
			t.Fatalf("%+v: %d episodes", c.opt, len(eps))
		}
		ep := eps[0]
		if ep.ID != c.id || !ep.IDFromPath || ep.Fact(c.opt.Member) != c.member || len(ep.Facts) != c.facts {
			t.Errorf("%+v: id %q (from path %v), fact %q, %d facts", c.opt, ep.ID, ep.IDFromPath, ep.Fact(c.opt.Member), len(ep.Facts))
		}
	}
	// A recorded id is the log's, whatever the path.
	eps, _ := source.ReadAll(Source{Fields: mustFields(t, "score=s,episode=e")}, strings.NewReader(`{"e": "a", "s": 1}`+"\n"), "x.jsonl",
		source.Options{PathID: "dir/x"})
	if len(eps) != 1 || eps[0].ID != "a" || eps[0].IDFromPath {
		t.Errorf("recorded id: %q, from path %v", eps[0].ID, eps[0].IDFromPath)
	}
}
