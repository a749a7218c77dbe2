package main

import (
	"slices"
	"testing"

	"github.com/lbanalyze/lbanalyze/policy"
)

func TestIntList(t *testing.T) {
	for _, c := range []struct {
		in   []string
		want []int
		err  bool
	}{
		{in: []string{"40"}, want: []int{40}},
		{in: []string{"1,5,10"}, want: []int{1, 5, 10}},
		{in: []string{"20:40:5"}, want: []int{20, 25, 30, 35, 40}},
		{in: []string{"20:42:5"}, want: []int{20, 25, 30, 35, 40}},
		{in: []string{"3:5"}, want: []int{3, 4, 5}},
		{in: []string{"30", "60"}, want: []int{30, 60}}, // repeated flag
		{in: []string{"10:150:5,200"}, want: append(seq(10, 150, 5), 200)},
		{in: []string{"5:1"}, err: true},
		{in: []string{"1:10:0"}, err: true},
		{in: []string{"1:2:3:4"}, err: true},
		{in: []string{"x"}, err: true},
		{in: []string{"1:1000000000"}, err: true},
	} {
		l := newIntList(policy.MaxTurnsStuck)
		var err error
		for _, s := range c.in {
			if err = l.Set(s); err != nil {
				break
			}
		}
		if (err != nil) != c.err || !c.err && !slices.Equal(l.vals, c.want) {
			t.Errorf("%q: got %v, %v; want %v (error %v)", c.in, l.vals, err, c.want, c.err)
		}
	}
	if l := newIntList(policy.MaxTurnsStuck); l.String() != "40" {
		t.Errorf("default shows as %q", l.String())
	}
}

// A list is shown as it would be given: runs of three or more evenly
// spaced values as ranges.
func TestIntListString(t *testing.T) {
	for _, c := range []struct {
		s    *policy.Setting
		vals []int
		want string
	}{
		{policy.MaxTurnsStuck, seq(10, 150, 5), "10:150:5"},
		{policy.CheckInterval, []int{1, 5, 10}, "1,5,10"},
		{policy.MaxTurnsStuck, append(seq(20, 40, 5), 200), "20:40:5,200"},
		{policy.MaxTurnsStuck, []int{3, 4, 5, 9, 1, 2}, "3:5,9,1,2"},
		{policy.MaxTurnsStuck, []int{7, 5, 3}, "7,5,3"},
		{policy.MinCritic, []int{30, 40, 50}, "0.3:0.5:0.1"},
	} {
		l := &intList{vals: c.vals, setting: c.s}
		if got := l.String(); got != c.want {
			t.Errorf("%v: %q, want %q", c.vals, got, c.want)
		} else if back := newIntList(c.s); back.Set(got) != nil || !slices.Equal(back.vals, c.vals) {
			t.Errorf("%q reads back as %v, want %v", got, back.vals, c.vals)
		}
	}
}

// A scaled setting is given as users think of it: min_critic 0.5, in
// hundredths.
func TestIntListScaled(t *testing.T) {
	for _, c := range []struct {
		in   string
		want []int
		err  bool
	}{
		{"0.5", []int{50}, false},
		{"0.3:0.5:0.1", []int{30, 40, 50}, false},
		{".45,1", []int{45, 100}, false},
		{"0,0.25", []int{0, 25}, false},
		{"0.455", nil, true},
		{"half", nil, true},
	} {
		l := newIntList(policy.MinCritic)
		err := l.Set(c.in)
		if (err != nil) != c.err || !c.err && !slices.Equal(l.vals, c.want) {
			t.Errorf("%q: got %v, %v; want %v (error %v)", c.in, l.vals, err, c.want, c.err)
		}
	}
	if l := newIntList(policy.MinCritic); l.String() != "0.5" {
		t.Errorf("min_critic's default shows as %q, want 0.5", l.String())
	}
}
