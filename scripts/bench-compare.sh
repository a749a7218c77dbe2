#!/usr/bin/env bash
# bench-compare: lbanalyze beside wc -l, jq and a Python json.loads loop over
# the same files, in one run, with peak RSS; prints the goals of issue 13 as a
# markdown table (docs/PERFORMANCE.md holds one run's output).
#
#   make bench-compare                      # or: scripts/bench-compare.sh
#   RUNS=7 BENCH_DIR=/tmp/lbb scripts/bench-compare.sh
#   SLOW=0 scripts/bench-compare.sh         # no jq/Python on the 230 and 520 MB files
#
# Inputs (built once, under BENCH_DIR, /tmp/lbanalyze-bench by default):
#   large.jsonl     15 realistic episodes, 230 MB (lbanalyze synth --large)
#   longline.jsonl  a bundled 167-turn log with one 50 MB reasoning line
#   turns.jsonl     2,000,000 short turn_completed lines (520 MB)
# Times are medians of RUNS runs (5 by default) after a warm-up, with every
# file in the page cache: hyperfine when installed (apt-get install hyperfine),
# else the loop below. Peak RSS is /usr/bin/time's maximum resident set size,
# the median over RUNS runs.
set -euo pipefail
cd "$(dirname "$0")/.."

RUNS=${RUNS:-5}
SLOW=${SLOW:-1}
DIR=${BENCH_DIR:-/tmp/lbanalyze-bench}
GO=${GO:-go}
BIN=bin/lbanalyze
EPISODES=testdata/episodes
LONGSRC=testdata/episodes/2025-11-03T06-28-59/episode_log.jsonl
CONFIGS=(--policy score,score-or-objective,window --max-turns-stuck 21:220 --check-interval 1:10)

for tool in jq python3 /usr/bin/time; do
	command -v "$tool" >/dev/null || { echo "bench-compare: $tool is needed" >&2; exit 1; }
done

