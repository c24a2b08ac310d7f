#!/usr/bin/env bash
# bench/cold.sh — cold- and warm-cache timings of one file (docs/benchmarks.md
# section 9, "Cold cache"; never CI).
#
# A user's first `show` of a big session reads it from disk. Dropping the
# whole page cache is not acceptable on a shared machine, so before every
# cold run this evicts only the input file (bench/evict: fsync, then
# posix_fadvise DONTNEED, checked with mincore; it fails when more than 1 %
# of the file stays resident). Each run times, for every command and
# binary in turn, a cold start (file just evicted) and a warm one (file read
# just before), so that all of them see the same machine load. The table
# gives the median wall time, CPU time (user + sys) and peak RSS of RUNS
# runs, with every wall time.
#
# Environment:
#   FILE       the input (default $BENCH_DIR/pi-1GB.jsonl, generated once
#              with bench/gen -kind pi -size 1GB -seed 1)
#   BENCH_DIR  default /tmp/sessctl-bench-data
#   RUNS       runs (default 3)
#   BINS       "label=path ..." (default: new=<built from this tree into
#              /tmp/sessctl-cold>)
#   CMDS       sessctl commands, ";"-separated (default "tree --json;show --json")
#
#   BINS="base=/tmp/sessctl-base new=/tmp/sessctl-new" RUNS=3 bash bench/cold.sh
set -euo pipefail
cd "$(dirname "$0")/.."
export GOTOOLCHAIN=local

BENCH_DIR=${BENCH_DIR:-/tmp/sessctl-bench-data}
FILE=${FILE:-$BENCH_DIR/pi-1GB.jsonl}
RUNS=${RUNS:-3}
CMDS=${CMDS:-tree --json;show --json}
TIME=/usr/bin/time
[[ -x $TIME ]] || { echo "cold.sh: GNU time is required (apt-get install time)" >&2; exit 1; }
mkdir -p "$BENCH_DIR"
if [[ -z ${BINS:-} ]]; then
	go build -o /tmp/sessctl-cold ./cmd/sessctl
	BINS="new=/tmp/sessctl-cold"
fi
EVICT=/tmp/sessctl-evict
go build -o "$EVICT" ./bench/evict
if [[ ! -e $FILE ]]; then
	echo "cold.sh: generating $FILE" >&2
	go run ./bench/gen -kind pi -size 1GB -seed 1 -out "$FILE.tmp"
	mv "$FILE.tmp" "$FILE"
fi

IFS=';' read -r -a CMDLIST <<<"$CMDS"
CASES=("-|WC") # "binary label|command"
for c in "${CMDLIST[@]}"; do
	for b in $BINS; do CASES+=("${b%%=*}|$c"); done
done
bin_of() { for b in $BINS; do [[ ${b%%=*} == "$1" ]] && echo "${b#*=}"; done; }

median() { sort -g | awk '{a[NR]=$1} END {if (NR==0) print "n/a"; else if (NR%2) print a[(NR+1)/2]; else printf "%.2f\n", (a[NR/2]+a[NR/2+1])/2}'; }

tf=$BENCH_DIR/.time.cold
one() { # one CACHE CASE: time one run, cold (evict first) or warm (read first)
	local cache=$1 name=${2%%|*} cmd=${2#*|}
	if [[ $cache == cold ]]; then
		"$EVICT" "$FILE" >/dev/null
	else
		cat -- "$FILE" >/dev/null
	fi
	if [[ $cmd == WC ]]; then
		"$TIME" -f '%e %U %S %M' -o "$tf" wc -l "$FILE" >/dev/null
	else
		# shellcheck disable=SC2086
		"$TIME" -f '%e %U %S %M' -o "$tf" "$(bin_of "$name")" --no-config $cmd "$FILE" >/dev/null 2>&1 || true
	fi
	read -r w u s m <"$tf"
	local k="$cache|$2"
	W[$k]+="$w "
	C[$k]+="$(awk -v u="$u" -v s="$s" 'BEGIN{print u+s}') "
	M[$k]+="$m "
}

echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg); $(nproc) CPUs; $(date -u +%FT%TZ); $("$EVICT" -check "$FILE")"
echo
echo "| command | binary | cache | wall s (median) | CPU s (median) | peak RSS MB (median) | wall s, every run |"
echo "|---|---|---|---:|---:|---:|---|"
declare -A W=() C=() M=()
for ((i = 0; i < RUNS; i++)); do
	for c in "${CASES[@]}"; do
		one cold "$c"
		one warm "$c"
	done
done
for c in "${CASES[@]}"; do
	for cache in cold warm; do
		k="$cache|$c"
		name=${c%%|*} cmd=${c#*|}
		label="sessctl $cmd"
		[[ $cmd == WC ]] && label="wc -l"
		echo "| \`$label\` | $name | $cache | $(printf '%s\n' ${W[$k]} | median) | $(printf '%s\n' ${C[$k]} | median) | $(awk -v k="$(printf '%s\n' ${M[$k]} | median)" 'BEGIN{printf "%.0f", k/1024}') | ${W[$k]}|"
	done
done
echo
echo "input: $FILE ($(($(stat -c %s "$FILE") >> 20)) MiB); load average after: $(cut -d' ' -f1-3 /proc/loadavg); $(date -u +%FT%TZ)"
