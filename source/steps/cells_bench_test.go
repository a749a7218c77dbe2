package steps

import (
	"bufio"
	"bytes"
	"encoding/csv"
	"fmt"
	"io"
	"strings"
	"testing"
)

// benchTable is a BALROG-like table of 5,000 steps: a long observation with
// commas, quotes and newlines, and a reasoning column no field map reads.
func benchTable() []byte {
	var b bytes.Buffer
	b.WriteString("Step,Action,Reasoning,Observation,Reward,Done\n")
	obs := `"You are in the attic, a dusty room. There is a ""lamp"" here.` + "\n" + strings.Repeat("A wall, another wall. ", 20) + `"`
	why := `"` + strings.Repeat("I think, therefore I go north. ", 12) + `"`
	for i := range 5000 {
		fmt.Fprintf(&b, "%d,go north,%s,%s,%d,False\n", i, why, obs, i%7)
	}
	return b.Bytes()
}

// BenchmarkCellsHand reads the table with the hand reader, four cells held.
func BenchmarkCellsHand(b *testing.B) {
	data := benchTable()
	slots := []int{0, 1, -1, 2, 3}
	b.SetBytes(int64(len(data)))
	for b.Loop() {
		c := newCells(bufio.NewReader(bytes.NewReader(data)), ',', 1<<20)
		var rec record
		c.next(nil, &rec)
		rec.cells = make([][]byte, 4)
		n := 0
		for c.next(slots, &rec) == nil {
			n++
		}
		if n != 5000 {
			b.Fatal(n)
		}
	}
}

// BenchmarkCellsEncodingCSV reads it with encoding/csv.
func BenchmarkCellsEncodingCSV(b *testing.B) {
	data := benchTable()
	b.SetBytes(int64(len(data)))
	for b.Loop() {
		r := csv.NewReader(bufio.NewReader(bytes.NewReader(data)))
		r.FieldsPerRecord, r.ReuseRecord, r.LazyQuotes = -1, true, true
		n := -1
		for {
			rec, err := r.Read()
			if err == io.EOF {
				break
			}
			_ = rec[3]
			n++
		}
		if n != 5000 {
			b.Fatal(n)
		}
	}
}
