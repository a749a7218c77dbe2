package policy

import (
	"iter"
	"slices"
)

// Grid is a list of policies made as they are read: a policy under every
// combination of its settings' values is held as those values, so that a
// grid of a million configs costs the values of its flags, not a million
// policies (docs/PERFORMANCE.md, "Memory").
type Grid struct {
	parts []gridPart
	n     int // the policies, but those left out
}

// gridPart is a list of policies (settings nil), or base under every
// combination of the values of its settings, the last varying fastest; but
// for the positions left out.
type gridPart struct {
	list     []Policy
	base     Policy
	settings []*Setting
	slots    []int // where a Policy holds each of settings
	vals     [][]int
	size     int   // positions, those left out included
	left     []int // positions left out, in order
}

// List is a grid of the policies given, in order.
func List(ps ...Policy) *Grid {
	g := &Grid{}
	for _, p := range ps {
		g.Add(p)
	}
	return g
}

// Add appends p.
func (g *Grid) Add(p Policy) {
	if k := len(g.parts) - 1; k < 0 || g.parts[k].list == nil {
		g.parts = append(g.parts, gridPart{list: []Policy{}})
	}
	pt := &g.parts[len(g.parts)-1]
	pt.list = append(pt.list, p)
	pt.size++
	g.n++
}

// Product appends policy name under every combination of vals (vals[i] the
// values of Settings()[i], those of the settings name has), the later
// settings varying fastest: what expanding a grid's flags gives, in its
// order. The values of a setting are distinct.
func (g *Grid) Product(name Name, vals [][]int) {
	pt := gridPart{base: Policy{Name: name}, size: 1}
	if k := pt.base.Kind(); k != nil {
		for i, s := range Settings() {
			if slot := k.slot(s); slot >= 0 {
				pt.settings = append(pt.settings, s)
				pt.slots = append(pt.slots, slot)
				pt.vals = append(pt.vals, vals[i])
				pt.size *= len(vals[i])
			}
		}
	}
	if pt.size > 0 {
		g.parts = append(g.parts, pt)
		g.n += pt.size
	}
}

// Append appends the policies of h.
func (g *Grid) Append(h *Grid) {
	g.parts = append(g.parts, h.parts...)
	g.n += h.n
}

// Len is how many policies g holds.
func (g *Grid) Len() int { return g.n }

// All yields the policies of g, in order.
func (g *Grid) All() iter.Seq[Policy] {
	return func(yield func(Policy) bool) {
		for i := range g.parts {
			if !g.parts[i].each(yield) {
				return
			}
		}
	}
}

// Policies are the policies of g, made all at once.
func (g *Grid) Policies() []Policy { return slices.Collect(g.All()) }

// each yields the part's policies, in order; false when yield stopped.
func (pt *gridPart) each(yield func(Policy) bool) bool {
	left := pt.left
	if pt.list != nil {
		for i, p := range pt.list {
			if len(left) > 0 && left[0] == i {
				left = left[1:]
			} else if !yield(p) {
				return false
			}
		}
		return true
	}
	p := pt.base
	at := make([]int, len(pt.settings)) // an odometer over the values
	for k := range pt.settings {
		pt.set(&p, k, 0)
	}
	for pos := range pt.size {
		if len(left) > 0 && left[0] == pos {
			left = left[1:]
		} else if !yield(p) {
			return false
		}
		for k := len(at) - 1; k >= 0; k-- {
			at[k] = (at[k] + 1) % len(pt.vals[k])
			pt.set(&p, k, at[k])
			if at[k] > 0 {
				break
			}
		}
	}
	return true
}

// set gives p's k-th setting of the product its at-th value.
func (pt *gridPart) set(p *Policy, k, at int) {
	p.values[pt.slots[k]] = pt.vals[k][at] - pt.settings[k].Default
}

// position is where p lies in a product, -1 if it is not one of its
// policies (those left out included).
func (pt *gridPart) position(p Policy) int {
	if p.Name != pt.base.Name {
		return -1
	}
	q, pos := pt.base, 0
	for k, s := range pt.settings {
		at := slices.Index(pt.vals[k], s.Default+p.values[pt.slots[k]])
		if at < 0 {
			return -1
		}
		pt.set(&q, k, at)
		pos = pos*len(pt.vals[k]) + at
	}
	if q != p {
		return -1
	}
	return pos
}

// LeaveRepeats leaves out every occurrence of p but the first, and gives
// the positions of those it left out, counted in the whole grid as built.
func (g *Grid) LeaveRepeats(p Policy) []int {
	var out []int
	first, offset := true, 0
	for i := range g.parts {
		pt := &g.parts[i]
		for from := 0; ; {
			pos := pt.positionFrom(p, from)
			if pos < 0 {
				break
			}
			from = pos + 1
			if slices.Contains(pt.left, pos) {
				continue
			}
			if first {
				first = false
				continue
			}
			k, _ := slices.BinarySearch(pt.left, pos)
			pt.left = slices.Insert(pt.left, k, pos)
			g.n--
			out = append(out, offset+pos)
		}
		offset += pt.size
	}
	return out
}

// positionFrom is the first position of p in the part at or after from, -1
// if none: a list may hold p several times, a product once.
func (pt *gridPart) positionFrom(p Policy, from int) int {
	if pt.list != nil {
		if i := slices.Index(pt.list[min(from, len(pt.list)):], p); i >= 0 {
			return from + i
		}
		return -1
	}
	if pos := pt.position(p); pos >= from {
		return pos
	}
	return -1
}
