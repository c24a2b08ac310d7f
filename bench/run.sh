#!/usr/bin/env bash
# bench/run.sh — end-to-end timings for docs/benchmarks.md (`make bench`; never CI).
#
# Builds sessctl, generates deterministic inputs under $BENCH_DIR if missing,
# then runs each command $RUNS times on a hot page cache and prints a markdown
# table with the median wall time and median peak RSS (GNU time: %e %M).
#
# Environment:
#   BENCH_DIR  where inputs go           (default /tmp/sessctl-bench-data)
#   SIZE       size of the big pi file   (default 1GB)
#   RUNS       runs per command          (default 3; the median is reported)
#   HOME_SESSIONS / HOME_SIZE            pihome listing input (default 2000 / 2GB)
#   PI_PKG     dir of an installed @mariozechner/pi-coding-agent package; when set
#              (and node + bench/node/*.mjs exist) pi's own loader and listing
#              are timed too (pi on a 200MB file)
#   ONLY       space-separated row ids to run (wc tree show list pi-open pi-list)
#
# Rows whose command does not exist yet (e.g. `sessctl show` before it is
# registered) are reported as "n/a", never with made-up numbers.
set -euo pipefail
cd "$(dirname "$0")/.."
export GOTOOLCHAIN=local

BENCH_DIR=${BENCH_DIR:-/tmp/sessctl-bench-data}
SIZE=${SIZE:-1GB}
RUNS=${RUNS:-3}
HOME_SESSIONS=${HOME_SESSIONS:-2000}
HOME_SIZE=${HOME_SIZE:-2GB}
ONLY=${ONLY:-wc tree show list pi-open pi-list}
BIN=/tmp/sessctl-bench
TIME=/usr/bin/time

want() { [[ " $ONLY " == *" $1 "* ]]; }
note() { echo "bench: $*" >&2; }

if [[ ! -x $TIME ]]; then
	note "$TIME missing; installing GNU time with apt-get (package 'time')"
	if command -v apt-get >/dev/null && [[ $(id -u) == 0 ]]; then
		apt-get install -y -qq time >&2 || { apt-get update -qq >&2 && apt-get install -y -qq time >&2; }
	fi
	[[ -x $TIME ]] || { note "GNU time is required (apt-get install time)"; exit 1; }
fi

mkdir -p "$BENCH_DIR"
BIG=$BENCH_DIR/pi-$SIZE.jsonl
MID=$BENCH_DIR/pi-200MB.jsonl
PIHOME=$BENCH_DIR/pihome-$HOME_SESSIONS-$HOME_SIZE

gen() { # gen OUT ARGS... : generate OUT once (to a temp name, renamed when complete)
	local out=$1
	shift
	[[ -e $out ]] && return 0
	note "generating $out"
	go run ./bench/gen "$@" -out "$out.tmp"
	mv "$out.tmp" "$out"
}
gen "$BIG" -kind pi -size "$SIZE" -seed 1
if want pi-open; then gen "$MID" -kind pi -size 200MB -seed 2; fi
if want list || want pi-list; then gen "$PIHOME" -kind pihome -sessions "$HOME_SESSIONS" -size "$HOME_SIZE" -seed 3; fi

have_sessctl=0
if go build -o "$BIN" ./cmd/sessctl 2>"$BENCH_DIR/build.log"; then
	have_sessctl=1
else
	note "go build ./cmd/sessctl failed (see $BENCH_DIR/build.log); sessctl rows will be n/a"
fi
has_cmd() { [[ $have_sessctl == 1 ]] && "$BIN" "$1" --help >/dev/null 2>&1; }

have_pi=0
if [[ -n ${PI_PKG:-} && -d ${PI_PKG:-} ]] && command -v node >/dev/null && [[ -f bench/node/pi-open.mjs ]]; then
	have_pi=1
fi

size_of() { # MiB, apparent size; a directory also gets its file count
	if [[ -d $1 ]]; then
		echo "$(du -s --apparent-size --block-size=1M "$1" | cut -f1) MiB, $(find "$1" -name '*.jsonl' | wc -l) files"
	else
		echo "$(($(stat -c %s "$1") >> 20)) MiB"
	fi
}
median() { sort -g | awk '{a[NR]=$1} END {if (NR==0) print "n/a"; else if (NR%2) print a[(NR+1)/2]; else printf "%.2f\n", (a[NR/2]+a[NR/2+1])/2}'; }

