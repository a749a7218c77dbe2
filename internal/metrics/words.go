package metrics

import (
	"math"
	"strconv"
	"strings"

	"github.com/lbanalyze/lbanalyze/episode"
)

// Number formatting: ASCII signs, so that tables paste and parse anywhere.

// Format is v in unit u: "12", "40.5", "9.3%", "$1.25".
func (u Unit) Format(v float64) string {
	switch u {
	case Mean:
		return strconv.FormatFloat(v, 'f', 1, 64)
	case Percent:
		return strconv.FormatFloat(v, 'f', 1, 64) + "%"
	case Dollars:
		if v < 0 {
			return "-" + u.Format(-v)
		}
		return "$" + strconv.FormatFloat(v, 'f', 2, 64)
	case Points:
		return episode.Score(v).String()
	}
	return strconv.FormatFloat(math.Round(v), 'f', 0, 64)
}

// Signed is a change of v in unit u, with its sign: "+12", "-0.5", "+4.0 pp".
func (u Unit) Signed(v float64) string {
	s := ""
	switch u {
	case Dollars, Points:
		s = u.Format(v)
	case Mean:
		s = strconv.FormatFloat(v, 'f', 1, 64)
	case Percent:
		s = strconv.FormatFloat(v, 'f', 1, 64) + " pp"
	default:
		s = strconv.FormatFloat(math.Round(v), 'f', 0, 64)
	}
	if v > 0 || v == 0 && !strings.HasPrefix(s, "-") {
		s = "+" + s
	}
	return strings.Replace(s, "+-", "-", 1)
}

// Interval is a bound of an interval of a change, signed with a second
// decimal for means and shares, so that a bound just short of 0 does not read
// as "-0.0".
func (u Unit) Interval(v float64) string {
	if u == Count || u == Dollars || u == Points {
		return u.Signed(v)
	}
	s := strconv.FormatFloat(v, 'f', 2, 64)
	if u == Percent {
		s += " pp"
	}
	if v >= 0 {
		s = "+" + s
	}
	return s
}

// SignedPct is a relative change in %, rounded: "+12%", "-40%".
func SignedPct(p float64) string {
	s := strconv.FormatFloat(p, 'f', 0, 64) + "%"
	if p >= 0 {
		s = "+" + s
	}
	return s
}

// Words is the change in words, with its 95% interval when there is one,
// for sentences: "turns saved +75 (95% CI +40 … +110)".
func (m *Metric) Words() string {
	if !m.BaselineOK || !m.AfterOK {
		return m.Label + " undefined"
	}
	s := m.Label + " " + m.Unit.Signed(m.Change)
	if m.CI != nil {
		s += " (95% CI " + m.Unit.Interval(m.CI[0]) + " … " + m.Unit.Interval(m.CI[1]) + ")"
	}
	return s
}

// JSON is a metric as the JSON formats give it; null for undefined values
// and missing intervals.
type JSON struct {
	Name      string      `json:"name"`
	Baseline  *float64    `json:"baseline"`
	After     *float64    `json:"after"`
	Change    *float64    `json:"change"`
	ChangePct *float64    `json:"change_pct"`
	CI95      *[2]float64 `json:"ci95"`
	CI95Pct   *[2]float64 `json:"ci95_pct"`
	Expected  *string     `json:"expected"`
	Verdict   string      `json:"verdict"`
	// Method makes CI95 and the sides' intervals: paired_bootstrap, or
	// tango_score (Wilson's for the sides; Discordant then counts the
	// episodes that differ).
	Method     string          `json:"method"`
	BaselineCI *[2]float64     `json:"baseline_ci95"`
	AfterCI    *[2]float64     `json:"after_ci95"`
	Discordant *DiscordantJSON `json:"discordant,omitempty"`
}

// DiscordantJSON counts the episodes with a metric's property under one
// policy only.
type DiscordantJSON struct {
	AfterOnly    int `json:"after_only"`
	BaselineOnly int `json:"baseline_only"`
}

// JSON is the metric as the JSON formats give it, rounded to 6 decimals.
func (m *Metric) JSON() JSON {
	mj := JSON{Name: m.Name, Verdict: m.Verdict, CI95: roundPair(m.CI), CI95Pct: roundPair(m.CIPct), Method: m.Method.String(),
		BaselineCI: roundPair(m.BaselineCI), AfterCI: roundPair(m.AfterCI)}
	if m.Method == PairedProportions {
		mj.Discordant = &DiscordantJSON{AfterOnly: m.Discordant[0], BaselineOnly: m.Discordant[1]}
	}
	if m.BaselineOK {
		mj.Baseline = Round6(m.Baseline)
	}
	if m.AfterOK {
		mj.After = Round6(m.After)
	}
	if m.BaselineOK && m.AfterOK {
		mj.Change = Round6(m.Change)
	}
	if m.ChangePct != nil {
		mj.ChangePct = Round6(*m.ChangePct)
	}
	if m.Expected.Text != "" {
		mj.Expected = &m.Expected.Text
	}
	return mj
}

// Round6 is v rounded to 6 decimals, as every JSON number of a float.
func Round6(v float64) *float64 { v = math.Round(v*1e6) / 1e6; return &v }

func roundPair(p *[2]float64) *[2]float64 {
	if p == nil {
		return nil
	}
	return &[2]float64{math.Round(p[0]*1e6) / 1e6, math.Round(p[1]*1e6) / 1e6}
}

// SumsMethod says how the intervals of the sums and means of ms were made,
// for a table's title: "a paired bootstrap over episodes for sums and means,
// 10000 resamples, seed 1", or the normal interval's words from NormalFrom
// episodes, naming the metrics too skewed for it, which kept the bootstrap.
func SumsMethod(ms []Metric) string {
	boot := "a paired bootstrap over episodes for sums and means, " + strconv.Itoa(Resamples) + " resamples, seed " + strconv.Itoa(BootstrapSeed)
	var normal bool
	var skewed []string
	for i := range ms {
		switch ms[i].Method {
		case PairedNormal:
			normal = true
		case PairedBootstrap:
			skewed = append(skewed, ms[i].Label)
		}
	}
	if !normal {
		return boot
	}
	s := "the normal interval of a paired difference for sums and means, from " + strconv.Itoa(NormalFrom) + " episodes"
	if len(skewed) > 0 {
		s += "; for " + strings.Join(skewed, ", ") + ", too skewed for it, " + boot
	}
	return s
}
