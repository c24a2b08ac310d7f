#!/usr/bin/env bash
# bench/scale.sh — how time and memory grow with the size of one pi session
# (docs/benchmarks.md section 9, "Scaling"; never CI).
#
# Generates deterministic pi sessions of each size in SIZES with bench/gen
# (once; kept in BENCH_DIR unless CLEAN=1), warms the page cache, and runs
# each command RUNS times per size, sizes interleaved within a run so that
# every size sees the same machine load. It prints, per size and command,
# the median wall time, median CPU time (user + sys), median peak RSS (GNU
# time), and the two figures that show whether growth is linear: CPU seconds
# per GiB and peak RSS as a percentage of the file. The load average is
# printed before and after: on a shared machine the CPU figures are the
# ones to compare, wall times are only meaningful on an idle one.
#
# Environment:
#   BENCH_DIR   where inputs go (default /tmp/sessctl-bench-data)
#   SIZES       sizes to run (default "10MB 100MB 1GB 4GB"; bench/gen units)
#   RUNS        runs per size and command (default 3)
#   CMDS        commands, separated by ";" (default "tree --json;show --json;check")
#   WC          1 (default) also times `wc -l` on each file, the floor
#   SESSCTL_BIN the binary to time (default: built from this tree into
#               /tmp/sessctl-scale)
#   CLEAN       1: delete the inputs this run generated when done (the 4 GB
#               file is 4 GiB of /tmp)
#
#   bash bench/scale.sh
#   SIZES="1GB 4GB" RUNS=5 CLEAN=1 bash bench/scale.sh
set -euo pipefail
cd "$(dirname "$0")/.."
export GOTOOLCHAIN=local

BENCH_DIR=${BENCH_DIR:-/tmp/sessctl-bench-data}
SIZES=${SIZES:-10MB 100MB 1GB 4GB}
RUNS=${RUNS:-3}
CMDS=${CMDS:-tree --json;show --json;check}
WC=${WC:-1}
CLEAN=${CLEAN:-0}
TIME=/usr/bin/time
[[ -x $TIME ]] || { echo "scale.sh: GNU time is required (apt-get install time)" >&2; exit 1; }
mkdir -p "$BENCH_DIR"

BIN=${SESSCTL_BIN:-}
if [[ -z $BIN ]]; then
	BIN=/tmp/sessctl-scale
	go build -o "$BIN" ./cmd/sessctl
fi

bytes_of() { # bench/gen size units (powers of 1024) to bytes
	awk -v s="$1" 'BEGIN{n=s+0; u=toupper(s); sub(/^[0-9.]+/, "", u);
		m=(u=="GB")?2^30:(u=="MB")?2^20:(u=="KB")?2^10:1; printf "%.0f", n*m}'
}

GENERATED=()
cleanup() { if [[ $CLEAN == 1 ]]; then for f in "${GENERATED[@]}"; do rm -f -- "$f"; done; fi; }
trap cleanup EXIT

FILES=()
for s in $SIZES; do
	f=$BENCH_DIR/pi-$s.jsonl
	if [[ ! -e $f ]]; then
		need=$(($(bytes_of "$s") / 1048576 + 64))
		avail=$(df -Pm "$BENCH_DIR" | awk 'NR==2{print $4}')
		if ((avail < need)); then
			echo "scale.sh: $need MiB needed for $f, $avail MiB free in $BENCH_DIR" >&2
			exit 1
		fi
		echo "scale.sh: generating $f" >&2
		go run ./bench/gen -kind pi -size "$s" -seed 1 -out "$f.tmp"
		mv "$f.tmp" "$f"
		GENERATED+=("$f")
	fi
	FILES+=("$f")
done

IFS=';' read -r -a CMDLIST <<<"$CMDS"
LABELS=()
[[ $WC == 1 ]] && LABELS+=("WC")
LABELS+=("${CMDLIST[@]}")

median() { sort -g | awk '{a[NR]=$1} END {if (NR==0) print "n/a"; else if (NR%2) print a[(NR+1)/2]; else printf "%.2f\n", (a[NR/2]+a[NR/2+1])/2}'; }

echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg); $(nproc) CPUs; $(awk '/MemTotal/ {printf "%.0f GiB", $2/1048576}' /proc/meminfo); $(date -u +%FT%TZ); $BIN"
echo
echo "| input | entries | command | wall s (median) | CPU s (median) | peak RSS MB (median) | CPU s per GiB | RSS % of file | wall s, every run |"
echo "|---|---:|---|---:|---:|---:|---:|---:|---|"
declare -A W=() C=() M=()
tf=$BENCH_DIR/.time.scale
for f in "${FILES[@]}"; do cat -- "$f" >/dev/null; done # warm the page cache
for ((i = 0; i < RUNS; i++)); do
	for f in "${FILES[@]}"; do
		cat -- "$f" >/dev/null # keep it warm (the larger files may have pushed it out)
		for l in "${LABELS[@]}"; do
			if [[ $l == WC ]]; then
				"$TIME" -f '%e %U %S %M' -o "$tf" wc -l "$f" >/dev/null
			else
				rc=0
				# shellcheck disable=SC2086
				"$TIME" -f '%e %U %S %M' -o "$tf" "$BIN" --no-config $l "$f" >/dev/null 2>"$tf.err" || rc=$?
				if [[ $rc != 0 && $rc != 3 ]]; then # 3: problems found (check)
					echo "scale.sh: $BIN $l $f: exit $rc: $(head -c 300 "$tf.err")" >&2
					exit 1
				fi
			fi
			read -r w u s m <"$tf"
			k="$f|$l"
			W[$k]+="$w "
			C[$k]+="$(awk -v u="$u" -v s="$s" 'BEGIN{print u+s}') "
			M[$k]+="$m "
		done
	done
done
for f in "${FILES[@]}"; do
	size=$(stat -c %s "$f")
	lines=$(wc -l <"$f")
	for l in "${LABELS[@]}"; do
		k="$f|$l"
		mw=$(printf '%s\n' ${W[$k]} | median)
		mc=$(printf '%s\n' ${C[$k]} | median)
		mm=$(printf '%s\n' ${M[$k]} | median)
		label="sessctl $l"
		[[ $l == WC ]] && label="wc -l"
		awk -v f="$(basename "$f")" -v sz="$size" -v n="$lines" -v l="$label" -v w="$mw" -v c="$mc" -v m="$mm" -v all="${W[$k]}" \
			'BEGIN{printf "| %s (%.0f MiB) | %d | `%s` | %s | %s | %.0f | %.2f | %.1f | %s|\n", f, sz/2^20, n, l, w, c, m/1024, c/(sz/2^30), 100*m*1024/sz, all}'
	done
done
echo
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg); $(date -u +%FT%TZ)"
