#!/usr/bin/env bash
# bench/compare.sh — time sessctl binaries side by side on the same inputs
# (docs/benchmarks.md, "Pathological input" and "Parallel index"; never CI).
#
# Every run of a command runs each binary once, in turn, so that all of them
# see the same machine load; the table gives, per binary, the median wall
# time, the median CPU time (user + sys) and the median peak RSS (GNU time)
# of RUNS runs, with every wall time listed. The load average is printed
# before and after.
#
# Environment:
#   BENCH_DIR  where inputs go (default /tmp/sessctl-bench-data); generated
#              once with bench/gen, never committed
#   RUNS       runs per command and binary (default 5)
#   BINS       "label=path ..." binaries to compare (default: new=<built
#              from this tree into /tmp/sessctl-compare>); e.g. a baseline
#              from `git worktree add /tmp/base <commit> && (cd /tmp/base &&
#              go build -o /tmp/sessctl-base ./cmd/sessctl)`
#   SET        which inputs and commands: patho (5M tiny lines and one 200 MB
#              line: tree, show, check) or big (1 GiB pi session: wc -l,
#              tree --json, show --json, check) (default patho)
#
#   BINS="base=/tmp/sessctl-base new=/tmp/sessctl-new" RUNS=5 bash bench/compare.sh
set -euo pipefail
cd "$(dirname "$0")/.."
export GOTOOLCHAIN=local

BENCH_DIR=${BENCH_DIR:-/tmp/sessctl-bench-data}
RUNS=${RUNS:-5}
SET=${SET:-patho}
TIME=/usr/bin/time
[[ -x $TIME ]] || { echo "compare.sh: GNU time is required (apt-get install time)" >&2; exit 1; }
mkdir -p "$BENCH_DIR"
if [[ -z ${BINS:-} ]]; then
	go build -o /tmp/sessctl-compare ./cmd/sessctl
	BINS="new=/tmp/sessctl-compare"
fi

gen() { # gen OUT ARGS...: generate OUT once
	local out=$1
	shift
	[[ -e $out ]] && return 0
	echo "compare.sh: generating $out" >&2
	go run ./bench/gen "$@" -out "$out.tmp"
	mv "$out.tmp" "$out"
}

CASES=() # "label|input|args"
case $SET in
patho)
	TINY=$BENCH_DIR/tiny-5M.jsonl
	LONG=$BENCH_DIR/line-200MB.jsonl
	gen "$TINY" -kind tiny -lines 5000000
	gen "$LONG" -kind longline -size 200MB
	for f in "$TINY" "$LONG"; do
		for c in tree show check; do CASES+=("sessctl $c|$f|$c"); done
	done
	;;
big)
	BIG=$BENCH_DIR/pi-1GB.jsonl
	gen "$BIG" -kind pi -size 1GB -seed 1
	CASES+=("wc -l|$BIG|WC" "sessctl tree --json|$BIG|tree --json" "sessctl show --json|$BIG|show --json" "sessctl check|$BIG|check")
	;;
*)
	echo "compare.sh: SET is patho or big" >&2
	exit 2
	;;
esac

median() { sort -g | awk '{a[NR]=$1} END {if (NR==0) print "n/a"; else if (NR%2) print a[(NR+1)/2]; else printf "%.2f\n", (a[NR/2]+a[NR/2+1])/2}'; }

echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg); $(nproc) CPUs; $(date -u +%FT%TZ)"
echo
echo "| command | input | binary | wall s (median) | CPU s (median) | peak RSS MB (median) | wall s, every run |"
echo "|---|---|---|---:|---:|---:|---|"
for c in "${CASES[@]}"; do
	IFS='|' read -r label input args <<<"$c"
	cat -- "$input" >/dev/null # warm the page cache
	declare -A W=() U=() M=()
	for ((i = 0; i < RUNS; i++)); do
		for b in $BINS; do
			name=${b%%=*} bin=${b#*=}
			tf=$BENCH_DIR/.time.compare
			if [[ $args == WC ]]; then
				"$TIME" -f '%e %U %S %M' -o "$tf" wc -l "$input" >/dev/null
			else
				# shellcheck disable=SC2086
				"$TIME" -f '%e %U %S %M' -o "$tf" "$bin" --no-config $args "$input" >/dev/null 2>&1 || true
			fi
			read -r w u s m <"$tf"
			W[$name]+="$w "
			U[$name]+="$(awk -v u="$u" -v s="$s" 'BEGIN{print u+s}') "
			M[$name]+="$m "
		done
	done
	for b in $BINS; do
		name=${b%%=*}
		[[ $args == WC && $name != "${BINS%%=*}" ]] && continue
		mw=$(printf '%s\n' ${W[$name]} | median)
		mu=$(printf '%s\n' ${U[$name]} | median)
		mm=$(printf '%s\n' ${M[$name]} | median)
		bl=$name
		[[ $args == WC ]] && bl="-"
		echo "| \`$label\` | $(basename "$input") ($(($(stat -c %s "$input") >> 20)) MiB) | $bl | $mw | $mu | $(awk -v k="$mm" 'BEGIN{printf "%.0f", k/1024}') | ${W[$name]}|"
	done
	unset W U M
done
echo
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg); $(date -u +%FT%TZ)"
