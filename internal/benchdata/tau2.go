package benchdata

import (
	"bufio"
	"fmt"
	"io"
	"strings"
)

// What every generated simulation says: the user's request, the tool's
// result (a JSON text, as a JSON string's content) and the provider's raw
// response; Tau2 and Tau2Steps write the same.
var (
	tau2Request = strings.Repeat("Please change my flight to tomorrow. ", 5)
	tau2Result  = strings.Repeat(`{\"flight\": \"HAT001\", \"date\": \"2024-05-15\"} `, 30)
	tau2Raw     = `"raw_data": {"id": "msg_0", "model": "agent-model", "usage": {"input_tokens": 6240, "output_tokens": 115, "cache_read_input_tokens": 5000}, "thinking_blocks": [{"thinking": "` + strings.Repeat("The user wants a change; check the policy first. ", 30) + `"}]}`
)

// tau2Calls are the tool calls of a generated simulation, after the agent's
// greeting: each an agent step.
const tau2Calls = 10

// tau2Stamp is the time of the i-th call.
func tau2Stamp(i int) string {
	return fmt.Sprintf("2026-01-05T10:%02d:%02d.000000", i/6, (i*10)%60)
}

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
	written := 0
	for s := 0; written < size; s++ {
		if s > 0 {
			bw.WriteString(",\n")
		}
		var b strings.Builder
		fmt.Fprintf(&b, `    {"id": "sim-%06d", "task_id": "%d", "trial": 0, "start_time": "2026-01-05T10:00:00.000000", "end_time": "2026-01-05T10:05:00.000000", "duration": 300.0, "termination_reason": "user_stop", "agent_cost": 0.5, "user_cost": 0.01, "reward_info": {"reward": %d.0, "db_check": {"db_match": true, "db_reward": 1.0}}, "messages": [`, s, s%50, s%2)
		b.WriteString(`{"role": "assistant", "content": "Hi! How can I help you today?", "tool_calls": null, "turn_idx": 0, "timestamp": "2026-01-05T10:00:01.000000", "cost": 0.0, "usage": null}`)
		for i := 1; i <= tau2Calls; i++ {
			ts := tau2Stamp(i)
			fmt.Fprintf(&b, `, {"role": "user", "content": "%s", "turn_idx": %d, "timestamp": "%s", "cost": 0.001, "usage": {"prompt_tokens": 500, "completion_tokens": 40}}`, tau2Request, 3*i-2, ts)
			fmt.Fprintf(&b, `, {"role": "assistant", "content": "Let me look.", "tool_calls": [{"id": "c%d", "name": "get_reservation_details", "arguments": {"reservation_id": "ABC%03d"}, "requestor": "assistant"}], "turn_idx": %d, "timestamp": "%s", "cost": 0.045, "usage": {"prompt_tokens": 6240, "completion_tokens": 115}, %s}`, i, i, 3*i-1, ts, tau2Raw)
			fmt.Fprintf(&b, `, {"role": "tool", "id": "c%d", "content": "%s", "requestor": "assistant", "error": false, "turn_idx": %d, "timestamp": "%s"}`, i, tau2Result, 3*i, ts)
		}
		b.WriteString("]}")
		bw.WriteString(b.String())
		written += b.Len()
	}
	bw.WriteString("\n  ]\n}\n")
	return bw.Flush()
}

// Tau2StepsFields is the field map that reads Tau2Steps's lines (--fields):
// the members the tau2 reader takes from a results file, but the cost, which
// a per-step log's field map has no key for.
const Tau2StepsFields = "episode=episode_id,turn=step,score=reward,action=action,response=result,error=error,tokens=usage.prompt_tokens+usage.completion_tokens"

// Tau2Steps writes the first n simulations Tau2 writes as per-step JSONL, as a
// user would export them from their own harness: a line an agent step with
// the simulation's id, the step's number, cost and usage, its action (the
// tool call as the tau2 reader writes it, else the agent's text), what
// answered it (the tool's result, else the user's message), whether that
// errored, and the reward, 0 until the last step, which has the
// simulation's. What the reader does not use (the user's messages as steps,
// the provider's raw response, the file's info and tasks) is not written.
func Tau2Steps(w io.Writer, n int) error {
	bw := bufio.NewWriterSize(w, 1<<20)
	for s := range n {
		reward := func(i int) int {
			if i < tau2Calls {
				return 0
			}
			return s % 2
		}
		fmt.Fprintf(bw, `{"episode_id": "sim-%06d", "step": 0, "timestamp": "2026-01-05T10:00:01.000000", "action": "Hi! How can I help you today?", "result": "%s", "error": false, "cost": 0.0, "usage": null, "reward": 0}`+"\n", s, tau2Request)
		for i := 1; i <= tau2Calls; i++ {
			fmt.Fprintf(bw, `{"episode_id": "sim-%06d", "step": %d, "timestamp": "%s", "action": "get_reservation_details {\"reservation_id\":\"ABC%03d\"}", "result": "%s", "error": false, "cost": 0.045, "usage": {"prompt_tokens": 6240, "completion_tokens": 115}, "reward": %d}`+"\n", s, i, tau2Stamp(i), i, tau2Result, reward(i))
		}
	}
	return bw.Flush()
}
