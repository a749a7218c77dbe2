package steps

import (
	"bufio"
	"bytes"
	"encoding/csv"
	"fmt"
	"io"
	"math/rand/v2"
	"reflect"
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/lbanalyze/lbanalyze/episode"
	"github.com/lbanalyze/lbanalyze/source"
)

// allCells reads every record of data, every cell held.
func allCells(t *testing.T, data string, delim byte) (recs [][]string, lines []int, err error) {
	t.Helper()
	c := newCells(bufio.NewReader(strings.NewReader(data)), delim, 1<<20)
	for {
		var rec record
		err := c.next(nil, &rec)
		if err == io.EOF {
			return recs, lines, nil
		}
		row := []string{}
		for _, b := range rec.cells {
			row = append(row, string(b))
		}
		recs, lines = append(recs, row), append(lines, rec.line)
		if err != nil {
			return recs, lines, err
		}
	}
}

// The records are Python's: each expected value is what csv.reader (Python
// 3.12, newline="") gives for the same text, blank lines ([]) left out, and
// the first line of each record where Python's line_num gives its last.
func TestCellsAsPythonReadsThem(t *testing.T) {
	for _, c := range []struct {
		name, in string
		want     [][]string
		lines    []int
	}{
		{"plain", "a,b\n1,2\n", [][]string{{"a", "b"}, {"1", "2"}}, []int{1, 2}},
		{"quoted over lines", "1,\"x, y\nz\",3\n4\n", [][]string{{"1", "x, y\nz", "3"}, {"4"}}, []int{1, 3}},
		{"doubled quotes", "\"say \"\"hi\"\"\",2\n", [][]string{{"say \"hi\"", "2"}}, []int{1}},
		{"a quote closed early", "\"ab\"c,d\n", [][]string{{"abc", "d"}}, []int{1}},
		{"quotes after an early close", "\"a\"b\"c\",d\n", [][]string{{"ab\"c\"", "d"}}, []int{1}},
		{"a quote inside a cell", "a\"b,c\n", [][]string{{"a\"b", "c"}}, []int{1}},
		{"a space before a quote", "a, \"b\"\n", [][]string{{"a", " \"b\""}}, []int{1}},
		{"CRLF", "a,b\r\n1,2\r\n", [][]string{{"a", "b"}, {"1", "2"}}, []int{1, 2}},
		{"CRLF kept in a quoted cell", "\"a\r\nb\",c\n", [][]string{{"a\r\nb", "c"}}, []int{1}},
		{"blank lines", "a\n\n\nb\n\n", [][]string{{"a"}, {"b"}}, []int{1, 4}},
		{"blank lines inside quotes", "a,\"b\n\nc\"\n\nd\n", [][]string{{"a", "b\n\nc"}, {"d"}}, []int{1, 5}},
		{"no newline at the end", "a,b", [][]string{{"a", "b"}}, []int{1}},
		{"empty cells", ",,\n\"\"\n\"\",\"\"\n", [][]string{{"", "", ""}, {""}, {"", ""}}, []int{1, 2, 3}},
		{"a carriage return alone ends a record", "a\rb\n", [][]string{{"a"}, {"b"}}, []int{1, 2}},
	} {
		got, lines, err := allCells(t, c.in, ',')
		if err != nil || !reflect.DeepEqual(got, c.want) || !reflect.DeepEqual(lines, c.lines) {
			t.Errorf("%s: %q, lines %v, %v; want %q, lines %v", c.name, got, lines, err, c.want, c.lines)
		}
	}
	if got, _, err := allCells(t, "a\tb,c\n", '\t'); err != nil || !reflect.DeepEqual(got, [][]string{{"a", "b,c"}}) {
		t.Errorf("TSV: %q, %v", got, err)
	}
	// Python's non-strict reader gives the cut cell; lbanalyze says the
	// file ends inside it.
	if got, _, err := allCells(t, "x\na,\"bc", ','); err != errUnterminated || !reflect.DeepEqual(got, [][]string{{"x"}, {"a", "bc"}}) {
		t.Errorf("unterminated: %q, %v", got, err)
	}
}

