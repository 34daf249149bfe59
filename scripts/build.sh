#!/usr/bin/env bash
# Builds the release wasm and its JavaScript glue into pkg/.
source "$(dirname "$0")/setup.sh"

ensure_wasm_target
ensure_wasm_bindgen

log "building the release wasm"
cargo build --release --target wasm32-unknown-unknown --lib
log "running wasm-bindgen into pkg/"
wasm-bindgen --target web --out-dir pkg target/wasm32-unknown-unknown/release/xpbd_cloth.wasm
log "built pkg/xpbd_cloth.js and pkg/xpbd_cloth_bg.wasm"
