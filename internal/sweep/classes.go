package sweep

import (
	"cmp"
	"slices"

	"github.com/lbanalyze/lbanalyze/policy"
)

// Configs with the same outcome on every episode cannot be told apart by any
// sample of these episodes: they are one class, shown as one row and chosen
// as one, through the member nearest to now (docs/commands.md, "sweep: which
// setting to ship").

// classify sets every config's Class, Result.Classes and Result.NowClass:
// configs of the same signature (Tally.sig) are one class, listed from the
// member nearest to now (Changed, then grid order); those with now's are
// now's class.
func (r *Result) classify() {
	bySig := map[[2]uint64][]int{}
	for i := range r.Configs {
		s := r.Configs[i].sig
		bySig[s] = append(bySig[s], i)
	}
	r.Classes = map[int][]int{}
	r.Current.Class = -1
	for s, members := range bySig {
		slices.SortStableFunc(members, func(a, b int) int {
			return cmp.Compare(Changed(r.Configs[a].Policy, r.Current.Policy), Changed(r.Configs[b].Policy, r.Current.Policy))
		})
		class := members[0]
		if s == r.Current.sig {
			class = -1
			r.NowClass = members
		} else {
			r.Classes[class] = members
		}
		for _, i := range members {
			r.Configs[i].Class = class
		}
	}
}

// representatives are, for every class but now's, in grid order, the member
// that stands for it: the first listed, or with runnable the first the
// system runs as it is (a class with none has none).
func (r *Result) representatives(runnable bool) []int {
	var out []int
	for _, members := range r.Classes {
		for _, i := range members {
			if !runnable || r.Runnable[i] {
				out = append(out, i)
				break
			}
		}
	}
	slices.Sort(out)
	return out
}

// outcomes are a config for each distinct outcome of the grid's configs:
// every class's representative, and the first of now's class if the grid
// has one.
func (r *Result) outcomes() []int {
	out := r.representatives(false)
	if len(r.NowClass) > 0 {
		out = append(out, r.NowClass[0])
	}
	return out
}

// ClassOf lists the configs with the same outcomes as config i everywhere,
// i's representative first; now's class for -1 (possibly none).
func (r *Result) ClassOf(i int) []int {
	if i < 0 || r.Configs[i].Class < 0 {
		return r.NowClass
	}
	return r.Classes[r.Configs[i].Class]
}

// Changed is how many settings of p differ from now's: its policy, and each
// setting either has at another value (docs/commands.md, "sweep: which
// setting to ship": ties go to the config nearest to now).
func Changed(p, now policy.Policy) int {
	n := b2i(p.Name != now.Name)
	for _, s := range policy.Settings() {
		hp, hn := p.Has(s), now.Has(s)
		if hp != hn || hp && p.Get(s) != now.Get(s) {
			n++
		}
	}
	return n
}

// classRuns says whether the system runs some config of config i's class as
// it is.
func (r *Result) classRuns(i int) bool {
	return slices.ContainsFunc(r.ClassOf(i), func(k int) bool { return r.Runnable[k] })
}
