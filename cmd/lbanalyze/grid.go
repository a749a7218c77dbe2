package main

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// maxGrid bounds the values one grid flag may expand to, so that a typo such
// as 1:1000000000 fails at once instead of filling memory.
const maxGrid = 100_000

// intList is a flag of whole numbers: comma-separated values and ranges
// FROM:TO[:STEP] (TO included), e.g. "20:120:5" or "1,5,10". Repeating the
// flag adds to the list.
type intList struct {
	vals  []int
	set   bool
	names []string // an enumeration's values by name, from 0 (score_mode)
}

func newIntList(def int) *intList { return &intList{vals: []int{def}} }

func (l *intList) Type() string { return "list" }

func (l *intList) String() string {
	s := make([]string, len(l.vals))
	for i, v := range l.vals {
		s[i] = strconv.Itoa(v)
	}
	return strings.Join(s, ",")
}

func (l *intList) Set(s string) error {
	if !l.set {
		l.vals, l.set = nil, true
	}
	for item := range strings.SplitSeq(s, ",") {
		item = strings.TrimSpace(item)
		if i := slices.Index(l.names, item); i >= 0 {
			l.vals = append(l.vals, i)
			continue
		}
		vals, err := parseRange(item)
		if err != nil {
			return err
		}
		if len(l.vals)+len(vals) > maxGrid {
			return fmt.Errorf("more than %d values", maxGrid)
		}
		l.vals = append(l.vals, vals...)
	}
	return nil
}

// parseRange reads one item: N, or FROM:TO[:STEP].
func parseRange(item string) ([]int, error) {
	parts := strings.Split(item, ":")
	if len(parts) > 3 {
		return nil, fmt.Errorf("%q: want N or FROM:TO[:STEP]", item)
	}
	n := make([]int, len(parts))
	for i, p := range parts {
		v, err := strconv.Atoi(strings.TrimSpace(p))
		if err != nil {
			return nil, fmt.Errorf("%q: %q is not a whole number", item, p)
		}
		n[i] = v
	}
	if len(n) == 1 {
		return n, nil
	}
	from, to, step := n[0], n[1], 1
	if len(n) == 3 {
		step = n[2]
	}
	switch {
	case step < 1:
		return nil, fmt.Errorf("%q: the step must be at least 1", item)
	case to < from:
		return nil, fmt.Errorf("%q: the range ends before it starts", item)
	}
	// Counted in unsigned arithmetic, and stepped by index: near the limits
	// of an int, to-from and from+step overflow.
	steps := (uint64(to) - uint64(from)) / uint64(step)
	if steps >= maxGrid {
		return nil, fmt.Errorf("%q: more than %d values", item, maxGrid)
	}
	vals := make([]int, steps+1)
	for i := range vals {
		vals[i] = from + i*step
	}
	return vals, nil
}
