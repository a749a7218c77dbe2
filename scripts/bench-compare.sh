#!/usr/bin/env bash
# bench-compare: lbanalyze before and after a change, in one run, beside wc -l
# and jq over the same files, with peak RSS; prints a markdown table
# (docs/PERFORMANCE.md, "Today", gives one build's figures on these inputs).
#
#   make bench-compare                          # before = origin/main or main, after = the working tree
#   BEFORE=e949f5c scripts/bench-compare.sh     # any git revision
#   RUNS=7 BENCH_DIR=/tmp/lbb scripts/bench-compare.sh
#
# Inputs (built once, under BENCH_DIR, /tmp/lbanalyze-bench by default):
#   set1000/        1,000 realistic episodes, 280 MB (lbanalyze synth --episodes 1000)
#   large.jsonl     15 realistic episodes, 230 MB (lbanalyze synth --large)
#   longline.jsonl  a bundled 167-turn log with one 50 MB reasoning line
#   turns.jsonl     2,000,000 short turn_completed lines (520 MB)
#   tiny.jsonl      50,000 two-step episodes in one per-step JSONL file (4 MB)
# Times are medians of RUNS runs (5 by default) after a warm-up, every file in
# the page cache, the two builds one after the other case by case (hyperfine
# when installed: apt-get install hyperfine); each case is first run once on
# both, and a case that fails stops the comparison. Peak RSS is /usr/bin/time's maximum resident set size,
# the median of RUNS runs.
set -euo pipefail
cd "$(dirname "$0")/.."

RUNS=${RUNS:-5}
DIR=${BENCH_DIR:-/tmp/lbanalyze-bench}
GO=${GO:-go}
BEFORE=${BEFORE:-$(git rev-parse --verify -q origin/main || git rev-parse main)}
EPISODES=testdata/episodes
LONGSRC=testdata/episodes/2025-11-03T06-28-59/episode_log.jsonl
CONFIGS=(--policy score,score-or-objective,window --max-turns-stuck 21:220 --check-interval 1:10)

for tool in jq /usr/bin/time; do
	command -v "$tool" >/dev/null || { echo "bench-compare: $tool is needed" >&2; exit 1; }
done

# The two builds, static as make build and make install make them.
OLD=$(mktemp -d)
trap 'rm -rf "$OLD"' EXIT
mkdir "$OLD/src"
git archive "$BEFORE" | tar -x -C "$OLD/src"
(cd "$OLD/src" && $GO build -tags netgo,osusergo -o "$OLD/lbanalyze" ./cmd/lbanalyze)
$GO build -tags netgo,osusergo -o bin/lbanalyze ./cmd/lbanalyze
A=$OLD/lbanalyze B=bin/lbanalyze

mkdir -p "$DIR"
# Each input is written under a temporary name and renamed when whole, so that
# an interrupted run leaves nothing a later one would take for an input.
if [ ! -d "$DIR/set1000" ]; then
	rm -rf "$DIR/set1000.tmp"
	"$B" synth --seed 1 --episodes 1000 --out "$DIR/set1000.tmp" >/dev/null && mv "$DIR/set1000.tmp" "$DIR/set1000"
fi
[ -s "$DIR/large.jsonl" ] || { "$B" synth --seed 1 --large --episodes 15 --out - >"$DIR/large.jsonl.tmp" && mv "$DIR/large.jsonl.tmp" "$DIR/large.jsonl"; }
[ -s "$DIR/longline.jsonl" ] || { $GO run ./scripts/benchgen longline -mb 50 -in "$LONGSRC" -out "$DIR/longline.jsonl.tmp" && mv "$DIR/longline.jsonl.tmp" "$DIR/longline.jsonl"; }
[ -s "$DIR/turns.jsonl" ] || { $GO run ./scripts/benchgen turns -n 2000000 -out "$DIR/turns.jsonl.tmp" && mv "$DIR/turns.jsonl.tmp" "$DIR/turns.jsonl"; }
[ -s "$DIR/tiny.jsonl" ] || { $GO run ./scripts/benchgen tiny -n 50000 -out "$DIR/tiny.jsonl.tmp" && mv "$DIR/tiny.jsonl.tmp" "$DIR/tiny.jsonl"; }
TINY=(--fields episode=episode,turn=step,score=score "$DIR/tiny.jsonl")
mapfile -t LOGS < <(find "$EPISODES" -name episode_log.jsonl -not -path '*/test[-_]*' -not -path '*/unknown/*' | sort)
cat "${LOGS[@]}" "$DIR"/*.jsonl "$DIR"/set1000/*/*.jsonl >/dev/null # into the page cache

