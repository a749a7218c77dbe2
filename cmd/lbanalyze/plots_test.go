package main

import (
	"bytes"
	"encoding/xml"
	"image/png"
	"io"
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// TestPlotFiles checks the files that --plot, --plots and --html write (the
// CLI cases check what the commands print): their names, and that each is
// an image or page of the kind its name says.
func TestPlotFiles(t *testing.T) {
	work := t.TempDir()
	ds := filepath.Join(work, "ds")
	for src, dst := range map[string]string{
		"premature.jsonl":    "a/episode_log.jsonl",
		"recorded-v2.jsonl":  "b/episode_log.jsonl",
		"two-episodes.jsonl": "c/zork_episode_log.jsonl",
	} {
		data, err := os.ReadFile(filepath.Join("testdata", "logs", src))
		if err != nil {
			t.Fatal(err)
		}
		os.MkdirAll(filepath.Dir(filepath.Join(ds, dst)), 0o755)
		if err := os.WriteFile(filepath.Join(ds, dst), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	plots, html := filepath.Join(work, "plots"), filepath.Join(work, "report.html")
	if code, _, stderr := runCLI(nil, "batch", "--plots", plots, "--html", html, ds); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}

	// Three episodes share the id 2025-11-12T10:00:00 (one of them segment 1
	// of its file), in the dataset's order: by id, then source.
	want := []string{
		"terminations.png",
		"timeline-2025-11-12T10-00-00-2.png",  // b
		"timeline-2025-11-12T10-00-00-s1.png", // c, segment 1
		"timeline-2025-11-12T10-00-00.png",    // a
		"timeline-2025-11-12T11-00-00-s2.png", // c, segment 2
		"turns-saved.png",
	}
	entries, err := os.ReadDir(plots)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, e := range entries {
		got = append(got, e.Name())
	}
	if !slices.Equal(got, want) {
		t.Errorf("--plots wrote %q, want %q", got, want)
	}
	for _, name := range got {
		f, err := os.Open(filepath.Join(plots, name))
		if err != nil {
			t.Fatal(err)
		}
		cfg, err := png.DecodeConfig(f)
		f.Close()
		if err != nil || cfg.Width != 1200 || cfg.Height < 600 {
			t.Errorf("%s: %d×%d, %v; want a PNG 1200 px wide, at least 600 high", name, cfg.Width, cfg.Height, err)
		}
	}

	page, err := os.ReadFile(html)
	if err != nil {
		t.Fatal(err)
	}
	for what, n := range map[string]int{`<section id="ep-`: 4, "<svg": 4 + 2, "<script": 1} {
		if got := bytes.Count(page, []byte(what)); got != n {
			t.Errorf("report.html holds %d %q, want %d", got, what, n)
		}
	}

	// --plot with .svg: an SVG document of 1200×600 px (900×450 pt).
	svg := filepath.Join(work, "timeline.svg")
	code, _, stderr := runCLI(nil, "episode", "--plot", svg, filepath.Join(ds, "a", "episode_log.jsonl"))
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	data, err := os.ReadFile(svg)
	if err != nil {
		t.Fatal(err)
	}
	var root struct {
		XMLName xml.Name
		Width   string `xml:"width,attr"`
		Height  string `xml:"height,attr"`
	}
	if err := xml.Unmarshal(data, &root); err != nil || root.XMLName.Local != "svg" || root.Width != "900pt" || root.Height != "450pt" {
		t.Errorf("timeline.svg: <%s width=%q height=%q>, %v; want <svg width=\"900pt\" height=\"450pt\">", root.XMLName.Local, root.Width, root.Height, err)
	}
	if want := "lbanalyze: wrote the timeline of 2025-11-12T10:00:00 to " + svg + "\n"; stderr != want {
		t.Errorf("stderr %q, want %q", stderr, want)
	}
}

// TestSweepPlotFiles: sweep --plots writes the trade-off chart and the heat
// map as PNG and SVG, and --html one page holding both charts.
func TestSweepPlotFiles(t *testing.T) {
	work := t.TempDir()
	ds := filepath.Join(work, "ds")
	for src, dst := range map[string]string{"premature.jsonl": "a/episode_log.jsonl", "recorded-v2.jsonl": "b/episode_log.jsonl"} {
		data, err := os.ReadFile(filepath.Join("testdata", "logs", src))
		if err != nil {
			t.Fatal(err)
		}
		os.MkdirAll(filepath.Dir(filepath.Join(ds, dst)), 0o755)
		os.WriteFile(filepath.Join(ds, dst), data, 0o644)
	}
	plots, page := filepath.Join(work, "plots"), filepath.Join(work, "sweep.html")
	var stderr bytes.Buffer
	if code := run([]string{"sweep", "--folds", "2", "--plots", plots, "--html", page, "--max-turns-stuck", "20:60:10", ds}, nil, io.Discard, &stderr); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr.String())
	}
	for _, name := range []string{"heatmap.png", "heatmap.svg", "tradeoff.png", "tradeoff.svg"} {
		data, err := os.ReadFile(filepath.Join(plots, name))
		if err != nil {
			t.Fatal(err)
		}
		if filepath.Ext(name) == ".png" {
			cfg, err := png.DecodeConfig(bytes.NewReader(data))
			if err != nil || cfg.Width != 1200 || cfg.Height < 600 {
				t.Errorf("%s: %d×%d, %v", name, cfg.Width, cfg.Height, err)
			}
		} else if err := xml.Unmarshal(data, new(struct{ XMLName xml.Name })); err != nil {
			t.Errorf("%s: not XML: %v", name, err)
		}
	}
	data, err := os.ReadFile(page)
	if err != nil {
		t.Fatal(err)
	}
	// Two episodes: a description, and no block to paste.
	for what, n := range map[string]int{"<svg": 2, `<table id="front-table">`: 1, "[tool.zorkgpt.loop_break]": 0, "No answer: 2 episodes, too few": 1} {
		if got := bytes.Count(data, []byte(what)); got != n {
			t.Errorf("sweep.html holds %d %q, want %d", got, what, n)
		}
	}
}
