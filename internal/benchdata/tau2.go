package benchdata

import (
	"bufio"
	"fmt"
	"io"
	"strings"
)

// Tau2 writes a τ²-bench results file of about size bytes, shaped as the
// leaderboard's (info, tasks, then simulations of some 60 KB: an agent that
// greets, then calls a tool and answers the user in turn, each message with
// its cost, usage and the provider's raw response), for the reader's
// benchmark; the data are made up.
func Tau2(w io.Writer, size int) error {
	bw := bufio.NewWriterSize(w, 1<<20)
	bw.WriteString(`{
  "timestamp": "2026-01-05T10:00:00.000000",
  "info": {"git_commit": "0000000", "num_trials": 1, "max_steps": 200, "max_errors": 10,
    "user_info": {"implementation": "user_simulator", "llm": "user-model", "llm_args": {"temperature": 0.0}},
    "agent_info": {"implementation": "llm_agent", "llm": "agent-model", "llm_args": {}},
    "environment_info": {"domain_name": "airline", "policy": "` + strings.Repeat("Follow the airline policy. ", 400) + `"}},
  "tasks": [` + strings.Repeat(`{"id": "0", "description": {"purpose": "Change a flight."}, "user_scenario": {"instructions": "`+strings.Repeat("You want to change your flight. ", 40)+`"}},`, 49) + `{"id": "49"}],
  "simulations": [
`)
	raw := `"raw_data": {"id": "msg_0", "model": "agent-model", "usage": {"input_tokens": 6240, "output_tokens": 115, "cache_read_input_tokens": 5000}, "thinking_blocks": [{"thinking": "` + strings.Repeat("The user wants a change; check the policy first. ", 30) + `"}]}`
	written := 0
	for s := 0; written < size; s++ {
		if s > 0 {
			bw.WriteString(",\n")
		}
		var b strings.Builder
		fmt.Fprintf(&b, `    {"id": "sim-%06d", "task_id": "%d", "trial": 0, "start_time": "2026-01-05T10:00:00.000000", "end_time": "2026-01-05T10:05:00.000000", "duration": 300.0, "termination_reason": "user_stop", "agent_cost": 0.5, "user_cost": 0.01, "reward_info": {"reward": %d.0, "db_check": {"db_match": true, "db_reward": 1.0}}, "messages": [`, s, s%50, s%2)
		b.WriteString(`{"role": "assistant", "content": "Hi! How can I help you today?", "tool_calls": null, "turn_idx": 0, "timestamp": "2026-01-05T10:00:01.000000", "cost": 0.0, "usage": null}`)
		for i := 1; i <= 10; i++ {
			ts := fmt.Sprintf("2026-01-05T10:%02d:%02d.000000", i/6, (i*10)%60)
			fmt.Fprintf(&b, `, {"role": "user", "content": "%s", "turn_idx": %d, "timestamp": "%s", "cost": 0.001, "usage": {"prompt_tokens": 500, "completion_tokens": 40}}`, strings.Repeat("Please change my flight to tomorrow. ", 5), 3*i-2, ts)
			fmt.Fprintf(&b, `, {"role": "assistant", "content": "Let me look.", "tool_calls": [{"id": "c%d", "name": "get_reservation_details", "arguments": {"reservation_id": "ABC%03d"}, "requestor": "assistant"}], "turn_idx": %d, "timestamp": "%s", "cost": 0.045, "usage": {"prompt_tokens": 6240, "completion_tokens": 115}, %s}`, i, i, 3*i-1, ts, raw)
			fmt.Fprintf(&b, `, {"role": "tool", "id": "c%d", "content": "%s", "requestor": "assistant", "error": false, "turn_idx": %d, "timestamp": "%s"}`, i, strings.Repeat(`{\"flight\": \"HAT001\", \"date\": \"2024-05-15\"} `, 30), 3*i, ts)
		}
		b.WriteString("]}")
		bw.WriteString(b.String())
		written += b.Len()
	}
	bw.WriteString("\n  ]\n}\n")
	return bw.Flush()
}
