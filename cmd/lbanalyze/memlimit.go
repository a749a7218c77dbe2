package main

import (
	"math"
	"os"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"sync"

	"github.com/lbanalyze/lbanalyze/source"
)

// memoryFloor is the memory the Go runtime holds at most once a log of more
// than 65,536 turns is read (source.Long), while the live heap is under
// memoryLive of it: with the program's own pages (about 11 MiB), a log at
// the turn cap peaks within 64 MiB of RSS where the collector's default,
// twice the live heap, takes 70 (docs/PERFORMANCE.md, "Memory"). Past
// memoryLive, and before such a log, the collector keeps its default: a live
// heap close to the floor would have it collect after every few MiB, which
// would make 50,000 two-step episodes take 4–14 % more CPU.
const (
	memoryFloor = 50 << 20
	memoryLive  = memoryFloor / 8 * 7
)

var boundOnce sync.Once

// boundMemory has the runtime's soft memory limit set after each
// collection: memoryFloor once a long log is read and while the live heap is
// under memoryLive, none otherwise. A limit given in GOMEMLIMIT is kept.
func boundMemory() {
	if _, given := os.LookupEnv("GOMEMLIMIT"); given {
		return
	}
	boundOnce.Do(armLimit)
}

// armLimit sets the limit for the live heap after the next collection, by
// an object the collector finds unreachable then, whose cleanup sets it and
// arms again. The object is 16 bytes: a smaller one shares its memory with
// others and may outlive the collection.
func armLimit() {
	runtime.AddCleanup(new([16]byte), func(struct{}) {
		live := []metrics.Sample{{Name: "/gc/heap/live:bytes"}}
		metrics.Read(live)
		if source.Long() && live[0].Value.Uint64() < memoryLive {
			debug.SetMemoryLimit(memoryFloor)
		} else {
			debug.SetMemoryLimit(math.MaxInt64)
		}
		armLimit()
	}, struct{}{})
}
