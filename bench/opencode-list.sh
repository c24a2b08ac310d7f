#!/usr/bin/env bash
# bench/opencode-list.sh — `sessctl list --agent opencode` over an OpenCode
# database of 5,000 sessions, 100,000 messages and 500,000 parts, next to
# `opencode session list --format json` on the same data. Never run by CI.
#
# The database is generated once (BenchmarkList in internal/format/opencode
# writes it from the schema of the opencode-ai fixture) under $BENCH_DIR,
# default /tmp/sessctl-opencode-bench. Each command runs $RUNS times after a
# warm-up; the median wall time, CPU time and peak RSS are printed.
#
# OpenCode's own listing needs its binary: OPENCODE_BIN, else the npm package
# opencode-ai installed under $OPENCODE_NPM_DIR (default
# /tmp/sessctl-opencode-npm; installed on demand when npm is present). It
# runs on a copy of the database (OpenCode opens it read-write and may
# migrate it) with HOME and XDG folders inside $BENCH_DIR, so it never sees
# a real install. SESSCTL_BIN times a given sessctl build.
set -euo pipefail
cd "$(dirname "$0")/.."
export GOTOOLCHAIN=local

BENCH_DIR=${BENCH_DIR:-/tmp/sessctl-opencode-bench}
RUNS=${RUNS:-5}
BIN=${SESSCTL_BIN:-/tmp/sessctl-opencode-list-bench}
NPM_DIR=${OPENCODE_NPM_DIR:-/tmp/sessctl-opencode-npm}
TIME=/usr/bin/time
[[ -x $TIME ]] || { echo "bench: GNU time is required (apt-get install time)" >&2; exit 1; }

DB=$BENCH_DIR/data/opencode/opencode.db
if [[ ! -f $DB ]]; then
	echo "bench: generating $DB" >&2
	SESSCTL_BENCH_OPENCODE=$BENCH_DIR go test ./internal/format/opencode -run '^$' -bench '^BenchmarkList$' -benchtime 1x -timeout 30m >/dev/null
fi
[[ -n ${SESSCTL_BIN:-} ]] || go build -o "$BIN" ./cmd/sessctl
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT

median() { sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }

# run LABEL CMD...: warm-up, then $RUNS timed runs; prints a table row.
run() {
	local label=$1
	shift
	"$@" >"$WORK/out.json" 2>"$WORK/stderr.out" || { echo "bench: $label failed:" >&2; tail -5 "$WORK/stderr.out" >&2; return; }
	local rows walls=() cpus=() rss=()
	rows=$(grep -Eo '"id": ?"ses_' "$WORK/out.json" | wc -l || true)
	for ((i = 0; i < RUNS; i++)); do
		$TIME -o "$WORK/time.out" -f '%e %U %S %M' "$@" >/dev/null 2>/dev/null
		read -r w u s m < <(tail -1 "$WORK/time.out")
		walls+=("$w")
		cpus+=("$(awk -v u="$u" -v s="$s" 'BEGIN {printf "%.2f", u + s}')")
		rss+=("$m")
	done
	printf '| %s | %s | %s | %s | %s MiB |\n' "$label" "$rows" \
		"$(printf '%s\n' "${walls[@]}" | median)" \
		"$(printf '%s\n' "${cpus[@]}" | median)" \
		"$(printf '%s\n' "${rss[@]}" | median | awk '{printf "%.0f", $1 / 1024}')"
}

sessions=$(sqlite3 "$DB" 'select count(*) from session' 2>/dev/null || echo 5000)
parts=$(sqlite3 "$DB" 'select count(*) from part' 2>/dev/null || echo 500000)
echo "OpenCode database: $DB ($(du -h "$DB" | cut -f1), $sessions sessions, $parts parts)"
echo
echo "| command | sessions listed | wall s | CPU s | peak RSS |"
echo "|---|---:|---:|---:|---:|"
run "sessctl list --agent opencode --json" \
	env HOME="$BENCH_DIR/home" XDG_DATA_HOME="$BENCH_DIR/data" XDG_CACHE_HOME="$WORK/cache" "$BIN" list --agent opencode --json --no-cache

if [[ -z ${OPENCODE_BIN:-} ]]; then
	if ! ls "$NPM_DIR"/node_modules/opencode-linux-*/bin/opencode >/dev/null 2>&1 && command -v npm >/dev/null; then
		mkdir -p "$NPM_DIR"
		(cd "$NPM_DIR" && npm install --no-audit --no-fund --silent opencode-ai >/dev/null 2>&1) || true
	fi
	OPENCODE_BIN=$(ls "$NPM_DIR"/node_modules/opencode-linux-*/bin/opencode 2>/dev/null | head -n1 || true)
fi
if [[ -n ${OPENCODE_BIN:-} && -x $OPENCODE_BIN ]]; then
	OC=$BENCH_DIR/opencode-run
	rm -rf "$OC"
	mkdir -p "$OC/data/opencode" "$OC/home"
	cp "$DB" "$OC/data/opencode/opencode.db"
	# The generated sessions live in $BENCH_DIR/work (project "global"):
	# OpenCode lists the current directory's sessions, roots only.
	run "opencode session list --format json -n 100000 ($("$OPENCODE_BIN" --version 2>/dev/null))" \
		env -C "$BENCH_DIR/work" HOME="$OC/home" XDG_DATA_HOME="$OC/data" XDG_CONFIG_HOME="$OC/config" \
		XDG_CACHE_HOME="$OC/cache" XDG_STATE_HOME="$OC/state" OPENCODE_DISABLE_AUTOUPDATE=1 \
		"$OPENCODE_BIN" session list --format json -n 100000
else
	echo "| opencode session list | n/a (no opencode binary: set OPENCODE_BIN) | | | |"
fi
echo
echo "sessctl lists every session (children included, with message counts); opencode lists the root"
echo "sessions of the current directory's project only (every tenth generated session is a child)."
