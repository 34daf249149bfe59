#!/usr/bin/env bash
# Soak test of the demo page: builds the wasm, serves the repository and
# drives index.html?width=100&height=100 in headless Chromium for the given number
# of seconds (default 300): continuous dragging, a restart every 10 s, parameter
# changes every few seconds (valid and invalid), and a sample every 5 s of wasm
# memory, JS heap, simulated time and frame time. Prints the samples and a summary;
# exits non-zero when wasm memory or the JS heap grows without bound (last-third
# median > 1.5 × first-third median), on any page error, or on a frame over 1 s.
#   scripts/soak.sh [seconds]        XPBD_SOAK_SEED=<n> repeats a session
source "$(dirname "$0")/setup.sh"

seconds="${1:-300}"
case "$seconds" in
  '' | *[!0-9.]*) echo "usage: scripts/soak.sh [seconds]   (got '$seconds')" >&2; exit 2 ;;
esac

ensure_chromium
ensure_node_modules
"$ROOT/scripts/build.sh"

log "soak: $seconds s"
node "$ROOT/scripts/soak.mjs" "$seconds"
