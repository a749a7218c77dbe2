package benchdata

import (
	"bufio"
	"fmt"
	"io"
	"strconv"
	"strings"
)

// TextFields is the field map of the logs at the turn cap DistinctTexts
// writes (docs/PERFORMANCE.md, "Memory"); Steps's are turn=Step,score=Score
// or score=Score.
const TextFields = "turn=Step,score=Score,action=Action,response=Observation"

// Steps writes a table of n steps, each scoring 1, numbered from 0 in its
// Step column, or without the column (a log read by --fields score=Score).
func Steps(w io.Writer, n int, numbered bool) error {
	bw := bufio.NewWriterSize(w, 1<<20)
	if !numbered {
		bw.WriteString("Score\n")
	} else {
		bw.WriteString("Step,Score\n")
	}
	for i := range n {
		if numbered {
			fmt.Fprintf(bw, "%d,", i)
		}
		bw.WriteString("1\n")
	}
	return bw.Flush()
}

// DistinctTexts writes a table of n steps numbered from 0 whose every action
// and response is a text of size bytes (at least 16) found on no other step:
// the most text a log at the cap can make an episode keep.
func DistinctTexts(w io.Writer, n, size int) error {
	bw := bufio.NewWriterSize(w, 1<<20)
	bw.WriteString("Step,Score,Action,Observation\n")
	fill := strings.Repeat("abcdefghijklmnopqrstuvwxyz ", size/27+1)[:size-15]
	var row []byte // made without garbage: a test reads the log as it is written
	for i := range n {
		row = strconv.AppendInt(row[:0], int64(i), 10)
		row = append(row, ',')
		row = strconv.AppendInt(row, int64(i/1000), 10)
		for _, kind := range []string{",action ", ",output "} {
			row = append(row, kind...)
			row = appendPadded(row, i, 7)
			row = append(row, ' ')
			row = append(row, fill...)
		}
		bw.Write(append(row, '\n'))
	}
	return bw.Flush()
}

// appendPadded appends i in at least width digits, zeros before it.
func appendPadded(b []byte, i, width int) []byte {
	for d, pow := 1, 10; d < width; d, pow = d+1, pow*10 {
		if i < pow {
			b = append(b, '0')
		}
	}
	return strconv.AppendInt(b, int64(i), 10)
}
