package jsonl

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"math/rand/v2"
	"strings"
	"testing"
)

// picked is a struct with a nested struct, as a source names its members.
type picked struct {
	Type   string  `json:"type"`
	Action *string `json:"action"`
	State  struct {
		Turn  int             `json:"turn_count"`
		Score json.RawMessage `json:"score"`
		Deep  struct {
			X json.RawMessage `json:"x"`
		} `json:"deep"`
	} `json:"state"`
	Tail json.RawMessage `json:"tail"`
}

var pickedMembers = MembersOf(picked{})

// appended is what Members.Append keeps of a whole line: the reference the
// Picker must agree with.
func appended(t testing.TB, line []byte) []byte {
	t.Helper()
	var dst []byte
	if err := ScanObject(line, func(k, v []byte) { dst, _ = pickedMembers.Append(dst, k, v) }); err != nil {
		t.Fatalf("ScanObject(%s): %v", line, err)
	}
	return Object(dst)
}

// pickPieces feeds line to a Picker cut at the given places.
func pickPieces(p *Picker, line []byte, cuts []int) ([]byte, error) {
	p.Reset()
	prev := 0
	for _, c := range append(cuts, len(line)) {
		if c < prev {
			continue
		}
		n, err := p.Feed(line[prev:c])
		if err != nil {
			return nil, err
		}
		if p.Done() {
			if rest := bytes.TrimSpace(line[prev+n:]); len(rest) > 0 && !p.Skipped() {
				return nil, errors.New("data after the object")
			}
			break
		}
		prev = c
	}
	if err := p.Finish(); err != nil {
		return nil, err
	}
	return p.Object(), nil
}

func compact(t testing.TB, b []byte) string {
	t.Helper()
	var buf bytes.Buffer
	if err := json.Compact(&buf, b); err != nil {
		t.Fatalf("%s is not JSON: %v", b, err)
	}
	return buf.String()
}

func TestPickerKeepsWhatAppendKeeps(t *testing.T) {
	lines := []string{
		`{}`,
		`{"type":"end_entry","action":"execute_action","state":{"turn_count":3,"score":10,"action_history":[{"turn":1,"a":"x \"quoted\" \\ back"}],"deep":{"x":[1,{"y":"}"}],"z":2}},"sequence_id":7}`,
		`{ "type" : "t" , "state" : { "score" : -1.5e3 , "deep" : { "x" : { "a" : [ ] } } } , "tail" : [ "]" , { } , null ] }`,
		`{"state":null,"type":"x"}`,                       // a nested struct's value that is no object: kept raw
		`{"state":{"score":1},"state":{"score":2}}`,       // both kept, as Append keeps both
		`{"sta\u0074e":{"turn_count":4},"Type":"folded"}`, // keys matched exactly, escapes undone
		`{"type":"é \ud83d\ude00","tail":"\\\\"}`,
		`{"action":null,"tail":true,"other":false,"state":{"turn_count":0}}`,
	}
	p := NewPicker(pickedMembers, 0)
	rng := rand.New(rand.NewPCG(1, 2))
	for _, line := range lines {
		want := compact(t, appended(t, []byte(line)))
		for k := range 50 {
			var cuts []int
			for range k % 6 {
				cuts = append(cuts, rng.IntN(len(line)+1))
			}
			if k < len(line) {
				cuts = []int{k} // every single cut of short lines too
			}
			sortInts(cuts)
			got, err := pickPieces(p, []byte(line), cuts)
			if err != nil || compact(t, got) != want {
				t.Errorf("%s cut at %v: %s, %v; want %s", line, cuts, got, err, want)
				break
			}
		}
	}
}

func sortInts(s []int) {
	for i := 1; i < len(s); i++ {
		for j := i; j > 0 && s[j] < s[j-1]; j-- {
			s[j], s[j-1] = s[j-1], s[j]
		}
	}
}

