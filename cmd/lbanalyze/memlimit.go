package main

import (
	"math"
	"os"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"sync"
)

// memoryFloor is the memory the Go runtime holds at most while the live heap
// is under memoryLive of it: with the program's own pages (about 11 MiB),
// a log at the turn cap peaks within 64 MiB of RSS where the collector's
// default, twice the live heap, took 90 (docs/PERFORMANCE.md, "Memory").
// Past memoryLive the collector keeps its default: a live heap close to the
// floor would have it collect after every few MiB.
const (
	memoryFloor = 50 << 20
	memoryLive  = memoryFloor / 8 * 7
)

var boundOnce sync.Once

// boundMemory sets the runtime's soft memory limit to memoryFloor while the
// live heap is under memoryLive, and lifts it while above, after each
// collection. A limit given in GOMEMLIMIT is kept.
func boundMemory() {
	if _, given := os.LookupEnv("GOMEMLIMIT"); given {
		return
	}
	boundOnce.Do(func() {
		debug.SetMemoryLimit(memoryFloor)
		armLimit()
	})
}

// armLimit sets the limit for the live heap after the next collection, by
// an object the collector finds unreachable then, whose cleanup sets it and
// arms again. The object is 16 bytes: a smaller one shares its memory with
// others and may outlive the collection.
func armLimit() {
	runtime.AddCleanup(new([16]byte), func(struct{}) {
		live := []metrics.Sample{{Name: "/gc/heap/live:bytes"}}
		metrics.Read(live)
		if live[0].Value.Uint64() < memoryLive {
			debug.SetMemoryLimit(memoryFloor)
		} else {
			debug.SetMemoryLimit(math.MaxInt64)
		}
		armLimit()
	}, struct{}{})
}
