package policy

import "github.com/lbanalyze/lbanalyze/episode"

// Time caps the seconds a run takes: mini-swe-agent's
// wall_time_limit_seconds, Terminal-Bench's agent timeout. It reads nothing
// but the clock, so it replays on a run known by its start and end alone.
const Time Name = "time"

// MaxSeconds is the seconds a run may take.
var MaxSeconds = capSetting("max-seconds", "max SECONDS (time): the run may take these seconds; 0 off", 0, episode.Times)

func init() {
	register(Kind{Name: Time, New: newCap(MaxSeconds, func(_ float64, o Observation) float64 { return o.Elapsed }),
		Variant: true, Clock: true, Settings: []*Setting{MaxSeconds},
		Description: "a time cap: the run stops after the step that ends max seconds or more after it began"})
}