func TestPickerSliceOfStructs(t *testing.T) {
	type entry struct {
		Turn int    `json:"turn"`
		Loc  string `json:"location_name"`
	}
	type snap struct {
		State struct {
			History []entry `json:"action_history"`
		} `json:"state"`
	}
	p := NewPicker(MembersOf(snap{}), 0)
	line := `{"meta":{"x":1},"state":{"action_history":[{"turn":1,"reasoning":"long","location_name":"West House"},{"turn":2,"TURN":9},7,[1]],"rest":"x"}}`
	got, err := pickPieces(p, []byte(line), nil)
	want := `{"state":{"action_history":[{"turn":1,"location_name":"West House"},{"turn":2},7,[1]]}}`
	if err != nil || compact(t, got) != want {
		t.Fatalf("got %s, %v; want %s", got, err, want)
	}
}

func TestPickerGate(t *testing.T) {
	var asked []string
	p := NewPicker(pickedMembers, 0)
	p.SetGate("action", "", func(v []byte) bool { asked = append(asked, string(v)); return string(v) != "execute_action" })
	line := `{"type":"end_entry","action":"assemble_\u0063ontext","state":{"turn_count":1}, "not": [json at all`
	n, err := p.Feed([]byte(line))
	if err != nil || !p.Skipped() || !p.Done() || n != strings.Index(line, `,"state"`) {
		t.Fatalf("skipped %v done %v at %d, %v", p.Skipped(), p.Done(), n, err)
	}
	if got := string(p.Object()); got != `{"type":"end_entry","action":"assemble_\u0063ontext"}` {
		t.Errorf("kept before the gate: %s", got)
	}
	if len(asked) != 1 || asked[0] != "assemble_context" {
		t.Errorf("asked %q, want the unescaped action", asked)
	}
	got, err := pickPieces(p, []byte(`{"action":"execute_action","state":{"turn_count":2}}`), []int{12, 20})
	if err != nil || p.Skipped() || compact(t, got) != `{"action":"execute_action","state":{"turn_count":2}}` {
		t.Errorf("a wanted line: %s, %v (skipped %v)", got, err, p.Skipped())
	}
	// Passed over from "state" on: what comes before it is still kept.
	p.SetGate("action", "state", func(v []byte) bool { return string(v) != "execute_action" })
	line = `{"type":"end_entry","action":"record_memory","tail":"boom","state":{"turn_count":1,"x":[never read`
	got, err = pickPieces(p, []byte(line), []int{40})
	if err != nil || !p.Skipped() || string(got) != `{"type":"end_entry","action":"record_memory","tail":"boom"}` {
		t.Errorf("passed over from state: %s, %v (skipped %v)", got, err, p.Skipped())
	}
	// A line without the member before: read to its end, and still skipped.
	got, err = pickPieces(p, []byte(`{"action":"x","type":"y"}`), nil)
	if err != nil || !p.Skipped() || string(got) != `{"action":"x","type":"y"}` {
		t.Errorf("no state: %s, %v (skipped %v)", got, err, p.Skipped())
	}
}

func TestPickerErrors(t *testing.T) {
	p := NewPicker(pickedMembers, 64)
	for _, c := range []struct{ line, want string }{
		{`[1,2]`, "column 1: line does not start with '{'"},
		{`{"type":"x",}`, "column 13: expected a key in quotes"},
		{`{"type" "x"}`, "column 9: expected ':'"},
		{`{"type":"x" "y"}`, "column 13: expected ',' or a closing bracket"},
		{`{"state":{"a":[1,2}}}`, "column 19: expected ',' or a closing bracket"},
		{`{"type":}`, "column 9: expected a value"},
		{`{"state":{"deep":{"x":"cut`, "line ends inside a value"},
		{`{"tail":"` + strings.Repeat("x", 100) + `"}`, "the members kept are too long"},
		{`{"x":` + strings.Repeat("[", maxDepth+1), "nested too deeply"},
	} {
		_, err := pickPieces(p, []byte(c.line), []int{len(c.line) / 2})
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%.40s: %v, want %q", c.line, err, c.want)
		}
	}
}

