#!/usr/bin/env bash
# Times the blob-gc mark phase (internal/blob.Mark) against `grep -c blob:sha256`
# over the same synthetic session files. Median of 3 runs, page cache warm.
#
# Usage: bench/blob-mark.sh [SIZE] [DIR]
#   SIZE  total size of generated session JSONL (default 5G; K/M/G suffix)
#   DIR   where to generate it (default /tmp/sessctl-blob-mark; never commit it)
#
# The data is generated once per DIR+SIZE (internal/blob/blobbench) and kept
# for reruns; delete DIR to free the space.
set -euo pipefail

size=${1:-5G}
dir=${2:-/tmp/sessctl-blob-mark}
repo=$(cd "$(dirname "$0")/.." && pwd)
export GOTOOLCHAIN=local LC_ALL=C

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
(cd "$repo" && go build -o "$tmp/blobmark" ./internal/blob/cmd/blobmark)

if [ ! -e "$dir.generated-$size" ]; then
	rm -rf "$dir"
	echo "generating $size of session files in $dir ..." >&2
	"$tmp/blobmark" gen -dir "$dir" -size "$size" >&2
	touch "$dir.generated-$size"
fi

bytes=$(find "$dir" -type f -printf '%s\n' | awk '{s += $1} END {printf "%.0f\n", s}')
files=$(find "$dir" -type f | wc -l)
echo "data: $files files, $bytes bytes in $dir" >&2
# Warm the page cache so every contender reads from memory.
find "$dir" -type f -exec cat {} + | wc -c >/dev/null

# run NAME CMD...: prints "NAME wall user sys" (seconds).
run() {
	local name=$1
	shift
	/usr/bin/time -o "$tmp/time" -f '%e %U %S' "$@" >"$tmp/out"
	echo "$name $(cat "$tmp/time")"
}

: >"$tmp/results"
for i in 1 2 3; do
	run mark-2-workers "$tmp/blobmark" mark -dir "$dir" -workers 2 >>"$tmp/results"
	cp "$tmp/out" "$tmp/mark.json"
	run mark-1-worker "$tmp/blobmark" mark -dir "$dir" -workers 1 >>"$tmp/results"
	# Output goes to a file: GNU grep stops at the first match when stdout
	# is /dev/null, which would make it look impossibly fast.
	run grep-c grep -rc blob:sha256 "$dir" >>"$tmp/results"
	cp "$tmp/out" "$tmp/grep.out"
done

echo "mark: $(cat "$tmp/mark.json")" >&2
echo "grep: $(awk -F: '{s += $NF} END {print s}' "$tmp/grep.out") matching lines" >&2
echo "runs (name wall user sys):" >&2
sed 's/^/  /' "$tmp/results" >&2
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg)  cpus: $(nproc)" >&2
printf '%-16s %10s %10s %10s %12s\n' what wall_s cpu_s MB/s MB/cpu_s
median() { sort -n | sed -n 2p; }
for name in mark-2-workers mark-1-worker grep-c; do
	wall=$(awk -v n="$name" '$1 == n {print $2}' "$tmp/results" | median)
	cpu=$(awk -v n="$name" '$1 == n {print $3 + $4}' "$tmp/results" | median)
	awk -v n="$name" -v b="$bytes" -v w="$wall" -v c="$cpu" \
		'BEGIN {printf "%-16s %10.3f %10.3f %10.0f %12.0f\n", n, w, c, b / 1e6 / w, b / 1e6 / c}'
done