// Whatever encoding/csv writes, the reader reads back: random cells with
// quotes, delimiters, newlines and carriage returns, in any chunking of the
// input (a small buffer cuts records anywhere).
func TestCellsReadWhatCSVWrites(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 5))
	alphabet := []string{"a", "b", " ", ",", "\t", "\"", "\n", "\r\n", "é", "x\"y", ""}
	for trial := range 500 {
		delim := []rune{',', '\t'}[trial%2]
		var rows [][]string
		for range 1 + rng.IntN(6) {
			row := make([]string, 1+rng.IntN(5))
			for i := range row {
				for range rng.IntN(6) {
					row[i] += alphabet[rng.IntN(len(alphabet))]
				}
			}
			if len(row) == 1 && row[0] == "" {
				row[0] = "x" // a lone empty cell is written as a blank line, which is no record
			}
			rows = append(rows, row)
		}
		var b bytes.Buffer
		w := csv.NewWriter(&b)
		w.Comma, w.UseCRLF = delim, trial%3 == 0
		w.WriteAll(rows)
		want := rows
		if w.UseCRLF { // encoding/csv writes a cell's \n as \r\n then
			want = nil
			for _, r := range rows {
				var cr []string
				for _, s := range r {
					cr = append(cr, strings.ReplaceAll(strings.ReplaceAll(s, "\r\n", "\n"), "\n", "\r\n"))
				}
				want = append(want, cr)
			}
		}
		c := newCells(bufio.NewReaderSize(bytes.NewReader(b.Bytes()), 16), byte(delim), 1<<20)
		var got [][]string
		for {
			var rec record
			if err := c.next(nil, &rec); err != nil {
				if err != io.EOF {
					t.Fatal(err)
				}
				break
			}
			row := []string{}
			for _, x := range rec.cells {
				row = append(row, string(x))
			}
			got = append(got, row)
		}
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("trial %d: wrote %q as\n%q\nread %q", trial, want, b.String(), got)
		}
	}
}

// readTable reads a table through the field map s.
func readTable(t *testing.T, s, log string) ([]*episode.Episode, *source.Result) {
	t.Helper()
	return source.ReadAll(Table{Fields: mustFields(t, s)}, strings.NewReader(log), "runs/ep7.csv", source.Options{})
}

func TestTableClaims(t *testing.T) {
	tab := Table{Fields: mustFields(t, "turn=Step,score=info.score")}
	for _, c := range []struct {
		head string
		want bool
	}{
		{"Step,info.score\n0,1\n", true},
		{"\xef\xbb\xbfObservation,info.score,Step\n", true}, // any order, a byte order mark
		{"Step\tinfo.score\n", true},
		{"\"Step\",\"info.score\"\r\n", true},
		{"Step,score\n", false},    // not the map's column
		{"Step,info.score", false}, // the header not ended within the head
		{"{\"Step\": 0, \"info.score\": 1}\n", false},
		{"Step;info.score\n", false}, // semicolons are not read
	} {
		if got := tab.Claims([]byte(c.head)); got != c.want {
			t.Errorf("%q: claims %v, want %v", c.head, got, c.want)
		}
	}
	for _, n := range []string{"a.csv", "a.tsv", "a.csv.gz", "a.tsv.zst"} {
		if !tab.Opens(n) {
			t.Errorf("does not open %s", n)
		}
	}
	if tab.Opens("a.json") || tab.Opens("a.csv.bak") {
		t.Error("opens a.json or a.csv.bak")
	}
}

