#!/usr/bin/env bash
# bench/pgo.sh — remake cmd/sessctl/default.pgo, the CPU profile the Go
# compiler uses for profile-guided optimisation (go build picks it up by
# itself: -pgo=auto). Never run by CI; the profile is committed.
#
# The profile is of sessctl's hot paths on generated sessions: `list` over
# a home of 2,000 pi sessions (first run, empty cache; bench/list.sh's
# home) and `show --json`, `tree --json` and `check` on a 100 MB pi
# session, each run $RUNS times with $SESSCTL_CPUPROFILE set, merged with
# `go tool pprof -proto`. docs/benchmarks.md section 15 gives what it buys.
#
# Environment: BENCH_DIR (default /tmp/sessctl-bench-data), RUNS (4).
set -euo pipefail
cd "$(dirname "$0")/.."
export GOTOOLCHAIN=local

BENCH_DIR=${BENCH_DIR:-/tmp/sessctl-bench-data}
RUNS=${RUNS:-4}
HOMEDIR=$BENCH_DIR/pihome-2000-2GB
FILE=$BENCH_DIR/pi-100MB.jsonl
mkdir -p "$BENCH_DIR"
if [[ ! -d $HOMEDIR ]]; then
	go run ./bench/gen -kind pihome -sessions 2000 -size 2GB -seed 3 -out "$HOMEDIR.tmp"
	mv "$HOMEDIR.tmp" "$HOMEDIR"
fi
if [[ ! -f $FILE ]]; then
	go run ./bench/gen -kind pi -size 100MB -seed 1 -out "$FILE.tmp"
	mv "$FILE.tmp" "$FILE"
fi

WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
# Built without the old profile, so the new one describes unoptimised code.
go build -pgo=off -o "$WORK/sessctl" ./cmd/sessctl
profiles=()
for ((i = 0; i < RUNS; i++)); do
	mkdir "$WORK/cache$i"
	HOME=$HOMEDIR XDG_CACHE_HOME=$WORK/cache$i SESSCTL_CPUPROFILE=$WORK/list$i.prof \
		"$WORK/sessctl" list >/dev/null
	for cmd in "show --json" "tree --json" "check"; do
		name=${cmd%% *}
		SESSCTL_CPUPROFILE=$WORK/$name$i.prof "$WORK/sessctl" $cmd "$FILE" >/dev/null || true
	done
	profiles+=("$WORK/list$i.prof" "$WORK/show$i.prof" "$WORK/tree$i.prof" "$WORK/check$i.prof")
done
go tool pprof -proto "${profiles[@]}" >"$WORK/merged.pgo"
mv "$WORK/merged.pgo" cmd/sessctl/default.pgo
echo "bench: wrote cmd/sessctl/default.pgo ($(wc -c <cmd/sessctl/default.pgo) bytes) from ${#profiles[@]} profiles" >&2