func TestReaderPick(t *testing.T) {
	// A BOM, a blank line, CRLF, a long line, a bad line, an unterminated last line.
	long := `{"type":"end_entry","action":"execute_action","state":{"history":"` + strings.Repeat("y", 3*bufSize) + `","turn_count":2}}`
	in := "\xef\xbb\xbf" + `{"type":"begin_entry"}` + "\n\n" + `{"type":"a"}` + "\r\n" + long + "\n" + `{"type":` + "\n" + `{"type":"z","state":{"turn_count":9}}`
	p := NewPicker(pickedMembers, 0)
	rd := NewReader(strings.NewReader(in))
	defer rd.Close()
	var got []string
	for {
		n, err := rd.Pick(p)
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			got = append(got, err.Error())
			continue
		}
		var v picked
		if err := json.Unmarshal(p.Object(), &v); err != nil {
			t.Fatalf("line %d: %s: %v", n, p.Object(), err)
		}
		got = append(got, strings.Join([]string{itoa(n), v.Type, itoa(v.State.Turn)}, " "))
	}
	want := []string{"1 begin_entry 0", "3 a 0", "4 end_entry 2", "line 5: column 9: line ends inside a value (truncated?)", "6 z 9"}
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("got %q\nwant %q", got, want)
	}
	if !rd.Unterminated {
		t.Error("the last line has no newline")
	}
}

func itoa(n int) string { b, _ := json.Marshal(n); return string(b) }

// FuzzPicker: on any line ScanObject accepts, the Picker keeps what Append
// keeps, however the line is cut; on any other, it does not panic.
func FuzzPicker(f *testing.F) {
	f.Add([]byte(`{"type":"a","state":{"turn_count":1,"deep":{"x":[{"y":"\""}]}},"tail":null}`), uint8(3))
	f.Add([]byte(`{"action":"x\\","state":{}}`), uint8(0))
	f.Fuzz(func(t *testing.T, line []byte, cut uint8) {
		p := NewPicker(pickedMembers, 0)
		cuts := []int{int(cut) % (len(line) + 1)}
		got, err := pickPieces(p, line, cuts)
		if ScanObject(line, nil) != nil {
			return
		}
		if err != nil {
			t.Fatalf("%q: %v", line, err)
		}
		want := appended(t, line)
		var a, b any
		if json.Unmarshal(want, &a) != nil {
			return // NaN and the like: the codec's to mend
		}
		if err := json.Unmarshal(got, &b); err != nil {
			t.Fatalf("%q: picked %s is not JSON", line, got)
		}
		if ja, jb := compact(t, want), compact(t, got); ja != jb {
			t.Fatalf("%q: picked %s, appended %s", line, jb, ja)
		}
	})
}

func TestPickDocument(t *testing.T) {
	doc := "\xef\xbb\xbf{\n  \"type\": \"snapshot\",\n  \"state\": {\n    \"turn_count\": 7,\n    \"history\": [\"" + strings.Repeat("z", 2*bufSize) + "\"]\n  }\n}\n\n"
	p := NewPicker(pickedMembers, 0)
	if err := PickDocument(strings.NewReader(doc), p); err != nil || compact(t, p.Object()) != `{"type":"snapshot","state":{"turn_count":7}}` {
		t.Fatalf("%s, %v", p.Object(), err)
	}
	for _, c := range []struct{ doc, want string }{
		{"{\n  \"type\": \"x\",\n  \"state\": {\n", "line 4: the object is cut"},
		{"{\n  \"type\": \"x\"\n}\n{}\n", "line 4: data after the end of the object"},
		{"{\n  \"type\": \"x\",\n  ]\n}", "line 3: expected a key in quotes"},
		{"  \n", "empty"},
	} {
		if err := PickDocument(strings.NewReader(c.doc), p); err == nil || err.Error() != c.want && !strings.HasPrefix(err.Error(), c.want) {
			t.Errorf("%q: %v, want %q", c.doc, err, c.want)
		}
	}
}
