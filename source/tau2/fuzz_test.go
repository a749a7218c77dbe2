package tau2

import (
	"path/filepath"
	"testing"

	"github.com/lbanalyze/lbanalyze/internal/testlogs"
)

// FuzzRead: whatever the bytes, reading never panics, every episode has a
// step and an id, and the episodes and rejections are no more than the
// simulations counted.
func FuzzRead(f *testing.F) {
	testlogs.Seed(f, filepath.Join("..", "..", "testdata", "tau2", "airline.json"))
	f.Add([]byte(`[{"id": "a", "task_id": "0", "reward_info": {"reward": 0.25}, "messages": [{"role": "assistant", "tool_calls": [{"name": "x", "arguments": {"b": 1, "a": [2]}}]}]}]`))
	f.Add([]byte(`{"simulations": [{"id": "a", "messages": [{"role": "assistant", "cost": NaN}]}]}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		eps, res := testlogs.Fuzzed(t, Source{}, data, "fuzz.json")
		if len(eps)+len(res.Rejected) > res.Segments {
			t.Fatalf("%d episodes and %d rejected of %d simulations", len(eps), len(res.Rejected), res.Segments)
		}
	})
}
