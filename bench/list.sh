#!/usr/bin/env bash
# bench/list.sh — `sessctl list` at scale, next to pi's own listing (docs/benchmarks.md, "list").
# Never run by CI.
#
# Generates (once) a home of $SESSIONS pi sessions totalling about $SIZE with
# bench/gen, warms the page cache, then times, $RUNS times each (median reported):
#   1. sessctl list --json, first run: an empty cache folder every time
#   2. sessctl list --json, repeat run: the cache written by a previous run
#   3. pi's SessionManager.listAll() over the same sessions folder (Node), when
#      PI_PKG names an installed @mariozechner/pi-coding-agent package
# Columns: wall seconds, CPU seconds (user+sys), peak RSS. Wall time depends on
# how busy the machine is; CPU seconds much less so.
#
# Environment: BENCH_DIR (default /tmp/sessctl-bench-data), SESSIONS (2000),
# SIZE (2GB), RUNS (3), PI_PKG (unset: pi row is n/a), SESSCTL_BIN (a built
# sessctl to time instead of building ./cmd/sessctl), NICE (e.g. -20 to run
# the timed commands with that niceness on a busy machine; needs root).
set -euo pipefail
cd "$(dirname "$0")/.."
export GOTOOLCHAIN=local

BENCH_DIR=${BENCH_DIR:-/tmp/sessctl-bench-data}
SESSIONS=${SESSIONS:-2000}
SIZE=${SIZE:-2GB}
RUNS=${RUNS:-3}
BIN=${SESSCTL_BIN:-/tmp/sessctl-list-bench}
TIME=/usr/bin/time
[[ -x $TIME ]] || { echo "bench: GNU time is required (apt-get install time)" >&2; exit 1; }

mkdir -p "$BENCH_DIR"
HOMEDIR=$BENCH_DIR/pihome-$SESSIONS-$SIZE
if [[ ! -d $HOMEDIR ]]; then
	echo "bench: generating $HOMEDIR" >&2
	go run ./bench/gen -kind pihome -sessions "$SESSIONS" -size "$SIZE" -seed 3 -out "$HOMEDIR.tmp"
	mv "$HOMEDIR.tmp" "$HOMEDIR"
fi
[[ -n ${SESSCTL_BIN:-} ]] || go build -o "$BIN" ./cmd/sessctl

files=$(find "$HOMEDIR/.pi/agent/sessions" -name '*.jsonl' | wc -l)
mib=$(du -s --apparent-size --block-size=1M "$HOMEDIR/.pi/agent/sessions" | cut -f1)
find "$HOMEDIR/.pi/agent/sessions" -name '*.jsonl' -exec cat {} + >/dev/null # warm the page cache

median() { sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }

# run LABEL CMD...: runs CMD $RUNS times (PREP before each, if set) and prints a table row.
run() {
	local label=$1
	shift
	local walls=() cpus=() rss=() out
	for ((i = 0; i < RUNS; i++)); do
		[[ -n ${PREP:-} ]] && eval "$PREP"
		$TIME -o "$WORK/time.out" -f '%e %U %S %M' ${NICE:+nice -n "$NICE"} "$@" >/dev/null 2>"$WORK/stderr.out" ||
			{ echo "bench: $* failed:" >&2; tail -3 "$WORK/stderr.out" >&2; }
		read -r w u s m < <(tail -1 "$WORK/time.out")
		walls+=("$w")
		cpus+=("$(awk -v u="$u" -v s="$s" 'BEGIN {printf "%.2f", u + s}')")
		rss+=("$m")
	done
	printf '| %s | %s | %s | %s MiB |\n' "$label" \
		"$(printf '%s\n' "${walls[@]}" | median)" \
		"$(printf '%s\n' "${cpus[@]}" | median)" \
		"$(($(printf '%s\n' "${rss[@]}" | median) / 1024))"
}

WORK=$(mktemp -d /tmp/sessctl-list-bench.XXXXXX) # scratch, not shared with other benchmarks
trap 'rm -rf "$WORK"' EXIT
CACHE=$WORK/list-cache
echo "Input: $files pi sessions, $mib MiB ($HOMEDIR), page cache warm, $(nproc) CPUs, median of $RUNS runs${NICE:+, niceness $NICE}, load average $(cut -d' ' -f1 /proc/loadavg) at start."
echo
echo "| command | wall s | CPU s | peak RSS |"
echo "|---|---|---|---|"
PREP="rm -rf '$CACHE'" run "\`sessctl list --json\`, first run (empty cache)" \
	env HOME="$HOMEDIR" XDG_CACHE_HOME="$CACHE" "$BIN" list --json
rm -rf "$CACHE"
env HOME="$HOMEDIR" XDG_CACHE_HOME="$CACHE" "$BIN" list --json >/dev/null
PREP="" run "\`sessctl list --json\`, repeat run (cache)" \
	env HOME="$HOMEDIR" XDG_CACHE_HOME="$CACHE" "$BIN" list --json
if [[ -n ${PI_PKG:-} && -d ${PI_PKG:-} ]] && command -v node >/dev/null; then
	PREP="" run "pi 0.73.1 \`SessionManager.listAll()\` (node process)" \
		node bench/node/pi-listall.mjs --pkg "$PI_PKG" "$HOMEDIR/.pi/agent"
	# listAll's own time, without Node start-up and module import
	ms=$(${NICE:+nice -n "$NICE"} node bench/node/pi-listall.mjs --pkg "$PI_PKG" --repeat "$RUNS" "$HOMEDIR/.pi/agent" | sed -n 's/.*"ms":\([0-9.]*\).*/\1/p')
	echo "| pi 0.73.1 \`listAll()\` call alone (best of $RUNS, in-process) | $(awk -v m="$ms" 'BEGIN {printf "%.2f", m / 1000}') | | |"
else
	echo "| pi \`SessionManager.listAll()\` (node) | n/a (set PI_PKG) | | |"
fi
