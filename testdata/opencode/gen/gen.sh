#!/usr/bin/env bash
# Regenerates testdata/opencode/real/ with OpenCode's own binary: each
# exports/*.json is imported with `opencode import` (no model, no network),
# then `opencode export` and `opencode session list --format json` record what
# OpenCode itself reads back. The outputs are committed; CI never runs this.
#
# Usage: testdata/opencode/gen/gen.sh   (needs node/npm; installs under /tmp)
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
out=$(cd "$here/.." && pwd)/real
version=${OPENCODE_VERSION:-1.18.33}
npmdir=${OPENCODE_NPM_DIR:-/tmp/sessctl-opencode-npm}

if [[ -z "${OPENCODE_BIN:-}" ]]; then
  mkdir -p "$npmdir"
  (cd "$npmdir" && npm install --no-audit --no-fund --silent "opencode-ai@$version" >/dev/null)
  OPENCODE_BIN=$(ls "$npmdir"/node_modules/opencode-linux-*/bin/opencode | head -n1)
fi

# A fixed, non-git project directory: OpenCode files such sessions under the
# project id "global" and records the directory verbatim.
work=/tmp/sessctl-opencode-fixture
rm -rf "$work"
mkdir -p "$work/home" "$work/demo"
export HOME=$work/home XDG_DATA_HOME=$work/data XDG_CONFIG_HOME=$work/config \
  XDG_CACHE_HOME=$work/cache XDG_STATE_HOME=$work/state OPENCODE_DISABLE_AUTOUPDATE=1

cd "$work/demo"
"$OPENCODE_BIN" --version >"$work/version.txt"
for f in "$here"/exports/*.json; do
  "$OPENCODE_BIN" import "$f"
done

rm -rf "$out"
mkdir -p "$out/export"
cp "$work/version.txt" "$out/opencode-version.txt"
"$OPENCODE_BIN" session list --format json >"$out/session-list.json"
for f in "$here"/exports/*.json; do
  id=$(sed -n 's/^    "id": "\(ses_[^"]*\)".*/\1/p' "$f" | head -n1)
  "$OPENCODE_BIN" export "$id" >"$out/export/$id.json"
done
# OpenCode does not always checkpoint on exit, so recent rows may live only
# in opencode.db-wal. Fold the WAL into the copy (sqlite3 CLI) to keep the
# fixture small; without sqlite3 the -wal file is kept next to it instead.
cp "$work/data/opencode/opencode.db" "$out/opencode.db"
if [[ -f "$work/data/opencode/opencode.db-wal" ]]; then
  cp "$work/data/opencode/opencode.db-wal" "$out/opencode.db-wal"
  if command -v sqlite3 >/dev/null; then
    sqlite3 "$out/opencode.db" 'PRAGMA wal_checkpoint(TRUNCATE);' >/dev/null
    sqlite3 "$out/opencode.db" 'PRAGMA journal_mode=DELETE;' >/dev/null
    rm -f "$out/opencode.db-wal" "$out/opencode.db-shm"
  fi
fi
echo "wrote $out"
