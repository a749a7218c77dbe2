package main

import "testing"

func TestGroupPath(t *testing.T) {
	for _, c := range []struct {
		path, name string
		i          int
		dir        bool
		want       string
	}{
		{"plots", "20241103_Claude-3.5-Sonnet", 0, true, "plots/1-20241103_claude-3.5-sonnet"},
		{"out/report.html", "your harness: gpt-4o c10", 11, false, "out/report-12-your-harness-gpt-4o-c10.html"},
		{"report", "(none)", 1, false, "report-2-none"},
		{"plots", "../../etc", 2, true, "plots/3-etc"},
		{"plots", "…", 3, true, "plots/4-group"},
		{"report.html", "gpt-4o", -1, false, "report.html"}, // not in groups
		{"", "gpt-4o", 0, true, ""},                         // no --plots
	} {
		if got := groupPath(c.path, c.i, c.name, c.dir); got != c.want {
			t.Errorf("%q, %d, %q: %q, want %q", c.path, c.i, c.name, got, c.want)
		}
	}
}