# median of the numbers on stdin
median() { sort -g | awk '{a[NR]=$1} END {print (NR%2 ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2)}'; }

# seconds CMD...: the median wall time in seconds of RUNS runs (output discarded).
seconds() {
	if command -v hyperfine >/dev/null; then
		local json
		json=$(mktemp)
		hyperfine -N -w 1 -r "$RUNS" --export-json "$json" --output=null "$(printf '%q ' "$@")" >/dev/null 2>&1
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

# row NAME BESIDE ARGS...: one case, before and after, with what runs beside it.
row() {
	local name=$1 beside=$2
	shift 2
	local a b ra rb bin
	for bin in "$A" "$B"; do
		"$bin" "$@" >/dev/null 2>&1 || { echo "bench-compare: $bin $* failed" >&2; exit 1; }
	done
	a=$(seconds "$A" "$@")
	b=$(seconds "$B" "$@")
	ra=$(rss "$A" "$@")
	rb=$(rss "$B" "$@")
	echo "| $name | $(ms "$a") | $(ms "$b") | $(ratio "$b" "$a")× | $ra MiB | $rb MiB | $beside |"
}

echo "lbanalyze bench-compare, $(date -u +%Y-%m-%dT%H:%MZ), $(nproc) cores, $(uname -m), RUNS=$RUNS"
echo "before: $BEFORE; after: $(git rev-parse --short HEAD)$(git diff --quiet || echo ' and the working tree')"
echo "load before: $(uptime | sed 's/.*load average/load average/')"
echo
echo "| case | before | after | after ÷ before | RSS before | RSS after | beside it |"
echo "|---|---:|---:|---:|---:|---:|---|"
row "\`batch\` over the ${#LOGS[@]} bundled logs" "wc -l $(ms "$(seconds wc -l "${LOGS[@]}")")" batch "$EPISODES"
row "\`sweep\` over the bundled logs" "" sweep "$EPISODES"
row "\`batch\` over 1,000 episodes ($(du -sh "$DIR/set1000" | cut -f1))" "" batch "$DIR/set1000"
row "\`sweep\` over 1,000 episodes" "" sweep "$DIR/set1000"
row "\`batch\` over 50,000 two-step episodes in one file" "" batch "${TINY[@]}"
row "\`sweep\` over 50,000 two-step episodes" "" sweep "${TINY[@]}"
row "\`episode\` on 230 MB of 15 realistic episodes" "wc -l $(ms "$(seconds wc -l "$DIR/large.jsonl")")" episode "$DIR/large.jsonl"
row "\`episode\` on one 50 MB line in a 167-turn log" "jq $(ms "$(seconds jq -c 'select(.event_type=="turn_completed")' "$DIR/longline.jsonl")")" episode "$DIR/longline.jsonl"
row "\`episode\` on 2,000,000 short turn lines ($(($(stat -c %s "$DIR/turns.jsonl") / 1000000)) MB)" "wc -l $(ms "$(seconds wc -l "$DIR/turns.jsonl")")" episode "$DIR/turns.jsonl"
row "\`episode --format json\`, 6,000 configs × 15 episodes (230 MB)" "" episode --format json "${CONFIGS[@]}" "$DIR/large.jsonl"
row "process start (\`--help\`)" "" --help
echo
echo "load after: $(uptime | sed 's/.*load average/load average/')"
