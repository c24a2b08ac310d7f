#!/bin/sh
# Regenerates the ccusage expectations for testdata/stats/claude-home (see
# docs/stats.md). Needs node and npm; installs ccusage under /tmp, never in
# the repository, and runs it without network. Run from the repository root.
set -eu
V=20.0.24
D=/tmp/sessctl-ccusage-$V
if [ ! -x "$D/node_modules/.bin/ccusage" ]; then
	mkdir -p "$D"
	(cd "$D" && npm install --no-save "ccusage@$V" "@ccusage/ccusage-linux-x64@$V" >/dev/null)
fi
H="$PWD/testdata/stats/claude-home"
for report in daily session; do
	CLAUDE_CONFIG_DIR="$H" unshare -n "$D/node_modules/.bin/ccusage" claude "$report" --json --offline --timezone UTC \
		> "testdata/stats/ccusage-$report.json"
done

# The real sample project of the shared corpus (../shared/corpus, not in the
# repository), copied into a Claude home under /tmp: per day and per session.
C="$PWD/../shared/corpus/claude-code/sample-project"
if [ -d "$C" ]; then
	T=$(mktemp -d)
	mkdir -p "$T/projects/-sample-project"
	cp "$C"/*.jsonl "$T/projects/-sample-project/"
	for report in daily session; do
		CLAUDE_CONFIG_DIR="$T" unshare -n "$D/node_modules/.bin/ccusage" claude "$report" --json --offline --timezone UTC \
			> "testdata/stats/ccusage-corpus-$report.json"
	done
	rm -rf "$T"
fi

# pi: the session of testdata/script/stats_pi.txtar (two branches, one
# response without a stored cost), through ccusage's pi adapter.
for report in daily session; do
	HOME=/nonexistent unshare -n "$D/node_modules/.bin/ccusage" pi "$report" --json --offline --timezone UTC \
		--pi-path "$PWD/testdata/stats/pi-sessions" > "testdata/stats/ccusage-pi-$report.json"
done
