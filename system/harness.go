package system

import "github.com/lbanalyze/lbanalyze/policy"

// Harness is a benchmark harness or an agent loop of the user's own with no
// stop rule of its own (TALES, or JSONL read through a field map): it runs
// any policy that needs only the score per step, in words and settings added
// to its step loop (docs/sources.md, "Which system ran a log"). It makes one
// LLM call a step, and shows its agent no countdown.
var Harness = &System{Name: "your harness", Formats: []string{"jsonl", "tales"},
	File: "your harness's configuration", Lang: "toml", Block: policy.Policy.HarnessBlock,
	Note: "stop the run in its step loop as the rule says", Adds: policy.Increase, CallsPerTurn: 1,
	Offered: []policy.Name{policy.Score, policy.Increase}, Shows: Shows{EndUnrecorded: true}}
