#!/usr/bin/env bash
# The browser benchmark: builds the release wasm, then runs bench/index.html in
# headless Chromium and prints ms/step (wasm vs plain JS), frame and draw costs,
# the plain-JS/wasm agreement and wasm memory per constraint, with PASS/MISS
# against the performance targets (step ≥ 5× plain JS at 40 × 30 and ≥ 8× at
# 100 × 100 and 300 × 300, a 100 × 100 frame under 16 ms, drawing ≥ 5× cheaper
# than one stroke per constraint, ≤ 64 bytes of wasm memory per constraint); then
# the CPU and WebGPU backends side by side (scripts/bench-gpu.mjs).
#   scripts/bench.sh            full run (about 1–2 minutes on 2 cores)
#   scripts/bench.sh --quick    tiny smoke run
#   scripts/bench.sh --json F   also writes the raw results to F
# Exits non-zero only when something failed, never for a missed target.
source "$(dirname "$0")/setup.sh"

"$ROOT/scripts/build.sh"
ensure_chromium
ensure_node_modules

log "running bench/index.html in headless Chromium (keep the machine otherwise idle for stable numbers)"
node "$ROOT/scripts/bench-browser.mjs" "$@"

# The two backends side by side on this browser's WebGPU adapter (its name is
# printed; SwiftShader's figures are no speed claims): scripts/bench-gpu.mjs.
if [[ " $* " != *" --worst-case "* ]]; then
  gpu_args=()
  [[ " $* " == *" --quick "* ]] && gpu_args+=(--quick)
  log "CPU and WebGPU backends: ms/step, ns per solve, frame times"
  node "$ROOT/scripts/bench-gpu.mjs" "${gpu_args[@]}"
fi
