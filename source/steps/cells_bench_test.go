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

// BenchmarkCellsEncodingCSV reads it with encoding/csv over a bounded
// reader, which refuses a record past a byte cap (the other design of
// issue 34: the hand reader is kept for being the faster).
func BenchmarkCellsEncodingCSV(b *testing.B) {
	data := benchTable()
	b.SetBytes(int64(len(data)))
	for b.Loop() {
		br := &bounded{r: bytes.NewReader(data), max: 1 << 20}
		r := csv.NewReader(br)
		r.FieldsPerRecord, r.ReuseRecord, r.LazyQuotes = -1, true, true
		n := -1
		for {
			rec, err := r.Read()
			if err == io.EOF {
				break
			}
			if err != nil {
				b.Fatal(err)
			}
			br.start = r.InputOffset()
			_ = rec[3]
			n++
		}
		if n != 5000 {
			b.Fatal(n)
		}
	}
}

// bounded refuses to read more than max bytes past start, the end of the
// last record read (encoding/csv's InputOffset), plus a buffer's worth.
type bounded struct {
	r           io.Reader
	read, start int64
	max         int64
}

func (b *bounded) Read(p []byte) (int, error) {
	if b.read-b.start > b.max+4096 {
		return 0, fmt.Errorf("a record past %d bytes", b.max)
	}
	n, err := b.r.Read(p)
	b.read += int64(n)
	return n, err
}
