#!/bin/sh
# Builds the minimal module tree gen.mjs needs to run pi 1.5.2's
# SessionManager under Node, from the real published files. A full
# `npm install @earendil-works/pi-coding-agent@1.5.2` fails (some of its
# dependencies are not served), but dist/core/session-manager.js needs only
# ../config.js, ../utils/*.js, ./messages.js and two functions of
# @earendil-works/pi-ai (getCurrentSystemMessage, uuidv7).
#
#   sh testdata/pi/parity/v152/setup.sh /tmp/pi152   (never inside the repo)
#
# Result: /tmp/pi152/node_modules/@earendil-works/pi-coding-agent (the
# unpacked npm tarball, unchanged) and .../pi-ai (a package.json and an
# index.js that re-export the real dist/utils/{transcript,text,uuid}.js of
# pi-ai 1.5.2). cross-spawn, imported by config.js but never called by the
# session code, is a stub that throws.
set -eu
dir=${1:?usage: setup.sh <dir outside the repository>}
mkdir -p "$dir" && cd "$dir"
npm pack --silent @earendil-works/pi-coding-agent@1.5.2 >/dev/null
npm pack --silent @earendil-works/pi-ai@1.5.2 >/dev/null
nm=node_modules/@earendil-works
rm -rf node_modules && mkdir -p "$nm/pi-coding-agent" "$nm/pi-ai/dist/utils" node_modules/cross-spawn
tar xzf earendil-works-pi-coding-agent-1.5.2.tgz -C "$nm/pi-coding-agent" --strip-components=1
mkdir -p ai && tar xzf earendil-works-pi-ai-1.5.2.tgz -C ai
for f in transcript.js text.js uuid.js; do cp "ai/package/dist/utils/$f" "$nm/pi-ai/dist/utils/$f"; done
cat > "$nm/pi-ai/package.json" <<'J'
{"name":"@earendil-works/pi-ai","version":"1.5.2-standin","type":"module","exports":{".":"./index.js"}}
J
cat > "$nm/pi-ai/index.js" <<'J'
export { getCurrentSystemMessage } from "./dist/utils/transcript.js";
export { uuidv7 } from "./dist/utils/uuid.js";
J
cat > node_modules/cross-spawn/package.json <<'J'
{"name":"cross-spawn","version":"0.0.0-stub","main":"index.js"}
J
echo 'module.exports = function () { throw new Error("cross-spawn stub: not available"); }; module.exports.sync = module.exports;' > node_modules/cross-spawn/index.js
echo "$dir/$nm/pi-coding-agent"