// Hand-worked: the columns in any order, a multi-line response, an action
// with a comma, a row too narrow and one whose step is not a number, named
// by their lines and skipped; the rest read.
func TestTableRead(t *testing.T) {
	log := "Action,Observation,Step,Score,Tokens\n" +
		"open door,\"The door opens.\nA hall.\",0,0,100\n" + // lines 2-3
		"\"take lamp, then north\",Taken.,1,5,120\n" + // 4
		"look,Hall.,2\n" + // 5: three cells of five
		"look,Hall.,two,5,90\n" + // 6: the step is not a number
		"north,,3,5.5,\n" // 7: an empty response is one; no tokens
	eps, res := readTable(t, "turn=Step,score=Score,action=Action,response=Observation,tokens=Tokens", log)
	if len(eps) != 1 || res.Lines != 7 {
		t.Fatalf("%d episodes, %+v", len(eps), res)
	}
	ep := eps[0]
	want := []string{
		`runs/ep7.csv:5: a row of 3 cells, where the header has 5: skipped`,
		`runs/ep7.csv:6: "Step" (the turn) is not a number: this step is skipped`,
		`runs/ep7.csv:7: no "Tokens" (the tokens) on this step`,
	}
	if got := ep.ProblemMessages(); !reflect.DeepEqual(got, want) {
		t.Errorf("problems\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if ep.ID != "ep7" || ep.Format != TableFormat || ep.SkippedLines != 2 || ep.N() != 4 || ep.MissingTurns != 1 {
		t.Errorf("id %q, format %q, %d skipped, %d turns, %d missing", ep.ID, ep.Format, ep.SkippedLines, ep.N(), ep.MissingTurns)
	}
	if !reflect.DeepEqual(scores(ep), []float64{0, 5, 5, 5.5}) || ep.Turns[1].Action != "take lamp, then north" || ep.Turns[3].Action != "north" {
		t.Errorf("scores %v, actions %q %q", scores(ep), ep.Turns[1].Action, ep.Turns[3].Action)
	}
	if ep.Turns[0].Tokens != 100 || ep.Turns[1].Tokens != 120 || ep.Turns[3].Tokens != 0 ||
		ep.Turns[3].ResponseHash == 0 || ep.Turns[0].ResponseHash == ep.Turns[1].ResponseHash {
		t.Errorf("turns %+v", ep.Turns)
	}
}

// A log of rewards: the score after a step is the sum of the rewards up to
// it, from 0, kept to 9 decimals so that it is the decimal itself (0.1 + 0.2
// is 0.3, and 0.3 + 0.1 − 0.1 is 0.3 again). Worked by hand.
func TestRewardsSum(t *testing.T) {
	log := "Step,Reward\n0,0.1\n1,0.2\n2,-0.3\n3,0.7\n4,0\n5,0.05\n6,1e-3\n7,-0.051\n8,0.1\n9,-0.1\n"
	eps, _ := readTable(t, "turn=Step,reward=Reward", log)
	want := []float64{0.1, 0.3, 0, 0.7, 0.7, 0.75, 0.751, 0.7, 0.8, 0.7}
	if len(eps) != 1 || !reflect.DeepEqual(scores(eps[0]), want) {
		t.Fatalf("scores %v, want %v exactly", scores(eps[0]), want)
	}
	if got := eps[0].FinalScore(); got.String() != "0.7" {
		t.Errorf("final score written %q, want 0.7", got)
	}
	// A step skipped for its reward leaves the reward out of the score.
	eps, _ = readTable(t, "turn=Step,reward=Reward", "Step,Reward\n0,1\n1,x\n2,0.5\n")
	if !reflect.DeepEqual(scores(eps[0]), []float64{1, 1, 1.5}) || !slices.Contains(eps[0].Notes, "the score is the sum of the rewards read, without those of the 1 skipped lines") {
		t.Errorf("with a bad reward: scores %v, want 1 1 1.5; notes %q", scores(eps[0]), eps[0].Notes)
	}
}

// A cell longer than the bound is held to it only: the row is skipped when
// the cell is one the map reads, and read when it is not; a header that names
// a mapped column twice is refused.
func TestTableBounds(t *testing.T) {
	big := strings.Repeat("x", 5000)
	log := "Step,Score,Observation\n0,1,\"" + big + "\"\n1,2,short\n2,3," + big + "\n"
	opt := source.Options{MaxLine: 1000}
	tab := Table{Fields: mustFields(t, "turn=Step,score=Score,response=Observation")}
	eps, _ := source.ReadAll(tab, strings.NewReader(log), "big.csv", opt)
	// Steps 0 and 2 skipped: step 1, the first read, is turn 1.
	if len(eps) != 1 || eps[0].N() != 1 || eps[0].SkippedLines != 2 {
		t.Fatalf("%d episodes, %d turns, %d skipped", len(eps), eps[0].N(), eps[0].SkippedLines)
	}
	if p := eps[0].ProblemMessages(); len(p) != 2 || p[0] != `big.csv:2: "Observation" (the response) is longer than 1000 bytes: this row is skipped` {
		t.Errorf("problems %q", p)
	}
	tab = Table{Fields: mustFields(t, "turn=Step,score=Score")}
	eps, _ = source.ReadAll(tab, strings.NewReader(log), "big.csv", opt)
	if len(eps) != 1 || eps[0].N() != 3 || eps[0].ProblemCount != 0 {
		t.Errorf("the big cells not read: %d turns, problems %q", eps[0].N(), eps[0].ProblemMessages())
	}
	_, res := source.ReadAll(tab, strings.NewReader("Step,Score,Score\n0,1,2\n"), "twice.csv", opt)
	if len(res.Rejected) != 1 || res.Rejected[0].Reason != `its header names "Score" twice (columns 2 and 3): which is the score is not clear` {
		t.Errorf("rejected %+v", res.Rejected)
	}
}

// A file cut inside a quoted cell: its last row is named and skipped.
func TestTableTruncated(t *testing.T) {
	eps, _ := readTable(t, "turn=Step,score=Score", "Step,Score,Note\n0,1,ok\n1,2,\"cut")
	if len(eps) != 1 || eps[0].N() != 1 || eps[0].SkippedLines != 1 {
		t.Fatalf("%+v", eps)
	}
	if p := eps[0].ProblemMessages(); len(p) != 1 || !strings.Contains(p[0], "ep7.csv:3: truncated last row: the file ends inside a quoted cell") {
		t.Errorf("problems %q", p)
	}
}

// Memory stays bounded whatever a cell's size: a response of 64 MiB that the
// map does not read is passed over without being held.
func TestTableHugeCellNotHeld(t *testing.T) {
	if testing.Short() {
		t.Skip("reads 64 MiB")
	}
	const size = 64 << 20
	r := io.MultiReader(strings.NewReader("Step,Score,Observation\n0,1,\""), io.LimitReader(repeat('y'), size), strings.NewReader("\"\n1,2,z\n"))
	before := allocated()
	eps, _ := source.ReadAll(Table{Fields: mustFields(t, "turn=Step,score=Score")}, r, "huge.csv", source.Options{})
	if len(eps) != 1 || eps[0].N() != 2 {
		t.Fatalf("%+v", eps)
	}
	if got := allocated() - before; got > size/16 {
		t.Errorf("%d bytes allocated reading a 64 MiB cell not read", got)
	}
}

// allocated is how many bytes the heap has allocated so far.
func allocated() uint64 {
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return m.TotalAlloc
}

type repeat byte

func (b repeat) Read(p []byte) (int, error) {
	for i := range p {
		p[i] = byte(b)
	}
	return len(p), nil
}

func ExampleTable() {
	f, _ := ParseFields("turn=Step,reward=Reward")
	eps, _ := source.ReadAll(Table{Fields: f}, strings.NewReader("Step,Reward\n0,0.25\n1,0.1\n"), "run.csv", source.Options{})
	fmt.Println(eps[0].Turns[0].Score, eps[0].FinalScore())
	// Output: 0.25 0.35
}

// A table's runs follow the rules of every per-step log (source.Runs;
// docs/bad-input.md, "Runs in one file"), worked by hand: the rows of each
// value of the episode column are runs of their own however they
// interleave; a step repeated, or lower than the last without starting
// again, is named and skipped; steps that start again from 0 (the row after
// going on from there) begin a new run, handed over as the old one ends.
func TestTableRuns(t *testing.T) {
	log := "Step,Score,ep\n" +
		"0,1,a\n" + // 2
		"1,2,a\n" + // 3
		"1,9,a\n" + // 4: step 1 again
		"0,5,b\n" + // 5
		"2,3,a\n" + // 6
		"3,6,b\n" + // 7: steps 1 and 2 of b missing
		"0,0,a\n" + // 8: a starts again...
		"1,1,a\n" + // 9: ...as the next row of a says
		"2,7,b\n" // 10: step 2 after step 3
	eps, res := readTable(t, "episode=ep,turn=Step,score=Score", log)
	type run struct {
		id       string
		scores   []float64
		missing  int
		problems []string
	}
	var got []run
	for _, ep := range eps {
		got = append(got, run{ep.ID, scores(ep), ep.MissingTurns, ep.ProblemMessages()})
	}
	want := []run{
		{"a", []float64{1, 2, 3}, 0, []string{"runs/ep7.csv:4: step 1 again: a repeat, skipped"}},
		{"a", []float64{0, 1}, 0, nil},
		{"b", []float64{5, 5, 5, 6}, 2, []string{"runs/ep7.csv:10: step 2 after step 3: out of order, skipped"}},
	}
	if !reflect.DeepEqual(got, want) || res.Segments != 3 {
		t.Errorf("runs\n%+v\nwant\n%+v (%d segments)", got, want, res.Segments)
	}
}

// A table without an episode column is one episode named by its path below
// the directory given (source.Options.PathID); members added to a count are
// columns added (tokens=a+b); the member --by names is a column whose value
// on the first step is kept as a fact, and a table without it is read all
// the same.
func TestTablePathIDAndMembers(t *testing.T) {
	fields := mustFields(t, "turn=Step,score=Score,tokens=In+Out")
	read := func(log string) *episode.Episode {
		t.Helper()
		eps, res := source.ReadAll(Table{Fields: fields}, strings.NewReader(log), "/data/sub/m1/run_00.csv",
			source.Options{PathID: "m1/run_00", Member: "model"})
		if len(eps) != 1 {
			t.Fatalf("%d episodes, %+v", len(eps), res)
		}
		return eps[0]
	}
	ep := read("Step,Score,In,Out,model\n0,0,10,2,gpt-x\n1,1,20,3,other\n")
	if ep.ID != "m1/run_00" || !ep.IDFromPath || ep.Turns[0].Tokens != 12 || ep.Turns[1].Tokens != 23 || ep.Fact("model") != "gpt-x" {
		t.Errorf("id %q (from path %v), tokens %d %d, model %q", ep.ID, ep.IDFromPath, ep.Turns[0].Tokens, ep.Turns[1].Tokens, ep.Fact("model"))
	}
	ep = read("Step,Score,In,Out\n0,0,10,2\n1,1,,3\n")
	if ep.N() != 2 || ep.Fact("model") != "" || ep.Turns[1].Tokens != 0 {
		t.Errorf("without the member's column: %d turns, model %q, tokens %d", ep.N(), ep.Fact("model"), ep.Turns[1].Tokens)
	}
}

// The cells a row holds are bounded together, not each (issue 38, item 1):
// four mapped cells of 600 bytes under a bound of 1,600 skip the row, named,
// where each alone is within it; a header is bounded by the same count, a
// cell costing cellCost at least; the other rows are read.
func TestTableRowBoundedTogether(t *testing.T) {
	big := strings.Repeat("x", 600)
	log := "Step,Score,Action,Room,Observation,Note\n0,0,a,b,c,5\n1,1," + big + "," + big + "," + big + "," + big + "\n2,2,a,b,c,5\n"
	tab := Table{Fields: mustFields(t, "turn=Step,score=Score,action=Action,room=Room,response=Observation,tokens=Note")}
	eps, _ := source.ReadAll(tab, strings.NewReader(log), "wide.csv", source.Options{MaxLine: 1600})
	if len(eps) != 1 || eps[0].N() != 3 || eps[0].SkippedLines != 1 || eps[0].FinalScore() != 2 {
		t.Fatalf("%d episodes, %+v", len(eps), eps)
	}
	want := `wide.csv:3: the cells read of this row are longer than 1600 bytes together ("Observation" (the response) among them): this row is skipped`
	if p := eps[0].ProblemMessages(); len(p) != 1 || p[0] != want {
		t.Errorf("problems %q, want %q", p, want)
	}
	c := newCells(bufio.NewReader(strings.NewReader(strings.Repeat(",", 1000)+"\n")), ',', 100*cellCost)
	var rec record
	if err := c.next(nil, &rec); err != nil || rec.width != 1001 || rec.tooLong != 100 || len(rec.cells) != 100 {
		t.Errorf("a record of 1,001 empty cells under a bound of 100: %v, width %d, cut at %d, %d held", err, rec.width, rec.tooLong, len(rec.cells))
	}
}

// A key with a dot escaped, info\.score, names the column info.score as the
// nested key info.score does (issue 38, item 7): the table is claimed.
func TestTableEscapedDot(t *testing.T) {
	for _, m := range []string{`turn=Step,score=info\.score`, "turn=Step,score=info.score"} {
		eps, res := source.ReadAll(Table{Fields: mustFields(t, m)}, strings.NewReader("Step,info.score\n0,1\n1,3\n"), "dots.csv", source.Options{})
		if len(eps) != 1 || eps[0].N() != 2 || eps[0].FinalScore() != 3 {
			t.Errorf("%s: %d episodes, rejected %+v", m, len(eps), res.Rejected)
		}
	}
}
