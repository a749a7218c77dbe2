package patterns

import (
	"encoding/json"
	"fmt"
	"testing"
)

func TestScratch(t *testing.T) {
	var as []*Analysis
	for _, ep := range bundled(t) {
		as = append(as, Analyse(ep, DefaultOptions(), defaultPolicies...))
	}
	b, _ := json.MarshalIndent(Summarise(digests(as)), "", " ")
	fmt.Println(string(b))
	b, _ = json.MarshalIndent(as[len(as)-1], "", " ")
	fmt.Println(string(b))
}
