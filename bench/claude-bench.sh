#!/usr/bin/env bash
# bench/claude-bench.sh — wall time, CPU time and peak RSS of sessctl on a
# synthetic 1 GB Claude Code transcript, next to wc -l (never CI).
#
#   bench/claude-bench.sh [SIZE]     (default 1GB; input in $BENCH_DIR)
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
echo "input: $IN ($(stat -c %s "$IN") bytes, $(wc -l < "$IN") lines)"
echo "| command | wall s | user s | sys s | peak RSS KB |"
echo "|---|---|---|---|---|"
run() {
	local name=$1; shift
	for _ in $(seq "$RUNS"); do
		/usr/bin/time -f "| $name | %e | %U | %S | %M |" "$@" > /dev/null 2> >(grep '^|' >&2)
	done
}
run "wc -l" wc -l "$IN" 2>&1
run "sessctl tree --json" "$BIN" -q tree --json "$IN" 2>&1
run "sessctl show --json" "$BIN" -q show --json "$IN" 2>&1
run "sessctl show --json --across-compactions" "$BIN" -q show --json --across-compactions "$IN" 2>&1
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg) on $(nproc) CPUs"
