package nearest

import "testing"

// Distances worked by hand: an insertion, a deletion, a substitution each
// cost 1; case counts.
func TestDistance(t *testing.T) {
	for _, c := range []struct {
		a, b string
		d    int
	}{
		{"", "", 0}, {"", "abc", 3}, {"policy", "polcy", 1}, {"score", "Score", 1}, {"kitten", "sitting", 3}, {"window", "windows", 1},
	} {
		if got := Distance(c.a, c.b); got != c.d || Distance(c.b, c.a) != c.d {
			t.Errorf("%q, %q: %d, want %d", c.a, c.b, got, c.d)
		}
	}
}
