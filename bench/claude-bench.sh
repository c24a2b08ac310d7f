#!/usr/bin/env bash
# bench/claude-bench.sh — wall time, CPU time and peak RSS of sessctl on a
# synthetic 1 GB Claude Code transcript, next to wc -l (never CI).
#
#   bench/claude-bench.sh [SIZE]     (default 1GB; input in $BENCH_DIR)
#   BASE=/tmp/sessctl-base BIN=/tmp/sessctl-head bench/claude-bench.sh 200MB
#                                    (side by side, medians; see the end)
#
# The input is written once by bench/claudegen (deterministic). Each command
# runs $RUNS times on a warm page cache; every run is printed (no medians
# are invented), with GNU time's %e wall, %U user, %S sys and %M peak RSS.
set -euo pipefail
cd "$(dirname "$0")/.."
export GOTOOLCHAIN=local
SIZE=${1:-1GB}
BENCH_DIR=${BENCH_DIR:-/tmp/sessctl-bench-data}
RUNS=${RUNS:-3}
BIN=${BIN:-/tmp/sessctl-claude-bench}
IN=$BENCH_DIR/claude-$SIZE.jsonl
mkdir -p "$BENCH_DIR"
[ -s "$IN" ] || go run ./bench/claudegen -size "$SIZE" -out "$IN"
[ -x "$BIN" ] || go build -o "$BIN" ./cmd/sessctl
cat "$IN" > /dev/null
echo "input: $IN ($(stat -Lc %s "$IN") bytes, $(wc -l < "$IN") lines)"
echo "| command | wall s | user s | sys s | peak RSS KB |"
echo "|---|---|---|---|---|"
run() {
	local name=$1; shift
	for _ in $(seq "$RUNS"); do
		/usr/bin/time -f "| $name | %e | %U | %S | %M |" "$@" > /dev/null 2> >(grep '^|' >&2)
	done
}
if [ -z "${BASE:-}" ]; then
	run "wc -l" wc -l "$IN" 2>&1
	run "sessctl tree --json" "$BIN" -q tree --json "$IN" 2>&1
	run "sessctl show --json" "$BIN" -q show --json "$IN" 2>&1
	run "sessctl show --json --across-compactions" "$BIN" -q show --json --across-compactions "$IN" 2>&1
	echo "load average: $(cut -d' ' -f1-3 /proc/loadavg) on $(nproc) CPUs"
fi

# Side by side: with BASE=<binary>, each command runs $RUNS times on $BASE
# and on $BIN, interleaved (base, head, base, head, ...), and the medians of
# CPU seconds (user + sys) and peak RSS are printed per binary: on a loaded
# machine they are the robust figures (wall time is printed but moves with
# the load).
if [ -n "${BASE:-}" ]; then
	echo
	echo "side by side: base $BASE, head $BIN ($RUNS runs each, interleaved)"
	med() { sort -n | awk '{a[NR]=$1} END {print (NR%2) ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2}'; }
	echo "| command | base CPU s | head CPU s | base peak RSS MB | head peak RSS MB | base wall s | head wall s |"
	echo "|---|---|---|---|---|---|---|"
	for cmd in "show --json" "tree --json" "check" "stats"; do
		rm -f /tmp/claude-bench.base /tmp/claude-bench.head
		for _ in $(seq "$RUNS"); do
			for side in base head; do
				b=$BIN; [ $side = base ] && b=$BASE
				# check exits 3 when it finds problems: not a failure here
				/usr/bin/time -f "%U %S %M %e" -a -o /tmp/claude-bench.$side "$b" -q $cmd "$IN" > /dev/null 2>&1 || true
			done
		done
		row="| $cmd"
		for col in cpu rss wall; do
			for side in base head; do
				case $col in
				cpu) v=$(awk '{printf "%.2f\n", $1+$2}' /tmp/claude-bench.$side | med) ;;
				rss) v=$(awk '{printf "%.1f\n", $3/1024}' /tmp/claude-bench.$side | med) ;;
				wall) v=$(awk '{print $4}' /tmp/claude-bench.$side | med) ;;
				esac
				row="$row | $v"
			done
		done
		echo "$row |"
	done
	echo "load average: $(cut -d' ' -f1-3 /proc/loadavg) on $(nproc) CPUs"
fi
