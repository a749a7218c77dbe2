package jsonl

import (
	"bytes"
	"testing"

	"github.com/lbanalyze/lbanalyze/internal/benchdata"
)

func BenchmarkCursorSkip(b *testing.B) {
	var buf bytes.Buffer
	benchdata.Tau2(&buf, 30<<20)
	data := buf.Bytes()
	b.SetBytes(int64(len(data)))
	stop := benchdata.CPU(b)
	for b.Loop() {
		c := Cursor{B: data}
		if err := c.Skip(); err != nil {
			b.Fatal(err)
		}
	}
	stop()
}
