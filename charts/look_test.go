package charts

import (
	"flag"
	"os"
	"path/filepath"
	"testing"
)

var look = flag.String("look", "", "write the golden charts as PNG into this directory, to look at them")

// TestLook writes the charts of TestGoldenSVG as PNG when -look DIR is given:
// go test ./charts -run TestLook -look /tmp/charts
func TestLook(t *testing.T) {
	if *look == "" {
		t.Skip("no -look DIR")
	}
	os.MkdirAll(*look, 0o755)
	for name, ch := range goldenCharts(t) {
		if err := ch.Save(filepath.Join(*look, name+".png")); err != nil {
			t.Fatal(err)
		}
	}
}
