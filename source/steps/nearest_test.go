package steps

import (
	"slices"
	"testing"
)

// The nearest names, worked by hand: "score" is "Score" but for case (0),
// "scores" one insertion (1), "core" one deletion (1); "Act" begins
// "Action"; "xyz" is 4 or more from every name, past max(2, 3/2).
func TestNearest(t *testing.T) {
	have := []string{"Step", "Score", "scores", "core", "Action", "Observation"}
	for _, c := range []struct {
		want string
		near []string
	}{
		{"score", []string{"Score", "scores", "core"}},
		{"Act", []string{"Action"}},
		{"step", []string{"Step"}},
		{"xyz", nil},
	} {
		if got := nearestNames(c.want, have); !slices.Equal(got, c.near) {
			t.Errorf("%s: %q, want %q", c.want, got, c.near)
		}
	}
}
