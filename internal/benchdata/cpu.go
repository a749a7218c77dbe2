package benchdata

import (
	"syscall"
	"testing"
)

// CPU reports, when stop is called, the process's CPU time (user and system,
// all threads) per iteration since CPU was: on a machine shared with other
// work it varies much less than the wall time. Call it right before the loop
// and stop right after it.
func CPU(b *testing.B) (stop func()) {
	start := cpuNanos()
	return func() {
		if b.N > 0 {
			b.ReportMetric(float64(cpuNanos()-start)/float64(b.N), "cpu-ns/op")
		}
	}
}

func cpuNanos() int64 {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return ru.Utime.Nano() + ru.Stime.Nano()
}
