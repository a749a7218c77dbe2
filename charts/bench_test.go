package charts

import (
	"io"
	"testing"
)

// Drawing a timeline: batch --plots draws one PNG an episode, --html one SVG.
func BenchmarkTimeline(b *testing.B) {
	e := premature.analyse(scorePolicy, v2Policy)
	for _, f := range []Format{PNG, SVG} {
		b.Run(string(f), func(b *testing.B) {
			for b.Loop() {
				if err := Timeline(&e).Write(io.Discard, f); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
