package main

import (
	"bytes"
	"testing"

	"github.com/lbanalyze/lbanalyze/internal/calibrate"
	"github.com/lbanalyze/lbanalyze/internal/corpus"
	"github.com/lbanalyze/lbanalyze/internal/sweep"
)

// The calibration study sweeps its samples as `lbanalyze sweep` does with no
// flag (docs/calibration.md): the same grid, current setting and options
// give the same JSON, byte for byte, over the bundled set.
func TestCalibrationSweepsAsTheCommand(t *testing.T) {
	const dir = "../../testdata/episodes"
	code, want, stderr := runCLI(nil, "sweep", "--format", "json", dir)
	if code != 0 {
		t.Fatalf("sweep: exit %d: %s", code, stderr)
	}
	c := corpus.Read([]string{dir}, corpus.Options{Jobs: 2})
	var got bytes.Buffer
	if err := sweep.Write(&got, "json", calibrate.Sweep(c.Episodes, calibrate.DefaultNow()), sweep.Layout{}); err != nil {
		t.Fatal(err)
	}
	if got.String() != want {
		t.Errorf("calibrate.Sweep's answer is not the command's:\n%s\nthe command's:\n%s", got.String(), want)
	}
}
