#!/usr/bin/env bash
# bench/search.sh — `sessctl search` next to ripgrep on the same generated
# home of 2,000 pi sessions (about 2 GB), for docs/benchmarks.md (never CI).
#
# Each case runs RUNS times, rg and sessctl alternating in one loop so that
# both see the same machine load; the page cache is warm for both (a first
# untimed pass reads every file). sessctl runs twice per round: with a warm
# list cache (written by a `sessctl list` before the loop) and with a cold
# one (the cache file removed before the run). Reported: median wall time
# and median CPU time (user+sys) per tool, the ratio sessctl/rg of the
# medians, and the machine's load average when the case started.
#
# Environment:
#   BENCH_DIR  where the home is generated  (default /tmp/sessctl-bench-data)
#   RUNS       rounds per case               (default 5)
#   SESSIONS / SIZE                          (default 2000 / 2GB)
#   SESSCTL    a sessctl binary to time instead of building this tree
#   ONLY       space-separated case numbers to run (default: 1 2 3 4 5 6 7)
#
# rg is run as `rg -uuu` (no ignore files, hidden folders searched: the
# sessions live under ~/.pi) with -F; it searches the raw bytes, so it can
# not find text split by a JSON escape — sessctl searches the decoded text.
set -euo pipefail
cd "$(dirname "$0")/.."
export GOTOOLCHAIN=local

BENCH_DIR=${BENCH_DIR:-/tmp/sessctl-bench-data}
RUNS=${RUNS:-5}
SESSIONS=${SESSIONS:-2000}
SIZE=${SIZE:-2GB}
HOMEDIR=$BENCH_DIR/pihome-$SESSIONS-$SIZE
BIN=$BENCH_DIR/sessctl-search
TIME=/usr/bin/time

command -v rg >/dev/null || { echo "bench: ripgrep missing (apt-get install ripgrep)" >&2; exit 1; }
[[ -x $TIME ]] || { echo "bench: GNU time missing (apt-get install time)" >&2; exit 1; }
mkdir -p "$BENCH_DIR"
if [[ ! -d $HOMEDIR ]]; then
	echo "bench: generating $HOMEDIR" >&2
	go run ./bench/gen -kind pihome -sessions "$SESSIONS" -size "$SIZE" -seed 3 -out "$HOMEDIR.tmp"
	mv "$HOMEDIR.tmp" "$HOMEDIR"
fi
if [[ -n ${SESSCTL:-} ]]; then BIN=$SESSCTL; else go build -o "$BIN" ./cmd/sessctl; fi

export HOME=$HOMEDIR XDG_CONFIG_HOME=$BENCH_DIR/config-none
CACHE=$BENCH_DIR/search-cache
export XDG_CACHE_HOME=$CACHE
SESS=$HOMEDIR/.pi/agent/sessions

cat "$SESS"/*/*.jsonl >/dev/null # warm the page cache
[[ -d $CACHE.keep && ! -d $CACHE ]] && mv "$CACHE.keep" "$CACHE" # an interrupted run
rm -rf "$CACHE.keep"
"$BIN" list --no-config >/dev/null # the warm list cache (kept if fresh)

# measure NAME CMD... : one timed run; appends "wall cpu" to $OUT/NAME
OUT=$(mktemp -d)
measure() {
	local name=$1; shift
	$TIME -o "$OUT/t" -f '%e %U %S' "$@" >/dev/null 2>/dev/null || true
	tail -1 "$OUT/t" | awk '{printf "%s %.2f\n", $1, $2 + $3}' >>"$OUT/$name"
}
median() { sort -n | awk '{a[NR]=$1} END {print (NR%2) ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2}'; }

printf '| case | load (1 min) | rg wall s | rg cpu s | sessctl warm wall s | cpu s | sessctl cold wall s | cpu s | warm / rg (wall) | cold / rg (wall) |\n'
printf '| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |\n'
runcase() { # runcase LABEL "RG ARGS" "SESSCTL ARGS"
	local label=$1 rgargs=$2 sargs=$3
	local load
	load=$(cut -d' ' -f1 /proc/loadavg)
	rm -f "$OUT"/rg "$OUT"/warm "$OUT"/cold
	for ((i = 0; i < RUNS; i++)); do
		eval "measure rg rg -uuu $rgargs $SESS"
		eval "measure warm $BIN search --no-config $sargs"
		mv "$CACHE" "$CACHE.keep"
		eval "measure cold $BIN search --no-config $sargs"
		rm -rf "$CACHE"; mv "$CACHE.keep" "$CACHE"
	done
	local rw rc ww wc cw cc
	rw=$(cut -d' ' -f1 "$OUT/rg" | median); rc=$(cut -d' ' -f2 "$OUT/rg" | median)
	ww=$(cut -d' ' -f1 "$OUT/warm" | median); wc=$(cut -d' ' -f2 "$OUT/warm" | median)
	cw=$(cut -d' ' -f1 "$OUT/cold" | median); cc=$(cut -d' ' -f2 "$OUT/cold" | median)
	printf '| %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |\n' "$label" "$load" "$rw" "$rc" "$ww" "$wc" "$cw" "$cc" \
		"$(awk -v a="$ww" -v b="$rw" 'BEGIN{printf "%.2f", a/b}')" "$(awk -v a="$cw" -v b="$rw" 'BEGIN{printf "%.2f", a/b}')"
}

ONLY=${ONLY:-1 2 3 4 5 6 7}
want() { [[ " $ONLY " == *" $1 "* ]]; }
want 1 && runcase '`Kubernetes` (no match)' "-F -l Kubernetes" "-l Kubernetes"
want 2 && runcase '`-i kubernetes` (no match)' "-F -i -l kubernetes" "-i -l kubernetes"
want 3 && runcase '`bench session 3000432` (1 session; title)' "-F -l 'bench session 3000432'" "--in all -l 'bench session 3000432'"
want 4 && runcase '`-l fmt.Println(x)` (every session)' "-F -l 'fmt.Println(x)'" "-l 'fmt.Println(x)'"
want 5 && runcase '`-E Kube(rnetes\|ctl)` (no match)' "-l 'Kube(rnetes|ctl)'" "-E -l 'Kube(rnetes|ctl)'"
want 6 && runcase '`bench session 30004` (100 sessions, 5 %; title)' "-F -l 'bench session 30004'" "--in all -l 'bench session 30004'"
want 7 && runcase '`bench session 3001` (999 sessions, 50 %; title)' "-F -l 'bench session 3001'" "--in all -l 'bench session 3001'"
rm -rf "$OUT"
echo "machine: $(nproc) cores; $(uname -sr); $(rg --version | head -1)" >&2
