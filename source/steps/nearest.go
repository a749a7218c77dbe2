package steps

import (
	"cmp"
	"fmt"
	"slices"
	"strings"

	"github.com/lbanalyze/lbanalyze/internal/nearest"
)

// nearestNames are the names of have closest to want, for a message that names a
// member or column a log lacks: those equal but for case first, then by
// edit distance, at most three, each one that begins with the other (case
// aside) or within half of want's length (and at least 2) of it.
func nearestNames(want string, have []string) []string {
	type near struct {
		name string
		d    int
	}
	var ns []near
	for _, h := range have {
		w, l := strings.ToLower(want), strings.ToLower(h)
		d := nearest.Distance(w, l)
		if h != want && (d <= max(2, len(want)/2) || strings.HasPrefix(l, w) || strings.HasPrefix(w, l)) {
			ns = append(ns, near{h, d})
		}
	}
	slices.SortStableFunc(ns, func(a, b near) int { return cmp.Compare(a.d, b.d) })
	var out []string
	for _, n := range ns[:min(len(ns), 3)] {
		out = append(out, n.name)
	}
	return out
}

// lacking names the members (or columns) of a field map a log lacks, each
// with what it is and the nearest of the names the log has: "" when it
// lacks none. has says whether the log has slot k's path.
func lacking(m *matcher, what string, have []string, has func(k int, p Path) bool) string {
	var parts []string
	for k, p := range m.paths {
		if p == nil || has(k, p) {
			continue
		}
		s := fmt.Sprintf("no %s %q (the %s)", what, p.column(), slotName(k))
		if near := nearestNames(p.column(), have); len(near) > 0 {
			s += ", nearest " + quoteAll(near)
		}
		parts = append(parts, s)
	}
	if len(parts) == 0 {
		return ""
	}
	return strings.Join(parts, "; ")
}

// quoteAll quotes each name, joined by commas.
func quoteAll(names []string) string {
	q := make([]string, len(names))
	for i, n := range names {
		q[i] = fmt.Sprintf("%q", n)
	}
	return strings.Join(q, ", ")
}
