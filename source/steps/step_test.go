package steps

import (
	"slices"
	"testing"
	"unsafe"

	"github.com/lbanalyze/lbanalyze/episode"
)

// What a step did (docs/sources.md, "What a step did"), worked by hand: an
// action written as an object is kept as canonical JSON; a response's text
// is kept, and texts alike are one string; the error member reads true, a
// text, a number other than 0 or a non-empty object as failed, and false,
// null, "", 0, {} or no member as not.
func TestWhatAStepDid(t *testing.T) {
	log := `{"s": 0, "a": {"tool": "bash", "args": {"cmd": "ls", "all": true}}, "r": "a b", "e": true}
{"s": 0, "a": {"args": {"all": true, "cmd": "ls"}, "tool": "bash"}, "r": "a b", "e": "exit 1"}
{"s": 0, "a": "  look ", "r": "dark", "e": 2}
{"s": 0, "a": "look", "r": "dark", "e": {"code": 1}}
{"s": 0, "a": "look", "r": "dark", "e": false}
{"s": 0, "a": "look", "r": "dark", "e": null}
{"s": 0, "a": "look", "r": "dark", "e": ""}
{"s": 0, "a": "look", "r": "dark", "e": 0}
{"s": 0, "a": "look", "r": "dark", "e": {}}
{"s": 0, "a": "look", "r": "dark"}
`
	eps, _ := read(t, "score=s,action=a,response=r,error=e", log)
	if len(eps) != 1 || eps[0].N() != 10 {
		t.Fatalf("%d episodes", len(eps))
	}
	ep := eps[0]
	const call = `{"args":{"all":true,"cmd":"ls"},"tool":"bash"}`
	if ep.Turns[0].Action != call || ep.Turns[1].Action != call {
		t.Errorf("actions %q, %q, want both %q", ep.Turns[0].Action, ep.Turns[1].Action, call)
	}
	if ep.Turns[2].Action != "  look " {
		t.Errorf("a text action is kept as written (rules trim it), got %q", ep.Turns[2].Action)
	}
	if ep.Turns[0].Response != "a b" || ep.Turns[2].Response != "dark" ||
		unsafe.StringData(ep.Turns[3].Response) != unsafe.StringData(ep.Turns[2].Response) || ep.Turns[0].ResponseHash == ep.Turns[2].ResponseHash {
		t.Errorf("responses %q %q %q", ep.Turns[0].Response, ep.Turns[2].Response, ep.Turns[3].Response)
	}
	want := []bool{true, true, true, true, false, false, false, false, false, false}
	for i, w := range want {
		if ep.Turns[i].Errored != w {
			t.Errorf("step %d: errored %v, want %v", i+1, ep.Turns[i].Errored, w)
		}
	}
	if !ep.Signals.Has(episode.Errors, episode.ResponseTexts, episode.Responses) {
		t.Errorf("signals %v", ep.Signals.List())
	}
	if ep.ProblemCount != 0 {
		t.Errorf("a step without the error member is not a problem: %v", ep.ProblemMessages())
	}
}

// A table's error column: True and False as Python writes them, a text, an
// empty cell.
func TestTableErrors(t *testing.T) {
	log := "score,action,err\n0,ls,True\n0,ls,False\n0,ls,Traceback\n0,ls,\n0,ls,0\n"
	eps, _ := readTable(t, "score=score,action=action,error=err", log)
	if len(eps) != 1 {
		t.Fatalf("%d episodes", len(eps))
	}
	var got []bool
	for _, tu := range eps[0].Turns {
		got = append(got, tu.Errored)
	}
	if want := []bool{true, false, true, false, false}; !slices.Equal(got, want) {
		t.Errorf("errored %v, want %v", got, want)
	}
}
