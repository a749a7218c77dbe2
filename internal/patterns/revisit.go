package patterns

import (
	"math"

	"github.com/lbanalyze/lbanalyze/episode"
)

// Revisit is Phase 1B, the location revisit penalty, replayed and compared
// with the log's own location_penalty_applied events.
//
// ZorkGPT appends the room at the start of each turn to a 20-entry history and
// lowers the critic's confidence by 0.2 for every appearance of the current
// room among the previous min(5, len−1) entries. The confidence does not
// decide rejection (the critic's score does), so what the log shows is how
// often the penalty applied — the share of turns penalised — not an effect on
// the actions taken.
type Revisit struct {
	// Replayed: the log has Jericho room ids (E3c), so the rule can be replayed.
	Replayed bool `json:"replayed"`
	// Recorded: the recording ran the rule (loop break v1/v2), so its events
	// are expected in the log.
	Recorded  bool    `json:"recorded"`
	Turns     int     `json:"turns"`     // turns replayed
	Penalised int     `json:"penalised"` // turns the replay penalises
	Share     float64 `json:"share"`     // Penalised / Turns
	// ByVisits[k−1] counts penalised turns with k recent visits (k = 1..window).
	ByVisits []int `json:"by_visits"`
	// The comparison with the log: events, events the replay reproduces
	// exactly (turn, location_id, recent_visits), and the rest.
	LoggedEvents      int                   `json:"logged_events"`
	Agree             int                   `json:"agree"`
	DisagreementCount int                   `json:"disagreement_count"`
	Disagreements     []RevisitDisagreement `json:"disagreements"`
	// ConfidenceMismatches counts logged events whose adjusted_confidence is not
	// clamp(base_confidence + penalty × recent_visits) to within 1e-9.
	ConfidenceMismatches int `json:"confidence_mismatches"`
}

// RevisitDisagreement is a turn where the replay and the log differ. A side
// that has no penalty on that turn has recent_visits 0.
type RevisitDisagreement struct {
	Turn           int `json:"turn"`
	LoggedRoom     int `json:"logged_location_id"`
	LoggedVisits   int `json:"logged_recent_visits"`
	ReplayedRoom   int `json:"replayed_location_id"`
	ReplayedVisits int `json:"replayed_recent_visits"`
}

func revisit(ep *episode.Episode, r *rooms, opt Options) (Revisit, []bool) {
	n := ep.N()
	rv := Revisit{Replayed: r.byID, Recorded: ep.Signals.Has(episode.Penalties), ByVisits: make([]int, max(opt.RevisitWindow, 0)),
		LoggedEvents: len(ep.Recorded.Penalties), Disagreements: []RevisitDisagreement{}}
	var visits []int // replayed only
	pen := make([]bool, n+1)
	if rv.Replayed {
		visits = make([]int, n+1)
		rv.Turns = n
		for t := 1; t <= n; t++ {
			visits[t] = revisitsAt(r.at, t, opt.RevisitWindow)
			if v := visits[t]; v > 0 {
				pen[t] = true
				rv.Penalised++
				if v <= len(rv.ByVisits) {
					rv.ByVisits[v-1]++
				}
			}
		}
		if n > 0 {
			rv.Share = float64(rv.Penalised) / float64(n)
		}
	}
	logged := map[int]episode.Penalty{}
	for _, p := range ep.Recorded.Penalties {
		logged[p.Turn] = p
		want := clamp01(p.BaseConfidence + opt.RevisitPenalty*float64(p.RecentVisits))
		if !(math.Abs(want-p.AdjustedConfidence) <= 1e-9) {
			rv.ConfidenceMismatches++
		}
	}
	if !rv.Replayed || !rv.Recorded && len(logged) == 0 {
		return rv, pen
	}
	// Every turn the log or the replay penalises, in turn order.
	for t := 1; t <= max(n, lastTurn(ep.Recorded.Penalties)); t++ {
		p, inLog := logged[t]
		v := 0
		if t <= n {
			v = visits[t]
		}
		if !inLog && v == 0 {
			continue
		}
		if inLog && t <= n && p.LocationID == r.at[t] && p.RecentVisits == v {
			rv.Agree++
			continue
		}
		rv.DisagreementCount++
		if len(rv.Disagreements) < opt.MaxDisagreements {
			d := RevisitDisagreement{Turn: t, LoggedRoom: p.LocationID, LoggedVisits: p.RecentVisits, ReplayedVisits: v}
			if t <= n {
				d.ReplayedRoom = r.at[t]
			}
			rv.Disagreements = append(rv.Disagreements, d)
		}
	}
	return rv, pen
}

func lastTurn(ps []episode.Penalty) int {
	m := 0
	for _, p := range ps {
		m = max(m, p.Turn)
	}
	return m
}
