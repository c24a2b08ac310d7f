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
# medians, the sessions each tool printed (last run: rg / sessctl cold),
# and the machine's load average when the case started.
#
# Times are in milliseconds. With `perf stat` at hand (Debian linux-perf),
# the wall time is perf's "time elapsed" (nanoseconds) and the CPU time the
# user and system seconds it reports (microseconds). Without it (or with
# TIMER=time), the wall time is bash's $EPOCHREALTIME around the run
# (microseconds; GNU time's own fork and exec are inside it, for both tools
# alike) and the CPU time GNU time's (10 ms steps).
#
# Environment:
#   BENCH_DIR  where the home is generated  (default /tmp/sessctl-bench-data)
#   RUNS       rounds per case               (default 5)
#   SESSIONS / SIZE                          (default 2000 / 2GB)
#   SESSCTL    a sessctl binary to time instead of building this tree
#   ONLY       space-separated case numbers to run (default: 1 2 3 4 5 6 7 8)
#   TIMER      perf or time                  (default: perf when `perf stat` works)
#
# rg is run as `rg -uuu` (no ignore files, hidden folders searched: the
# sessions live under ~/.pi) with -F; it searches the raw bytes, so it can
# not find text split by a JSON escape — sessctl searches the decoded text.
# Case 8 (-l --titles) is there to record what a title costs: a session's
# title can be its last line, so without the list cache every matching
# session is read whole (then its title is kept in the cache); it is not
# expected near rg cold.
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
if [[ -z ${TIMER:-} ]]; then
	TIMER=time
	if perf stat -o /dev/null -e task-clock true 2>/dev/null; then TIMER=perf; fi
fi
[[ $TIMER == perf || -x $TIME ]] || { echo "bench: GNU time missing (apt-get install time)" >&2; exit 1; }
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

# measure NAME CMD... : one timed run; appends "wall-ms cpu-ms" to $OUT/NAME
# and writes the number of lines it printed to $OUT/NAME.n
OUT=$(mktemp -d)
measure() {
	local name=$1; shift
	if [[ $TIMER == perf ]]; then
		perf stat -o "$OUT/t" -e task-clock "$@" >"$OUT/stdout" 2>/dev/null || true
		awk '/seconds time elapsed/ {w = $1} / seconds user/ {u = $1} / seconds sys/ {s = $1}
			END {printf "%.3f %.3f\n", w * 1000, (u + s) * 1000}' "$OUT/t" >>"$OUT/$name"
	else
		local t0 t1
		t0=$EPOCHREALTIME
		$TIME -o "$OUT/t" -f '%U %S' "$@" >"$OUT/stdout" 2>/dev/null || true
		t1=$EPOCHREALTIME
		tail -1 "$OUT/t" | awk -v a="$t0" -v b="$t1" '{printf "%.3f %.3f\n", (b - a) * 1000, ($1 + $2) * 1000}' >>"$OUT/$name"
	fi
	wc -l <"$OUT/stdout" | tr -d ' ' >"$OUT/$name.n"
}
median() { sort -n | awk '{a[NR]=$1} END {printf "%.1f", (NR%2) ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2}'; }

printf '| case | load (1 min) | sessions (rg / sessctl) | rg wall ms | rg cpu ms | sessctl warm wall ms | cpu ms | sessctl cold wall ms | cpu ms | warm / rg (wall) | cold / rg (wall) |\n'
printf '| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |\n'
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
	printf '| %s | %s | %s / %s | %s | %s | %s | %s | %s | %s | %s | %s |\n' "$label" "$load" "$(cat "$OUT/rg.n")" "$(cat "$OUT/cold.n")" \
		"$rw" "$rc" "$ww" "$wc" "$cw" "$cc" \
		"$(awk -v a="$ww" -v b="$rw" 'BEGIN{printf "%.2f", a/b}')" "$(awk -v a="$cw" -v b="$rw" 'BEGIN{printf "%.2f", a/b}')"
}

ONLY=${ONLY:-1 2 3 4 5 6 7 8}
want() { [[ " $ONLY " == *" $1 "* ]]; }
want 1 && runcase '`Kubernetes` (no match)' "-F -l Kubernetes" "-l Kubernetes"
want 2 && runcase '`-i kubernetes` (no match)' "-F -i -l kubernetes" "-i -l kubernetes"
want 3 && runcase '`bench session 3000432` (1 session; title)' "-F -l 'bench session 3000432'" "--in all -l 'bench session 3000432'"
want 4 && runcase '`-l fmt.Println(x)` (every session)' "-F -l 'fmt.Println(x)'" "-l 'fmt.Println(x)'"
want 5 && runcase '`-E Kube(rnetes\|ctl)` (no match)' "-l 'Kube(rnetes|ctl)'" "-E -l 'Kube(rnetes|ctl)'"
want 6 && runcase '`bench session 30004` (100 sessions, 5 %; title)' "-F -l 'bench session 30004'" "--in all -l 'bench session 30004'"
want 7 && runcase '`bench session 3001` (999 sessions, 50 %; title)' "-F -l 'bench session 3001'" "--in all -l 'bench session 3001'"
want 8 && runcase '`-l --titles fmt.Println(x)` (every session)' "-F -l 'fmt.Println(x)'" "-l --titles 'fmt.Println(x)'"
rm -rf "$OUT"
echo "machine: $(nproc) cores; $(uname -sr); $(rg --version 2>/dev/null | head -1); timer: $TIMER" >&2
