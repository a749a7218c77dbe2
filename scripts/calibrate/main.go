// Command calibrate runs the calibration study of the sweep's answer
// (docs/calibration.md) and writes its tables in markdown to standard output;
// what it is doing, and how long it took, to standard error.
//
//	go run ./scripts/calibrate                        # the study of `make calibrate`
//	go run ./scripts/calibrate -population 1500 -samples 100 -sizes 30,75
//	go run ./scripts/calibrate -normal-from 2 -sizes 75,200   # normal intervals at every n
package main

import (
	"flag"
	"fmt"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/lbanalyze/lbanalyze/internal/calibrate"
	"github.com/lbanalyze/lbanalyze/internal/metrics"
	"github.com/lbanalyze/lbanalyze/policy"
)

func main() {
	opt := calibrate.Defaults()
	sizes := flag.String("sizes", join(opt.Sizes), "the sample sizes, comma-separated")
	flag.Uint64Var(&opt.Seed, "seed", opt.Seed, "the population's seed (synth's --seed)")
	flag.IntVar(&opt.Population, "population", opt.Population, "N, the episodes of the population")
	flag.IntVar(&opt.Samples, "samples", opt.Samples, "R, the samples of each size")
	flag.Uint64Var(&opt.SampleSeed, "sample-seed", opt.SampleSeed, "the seed of the draws")
	flag.Float64Var(&opt.Margin, "margin", opt.Margin, "how much worse than now, in false-termination rate (a share), makes a ship harmful")
	now := flag.String("now", opt.Now.String(), "the current setting the samples are swept against, as --config gives it (NAME:W/I)")
	flag.IntVar(&opt.Workers, "workers", 0, "samples swept at once (0: one a core); the tables do not depend on it")
	flag.IntVar(&metrics.NormalFrom, "normal-from", metrics.NormalFrom, "the fewest episodes from which sums and means take the normal interval, not the bootstrap's (metrics.NormalFrom)")
	flag.Parse()
	var err error
	if opt.Sizes, err = parseSizes(*sizes); err != nil {
		fail(err)
	}
	if opt.Now, err = policy.Parse(strings.Replace(*now, " ", ":", 1), nil); err != nil {
		fail(fmt.Errorf("-now: %v", err))
	}
	if err := check(opt); err != nil {
		fail(err)
	}
	start := time.Now()
	st, err := calibrate.Run(opt, func(phase string) {
		fmt.Fprintf(os.Stderr, "%6.1f s  %s\n", time.Since(start).Seconds(), phase)
	})
	if err != nil {
		fail(err)
	}
	st.Write(os.Stdout)
	fmt.Fprintf(os.Stderr, "%6.1f s  done\n", time.Since(start).Seconds())
}

// check refuses a study that cannot be run or would judge nothing: no
// sample, a margin that is no share (NaN makes "harmful ships 0%" hold
// whatever the answers), a sample larger than the population.
func check(opt calibrate.Options) error {
	switch {
	case opt.Population < 1:
		return fmt.Errorf("-population must be at least 1, not %d", opt.Population)
	case opt.Samples < 1:
		return fmt.Errorf("-samples must be at least 1, not %d", opt.Samples)
	case !(opt.Margin > 0 && opt.Margin < 1):
		return fmt.Errorf("-margin is a share of episodes, above 0 and below 1 (0.02 for 2 pp), not %g", opt.Margin)
	case opt.Workers < 0:
		return fmt.Errorf("-workers must be 0 (one a core) or more, not %d", opt.Workers)
	}
	for _, n := range opt.Sizes {
		if n > opt.Population {
			return fmt.Errorf("-sizes: %d is more than the population's %d episodes", n, opt.Population)
		}
	}
	return nil
}

func parseSizes(s string) ([]int, error) {
	var out []int
	for f := range strings.SplitSeq(s, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(f))
		if err != nil || n < 1 {
			return nil, fmt.Errorf("-sizes: %q is not a sample size", f)
		}
		out = append(out, n)
	}
	return out, nil
}

func join(ns []int) string {
	s := make([]string, len(ns))
	for i, n := range ns {
		s[i] = strconv.Itoa(n)
	}
	return strings.Join(s, ",")
}

func fail(err error) {
	fmt.Fprintln(os.Stderr, "calibrate:", err)
	os.Exit(1)
}
