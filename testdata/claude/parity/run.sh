#!/bin/sh
# run.sh resumes every parity case with the real Claude Code CLI, offline,
# and writes testdata/claude/parity/expect/<case>.json. Run from the
# repository root, as root (it needs a network namespace):
#
#   npm install --prefix /tmp/ccoracle @anthropic-ai/claude-agent-sdk@0.3.331
#   testdata/claude/parity/run.sh /tmp/ccoracle/node_modules/@anthropic-ai/claude-agent-sdk-linux-x64/claude [case...]
#
# With case names after the binary only those cases are run again.
# Each case is copied into a fresh fake CLAUDE_CONFIG_DIR, a fake Messages
# API (fakeapi.go) listens on 127.0.0.1 inside `unshare -n`, and
# `claude -p PROBE-PROMPT --resume <session>` sends the resumed
# conversation to it; extract.go keeps the tags of what was sent.
set -eu
CLAUDE=${1:?usage: run.sh /path/to/claude [case...]}
if [ "${CCPARITY_INNER:-}" != 1 ]; then
	export GOTOOLCHAIN=local
	mkdir -p /tmp/ccparity/bin
	go build -o /tmp/ccparity/bin/fakeapi testdata/claude/parity/fakeapi.go
	go build -o /tmp/ccparity/bin/extract testdata/claude/parity/extract.go
	CCPARITY_INNER=1 exec unshare -n sh "$0" "$@"
fi
ip link set lo up
ROOT=$(pwd)
P=testdata/claude/parity
W=/tmp/ccparity
mkdir -p $W/work $W/fakehome $P/expect
"$CLAUDE" --version > $P/expect/VERSION
shift
if [ $# -gt 0 ]; then
	list=$(for n in "$@"; do echo "$P/cases/$n/"; done)
else
	list=$(ls -d $P/cases/*/)
fi
for c in $list; do
	name=$(basename "$c")
	sid=$(cd "$c" && ls *.jsonl | head -1 | sed 's/\.jsonl$//')
	rm -rf $W/home $W/cap
	mkdir -p $W/home/projects/-tmp-ccparity-work $W/cap
	cp -R "$c". $W/home/projects/-tmp-ccparity-work/
	$W/bin/fakeapi -addr 127.0.0.1:8765 -dir $W/cap 2>/dev/null &
	fp=$!
	sleep 0.3
	set +e
	(cd $W/work && CLAUDE_CONFIG_DIR=$W/home HOME=$W/fakehome ANTHROPIC_BASE_URL=http://127.0.0.1:8765 \
		ANTHROPIC_API_KEY=sk-ant-offline-fake timeout 90 "$CLAUDE" -p PROBE-PROMPT --resume "$sid" \
		> $W/out.txt 2> $W/err.txt < /dev/null)
	rc=$?
	set -e
	kill $fp 2>/dev/null || true
	wait $fp 2>/dev/null || true
	$W/bin/extract -case "$name" -session "$sid" -exit $rc -stderr $W/err.txt -dir $W/cap -out "$ROOT/$P/expect/$name.json"
	echo "$name rc=$rc"
done
