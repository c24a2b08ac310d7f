#!/usr/bin/env bash
# bench/listloop.sh — `sessctl list` first run, several binaries side by side
# (docs/benchmarks.md sections 15 and 16). Never run by CI.
#
# Each round runs every binary once, in turn, with a fresh empty
# XDG_CACHE_HOME (a first run), so all of them see the same machine load;
# then prints per binary the median wall time, CPU time (user + sys) and
# peak RSS, and every wall time sorted.
#
#   ROUNDS=21 bash bench/listloop.sh start=/tmp/sessctl-start final=bin/sessctl
#
# Environment: HOME_DIR (default /tmp/sessctl-bench-data/pihome-2000-2GB,
# made by `go run ./bench/gen -kind pihome -sessions 2000 -size 2GB -seed 3
# -out …`), ROUNDS (default 9). Needs GNU time.
set -euo pipefail
H=${HOME_DIR:-/tmp/sessctl-bench-data/pihome-2000-2GB}
ROUNDS=${ROUNDS:-9}
[[ -d $H ]] || { echo "listloop: no home at $H (see the header for how to make it)" >&2; exit 1; }
[[ $# -gt 0 ]] || { echo "usage: ROUNDS=N bench/listloop.sh name=binary ..." >&2; exit 2; }
out=$(mktemp)
trap 'rm -f "$out"' EXIT
for _ in $(seq "$ROUNDS"); do
	for nb in "$@"; do
		c=$(mktemp -d)
		HOME=$H XDG_CACHE_HOME=$c /usr/bin/time -f "${nb%%=*} %e %U %S %M" "${nb#*=}" list >/dev/null 2>>"$out"
		rm -rf "$c"
	done
done
median() { sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }
for nb in "$@"; do
	n=${nb%%=*}
	rows=$(grep "^$n " "$out")
	printf '%s wall %.2f cpu %.2f rss %dMB (n=%d) walls: %s\n' "$n" \
		"$(awk '{ print $2 }' <<<"$rows" | median)" \
		"$(awk '{ print $3 + $4 }' <<<"$rows" | median)" \
		"$(( $(awk '{ print $5 }' <<<"$rows" | median) / 1024 ))" \
		"$(wc -l <<<"$rows")" \
		"$(awk '{ print $2 }' <<<"$rows" | sort -n | tr '\n' ' ')"
done