ROWS=()
# measure ID LABEL INPUT CMD... : run CMD $RUNS times, stdout to /dev/null.
# Exit codes 0 and 3 (problems found) count as success.
measure() {
	local id=$1 label=$2 input=$3
	shift 3
	local walls=() rss=() extra="" i rc out=/dev/null tf=$BENCH_DIR/.time.$id
	if [[ $id == pi-* ]]; then out=$BENCH_DIR/.out.$id; fi # keep the JSON line the node drivers print
	cat -- "$input" >/dev/null 2>&1 || true # warm the page cache (files; dirs are warmed by the first run)
	for ((i = 0; i < RUNS; i++)); do
		rc=0
		"$TIME" -f '%e %M' -o "$tf" "$@" >"$out" 2>"$BENCH_DIR/.err.$id" || rc=$?
		if [[ $rc != 0 && $rc != 3 ]]; then
			ROWS+=("| $label | $(size_of "$input") | failed (exit $rc) | | $(head -c 200 "$BENCH_DIR/.err.$id" | tr '\n|' '  ') |")
			return
		fi
		read -r w m <"$tf"
		walls+=("$w")
		rss+=("$m")
	done
	if [[ $id == pi-* ]]; then extra=$(tail -n 1 "$out" | tr '|' ' '); fi
	local mw mr
	mw=$(printf '%s\n' "${walls[@]}" | median)
	mr=$(printf '%s\n' "${rss[@]}" | median)
	ROWS+=("| $label | $(size_of "$input") | $mw | $(awk -v k="$mr" 'BEGIN{printf "%.1f", k/1024}') | ${RUNS} runs: ${walls[*]} s $extra |")
}
na() { ROWS+=("| $1 | $(size_of "$2") | n/a | n/a | $3 |"); }

if want wc; then measure wc "\`wc -l\`" "$BIG" wc -l "$BIG"; fi
for c in tree show; do
	want "$c" || continue
	if has_cmd "$c"; then
		measure "$c" "\`sessctl $c --json\`" "$BIG" "$BIN" "$c" --json "$BIG"
	else
		na "\`sessctl $c --json\`" "$BIG" "command not available yet"
	fi
done
if want list; then
	if has_cmd list; then
		# sessctl keeps a listing cache under $XDG_CACHE_HOME/sessctl: time it
		# without (removed before every run), then with (left by the last run).
		measure list-cold "\`sessctl list --json\` ($HOME_SESSIONS sessions, no list cache)" "$PIHOME" \
			bash -c 'rm -rf -- "$1/.cache/sessctl" && HOME=$1 XDG_CACHE_HOME=$1/.cache exec "$2" list --json' _ "$PIHOME" "$BIN"
		measure list-warm "\`sessctl list --json\` ($HOME_SESSIONS sessions, list cache present)" "$PIHOME" \
			env HOME="$PIHOME" XDG_CACHE_HOME="$PIHOME/.cache" "$BIN" list --json
	else
		na "\`sessctl list --json\` ($HOME_SESSIONS sessions)" "$PIHOME" "command not available yet"
	fi
fi
if want pi-open; then
	if [[ $have_pi == 1 ]]; then
		measure pi-open "pi SessionManager.open + buildSessionContext (node)" "$MID" node bench/node/pi-open.mjs --pkg "$PI_PKG" "$MID"
		if has_cmd show; then measure show-mid "\`sessctl show --json\` (same file)" "$MID" "$BIN" show --json "$MID"; fi
	else
		na "pi loader (node)" "$MID" "set PI_PKG to an installed pi-coding-agent package"
	fi
fi
if want pi-list; then
	if [[ $have_pi == 1 && -f bench/node/pi-listall.mjs ]]; then
		measure pi-list "pi SessionManager.listAll (node)" "$PIHOME" node bench/node/pi-listall.mjs --pkg "$PI_PKG" "$PIHOME/.pi/agent"
	else
		na "pi listAll (node)" "$PIHOME" "set PI_PKG to an installed pi-coding-agent package"
	fi
fi

echo "Machine: $(nproc) vCPU, $(awk '/MemTotal/ {printf "%.0f GiB", $2/1048576}' /proc/meminfo), $(go version | cut -d' ' -f3-), $(date -u +%Y-%m-%dT%H:%MZ); hot page cache; median of $RUNS runs."
echo
echo "| command | input | wall s (median) | peak RSS MB (median) | notes |"
echo "|---|---:|---:|---:|---|"
printf '%s\n' "${ROWS[@]}"