$GO build -tags netgo,osusergo -o "$BIN" ./cmd/lbanalyze # as make build and make install do
mkdir -p "$DIR"
[ -s "$DIR/large.jsonl" ] || "$BIN" synth --seed 1 --large --episodes 15 --out - >"$DIR/large.jsonl"
[ -s "$DIR/longline.jsonl" ] || $GO run ./scripts/benchgen longline -mb 50 -in "$LONGSRC" -out "$DIR/longline.jsonl"
[ -s "$DIR/turns.jsonl" ] || $GO run ./scripts/benchgen turns -n 2000000 -out "$DIR/turns.jsonl"
# The files batch reads: it passes over ZorkGPT's test_* and unknown directories.
mapfile -t LOGS < <(find "$EPISODES" -name episode_log.jsonl -not -path '*/test[-_]*' -not -path '*/unknown/*' | sort)
cat "${LOGS[@]}" "$DIR"/*.jsonl >/dev/null # into the page cache

PYLOOP=$(mktemp)
trap 'rm -f "$PYLOOP"' EXIT
cat >"$PYLOOP" <<'EOF'
import json, sys
for path in sys.argv[1:]:
    with open(path, "rb") as f:
        for line in f:
            try:
                json.loads(line)
            except ValueError:
                pass
EOF
JQ='select(.event_type=="turn_completed")'

# median of the numbers on stdin
median() { sort -g | awk '{a[NR]=$1} END {print (NR%2 ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2)}'; }

# seconds CMD...: the median wall time in seconds of RUNS runs (output discarded).
seconds() {
	if command -v hyperfine >/dev/null; then
		local json
		json=$(mktemp)
		hyperfine -N -i -w 1 -r "$RUNS" --export-json "$json" --output=null "$(printf '%q ' "$@")" >/dev/null 2>&1
		jq -r '.results[0].median' "$json"
		rm -f "$json"
	else
		"$@" >/dev/null 2>&1 || true
		for _ in $(seq "$RUNS"); do
			local t0 t1
			t0=$(date +%s%N)
			"$@" >/dev/null 2>&1 || true
			t1=$(date +%s%N)
			echo "$(((t1 - t0) / 1000))e-6"
		done | median
	fi
}

# rss CMD...: the median peak RSS in MiB of RUNS runs.
rss() {
	local out
	out=$(mktemp)
	for _ in $(seq "$RUNS"); do
		/usr/bin/time -f '%M' -o "$out" "$@" >/dev/null 2>&1 || true
		tail -1 "$out"
	done | median | awk '{printf "%.1f", $1/1024}'
	rm -f "$out"
}

ms() { awk -v s="$1" 'BEGIN {printf "%.1f ms", s*1000}'; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN {printf "%.2f", a/b}'; }
ok() { awk -v v="$1" -v g="$2" -v d="$3" 'BEGIN {print ((d=="le" ? v<=g : v>=g) ? "met" : "not met")}'; }

echo "lbanalyze bench-compare, $(date -u +%Y-%m-%dT%H:%MZ), $(nproc) cores, $(uname -m), RUNS=$RUNS"
echo "load before: $(uptime | sed 's/.*load average/load average/')"
echo

# 1. batch over the bundled episodes ÷ wc -l over the same files.
b_lb=$(seconds "$BIN" batch "$EPISODES")
b_wc=$(seconds wc -l "${LOGS[@]}")
b_rss=$(rss "$BIN" batch "$EPISODES")
b_jq=$(seconds jq -c "$JQ" "${LOGS[@]}")
b_py=$(seconds python3 "$PYLOOP" "${LOGS[@]}")
# 2. episode on 230 MB of realistic episodes ÷ wc -l.
l_lb=$(seconds "$BIN" episode "$DIR/large.jsonl")
l_wc=$(seconds wc -l "$DIR/large.jsonl")
l_rss=$(rss "$BIN" episode "$DIR/large.jsonl")
l_jq=NaN l_py=NaN
if [ "$SLOW" = 1 ]; then
	l_jq=$(seconds jq -c "$JQ" "$DIR/large.jsonl")
	l_py=$(seconds python3 "$PYLOOP" "$DIR/large.jsonl")
fi
# 3. one 50 MB line in a 167-turn log ÷ jq.
o_lb=$(seconds "$BIN" episode "$DIR/longline.jsonl")
o_jq=$(seconds jq -c "$JQ" "$DIR/longline.jsonl")
o_wc=$(seconds wc -l "$DIR/longline.jsonl")
o_py=$(seconds python3 "$PYLOOP" "$DIR/longline.jsonl")
o_rss=$(rss "$BIN" episode "$DIR/longline.jsonl")
# 4. 2,000,000 short turn lines: bytes per second.
t_size=$(stat -c %s "$DIR/turns.jsonl")
t_lb=$(seconds "$BIN" episode "$DIR/turns.jsonl")
t_wc=$(seconds wc -l "$DIR/turns.jsonl")
t_rss=$(rss "$BIN" episode "$DIR/turns.jsonl")
t_jq=NaN t_py=NaN
if [ "$SLOW" = 1 ]; then
	t_jq=$(seconds jq -c "$JQ" "$DIR/turns.jsonl")
	t_py=$(seconds python3 "$PYLOOP" "$DIR/turns.jsonl")
fi
t_allocs=$($GO test ./replay -run '^$' -bench '^BenchmarkReadTurnsRegions$' -benchmem -count 1 -benchtime 1x |
	awk '/allocs\/op/ {for (i = 1; i < NF; i++) if ($(i+1) == "allocs/op") print $i / 2000000}')
# 5. episode with 6,000 configs, JSON, over the 230 MB file.
c_lb=$(seconds "$BIN" episode --format json "${CONFIGS[@]}" "$DIR/large.jsonl")
c_rss=$(rss "$BIN" episode --format json "${CONFIGS[@]}" "$DIR/large.jsonl")
# 6. process start.
h_lb=$(seconds "$BIN" --help)
h_rss=$(rss "$BIN" --help)

MB=$(awk -v s="$t_size" -v t="$t_lb" 'BEGIN {printf "%.0f", s/t/1e6}')
cat <<EOF
| case | lbanalyze | beside it | ratio | goal | | peak RSS | jq | Python json.loads |
|---|---:|---:|---:|---|---|---:|---:|---:|
| \`batch\` over the ${#LOGS[@]} bundled logs ($(du -ch "${LOGS[@]}" | tail -1 | cut -f1)) | $(ms "$b_lb") | wc -l $(ms "$b_wc") | $(ratio "$b_lb" "$b_wc")× | ≤ 3× | $(ok "$(ratio "$b_lb" "$b_wc")" 3 le) | $b_rss MiB | $(ms "$b_jq") | $(ms "$b_py") |
| \`episode\` on one 230 MB file of 15 realistic episodes | $(ms "$l_lb") | wc -l $(ms "$l_wc") | $(ratio "$l_lb" "$l_wc")× | ≤ 1.2× | $(ok "$(ratio "$l_lb" "$l_wc")" 1.2 le) | $l_rss MiB | $(ms "$l_jq") | $(ms "$l_py") |
| one 50 MB line in a 167-turn log | $(ms "$o_lb") | jq $(ms "$o_jq") | $(ratio "$o_jq" "$o_lb")× faster | ≥ 5× faster, RSS ≤ 32 MiB | $(ok "$(ratio "$o_jq" "$o_lb")" 5 ge), RSS $(ok "$o_rss" 32 le) | $o_rss MiB | (wc -l $(ms "$o_wc")) | $(ms "$o_py") |
| 2,000,000 short turn lines ($((t_size / 1000000)) MB) | $(ms "$t_lb") = $MB MB/s | wc -l $(ms "$t_wc") | $t_allocs allocs a line | ≥ 1000 MB/s, ≤ 1 alloc a line | $(ok "$MB" 1000 ge), allocs $(ok "$t_allocs" 1 le) | $t_rss MiB | $(ms "$t_jq") | $(ms "$t_py") |
| \`episode --format json\`, 6,000 configs × 15 episodes (230 MB) | $(ms "$c_lb") | | | ≤ 500 ms, RSS flat | $(ok "$c_lb" 0.5 le) | $c_rss MiB | | |
| process start (\`--help\`) | $(ms "$h_lb") | | | ≤ 2 ms | $(ok "$h_lb" 0.002 le) | $h_rss MiB | | |
EOF
echo
echo "load after: $(uptime | sed 's/.*load average/load average/')"
