package source

import "testing"

func TestTokenSum(t *testing.T) {
	for _, c := range []struct {
		a, b int64
		sum  int64
		ok   bool
	}{
		{3, 4, 7, true},
		{0, 0, 0, true},
		{MaxTokens, MaxTokens, 2 * MaxTokens, true},
		{-5, 9, 0, false},
		{MaxTokens + 1, 0, 0, false},
		{1<<63 - 1, 1<<63 - 1, 0, false}, // would wrap to -2
	} {
		if sum, ok := TokenSum(c.a, c.b); sum != c.sum || ok != c.ok {
			t.Errorf("TokenSum(%d, %d) = %d, %v; want %d, %v", c.a, c.b, sum, ok, c.sum, c.ok)
		}
	}
}
