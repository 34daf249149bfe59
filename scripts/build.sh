#!/usr/bin/env bash
# Builds the release wasm and its JavaScript glue into pkg/, in two flavours:
#   pkg/xpbd_cloth_bg.wasm         with wasm SIMD (+simd128, from .cargo/config.toml)
#   pkg/xpbd_cloth_scalar_bg.wasm  without it, for engines that lack wasm SIMD
# Both share the one glue pkg/xpbd_cloth.js; www/lib/wasm.js picks the file at load time.
# The experiments page has a build of its own, with the `experiments` feature (SIMD
# only: every engine the page is tested in has wasm SIMD):
#   pkg/experiments/xpbd_cloth.js and pkg/experiments/xpbd_cloth_bg.wasm
# Every .wasm then goes through binaryen's wasm-opt (docs/limits.md, "The shipped module's size": a fifth smaller,
# same speed). Each build has a target folder of its own, so none invalidates another.
source "$(dirname "$0")/setup.sh"

ensure_wasm_target
ensure_wasm_bindgen
# binaryen (npm, pinned in package.json) provides node_modules/.bin/wasm-opt
ensure_node_modules

# Optimises a .wasm in place. Its target_features section (what the build enabled)
# tells wasm-opt which features it may use, so the scalar build stays without SIMD.
# The solver's functions stay functions of their own (wasm-opt would inline each
# one with a single caller into the stepping loop): V8 optimises a wasm function
# from its next call on, never within a call already running, so a loop inlined
# into Cloth::advance would run unoptimised for the whole of a first long call
# (src/solver/integrate.rs says more).
optimize() {
  "$ROOT/node_modules/.bin/wasm-opt" --no-inline='xpbd_cloth::solver::*' -O3 "$1" -o "$1"
}

log "building the release wasm (SIMD)"
cargo build --release --target wasm32-unknown-unknown --lib
log "running wasm-bindgen into pkg/"
wasm-bindgen --target web --out-dir pkg target/wasm32-unknown-unknown/release/xpbd_cloth.wasm
optimize pkg/xpbd_cloth_bg.wasm

# The config's target rustflags (.cargo/config.toml) with SIMD turned off again:
# a --config array comes after the file's, and the later target-feature wins.
log "building the release wasm (scalar, no SIMD)"
cargo build --release --target wasm32-unknown-unknown --lib --target-dir target/scalar \
  --config 'target.wasm32-unknown-unknown.rustflags = ["-C", "target-feature=-simd128"]'
scalar_out="target/scalar/bindgen"
rm -rf "$scalar_out"
wasm-bindgen --target web --out-dir "$scalar_out" target/scalar/wasm32-unknown-unknown/release/xpbd_cloth.wasm
# One glue serves both files only if the two builds import and export the same.
if ! cmp -s "$scalar_out/xpbd_cloth.js" pkg/xpbd_cloth.js; then
  log "the scalar build's glue differs from the SIMD build's: they cannot share pkg/xpbd_cloth.js"
  diff "$scalar_out/xpbd_cloth.js" pkg/xpbd_cloth.js | head -20 >&2
  exit 1
fi
cp "$scalar_out/xpbd_cloth_bg.wasm" pkg/xpbd_cloth_scalar_bg.wasm
optimize pkg/xpbd_cloth_scalar_bg.wasm
log "built pkg/xpbd_cloth.js, pkg/xpbd_cloth_bg.wasm and pkg/xpbd_cloth_scalar_bg.wasm"

log "building the experiments page's wasm (SIMD, --features experiments)"
cargo build --release --target wasm32-unknown-unknown --lib --features experiments --target-dir target/experiments
rm -rf pkg/experiments
wasm-bindgen --target web --out-dir pkg/experiments target/experiments/wasm32-unknown-unknown/release/xpbd_cloth.wasm
optimize pkg/experiments/xpbd_cloth_bg.wasm
log "built pkg/experiments/xpbd_cloth.js and pkg/experiments/xpbd_cloth_bg.wasm"
