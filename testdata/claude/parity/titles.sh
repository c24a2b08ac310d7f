#!/bin/sh
# titles.sh lists the parity sessions with the Claude Agent SDK and writes
# testdata/claude/parity/expect/list.json. Run from the repository root:
#
#   npm install --prefix /tmp/ccoracle @anthropic-ai/claude-agent-sdk@0.3.331
#   testdata/claude/parity/titles.sh /tmp/ccoracle
set -eu
NM=${1:?usage: titles.sh /folder/holding/node_modules}
P=$(pwd)/testdata/claude/parity
H=/tmp/ccparity/listhome
rm -rf $H && mkdir -p $H/projects/-tmp-ccparity-work $H/fakehome
for c in $P/cases/*/ $P/titles/; do cp -R "$c". $H/projects/-tmp-ccparity-work/; done
cp $P/titles.mjs $NM/titles.mjs
cd $NM && CLAUDE_CONFIG_DIR=$H HOME=$H/fakehome unshare -n node titles.mjs $H/projects/-tmp-ccparity-work > $P/expect/list.json
