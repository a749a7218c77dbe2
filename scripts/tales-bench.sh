#!/usr/bin/env bash
# Reads a TALES log directory of 1,000 rollouts of 1.4 MB each (the real
# gpt-4o-mini Zork I rollout of ../shared/real, copied into 100 runs × 10
# games, directory names with spaces) with `lbanalyze batch`, under
# /usr/bin/time -v: wall, user and system time, peak RSS, and MB/s.
# The directory is made once under TALES_DIR (default /tmp/lbanalyze-tales,
# about 1.4 GB; never commit it). Usage: scripts/tales-bench.sh [RUNS]
set -euo pipefail
cd "$(dirname "$0")/.."
seed="../shared/real/tales/logs/tw-bench_LLMAgent_gpt-4o-mini_s20241001_c1000_t0.0_convFalseWalkthrough Agent/JerichoEnvZork1/a0_s20241001.jsonl"
dir=${TALES_DIR:-/tmp/lbanalyze-tales}
runs=${1:-3}
[ -f "$seed" ] || { echo "no seed rollout: $seed (the real runs are not here)" >&2; exit 1; }
if [ ! -d "$dir/logs" ]; then
	for r in $(seq -w 0 99); do
		for g in $(seq 0 9); do
			d="$dir/logs/tales_LLMAgent_model ${r}_s20241001_c10_t0.0_convFalse/JerichoEnvGame$g"
			mkdir -p "$d"
			cp "$seed" "$d/a0_s20241001_steps100.jsonl"
		done
	done
fi
command -v /usr/bin/time >/dev/null || { echo "tales-bench: /usr/bin/time is needed (apt-get install time)" >&2; exit 1; }
${GO:-go} build -tags netgo,osusergo -o bin/lbanalyze ./cmd/lbanalyze
times=$(mktemp)
trap 'rm -f "$times"' EXIT
bytes=$(find "$dir/logs" -name '*.jsonl' -printf '%s\n' | awk '{s+=$1} END {print s}')
files=$(find "$dir/logs" -name '*.jsonl' | wc -l)
echo "$files rollouts, $bytes bytes; load: $(cut -d' ' -f1-3 /proc/loadavg)"
cat "$dir"/logs/*/*/*.jsonl > /dev/null # into the page cache
for i in $(seq "$runs"); do
	/usr/bin/time -v bin/lbanalyze batch --summary --format json "$dir/logs" 2> "$times" > /dev/null ||
		{ cat "$times" >&2; exit 1; }
	awk -v b="$bytes" -F': ' '
		/Elapsed \(wall clock\)/ { n = split($2, p, ":"); w = (n == 3 ? p[1]*3600 + p[2]*60 + p[3] : p[1]*60 + p[2]) }
		/User time/ { u = $2 } /System time/ { s = $2 } /Maximum resident/ { m = $2 }
		END { printf "wall %.2f s (%.0f MB/s), user %.2f s, sys %.2f s, user+sys %.2f s (%.0f MB/s), peak RSS %.1f MiB\n", w, b/w/1e6, u, s, u+s, b/(u+s)/1e6, m/1024 }' "$times"
done
