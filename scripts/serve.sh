#!/usr/bin/env bash
# Builds the wasm if needed and serves the repository on 127.0.0.1.
# Usage: scripts/serve.sh [port]   (default 8080)
source "$(dirname "$0")/setup.sh"

stale() {
  [ ! -f pkg/xpbd_cloth_bg.wasm ] && return 0
  [ -n "$(find src Cargo.toml Cargo.lock -newer pkg/xpbd_cloth_bg.wasm 2>/dev/null | head -1)" ]
}
if stale; then
  "$ROOT/scripts/build.sh"
fi
exec node "$ROOT/scripts/static-server.mjs" "${1:-${PORT:-8080}}"
