package main

import (
	"math"
	"testing"

	"github.com/lbanalyze/lbanalyze/internal/calibrate"
)

// A study that cannot be run, or would judge nothing, is refused before any
// work: a negative -samples, a -margin of NaN (under which "harmful ships
// 0%" would hold whatever the answers).
func TestCheck(t *testing.T) {
	for _, c := range []struct {
		set  func(*calibrate.Options)
		want string
	}{
		{func(*calibrate.Options) {}, ""},
		{func(o *calibrate.Options) { o.Samples = -1 }, "-samples must be at least 1, not -1"},
		{func(o *calibrate.Options) { o.Samples = 0 }, "-samples must be at least 1, not 0"},
		{func(o *calibrate.Options) { o.Margin = math.NaN() }, "-margin is a share of episodes, above 0 and below 1 (0.02 for 2 pp), not NaN"},
		{func(o *calibrate.Options) { o.Margin = 2 }, "-margin is a share of episodes, above 0 and below 1 (0.02 for 2 pp), not 2"},
		{func(o *calibrate.Options) { o.Population = 0 }, "-population must be at least 1, not 0"},
		{func(o *calibrate.Options) { o.Population = 100 }, "-sizes: 200 is more than the population's 100 episodes"},
		{func(o *calibrate.Options) { o.Workers = -2 }, "-workers must be 0 (one a core) or more, not -2"},
	} {
		opt := calibrate.Defaults()
		c.set(&opt)
		err := check(opt)
		if got := ""; err != nil && err.Error() != c.want || err == nil && c.want != got {
			t.Errorf("%+v: %v, want %q", opt, err, c.want)
		}
	}
}
