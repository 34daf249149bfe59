#!/usr/bin/env bash
# Builds the npm package xpbd-cloth: assembles dist/ from pkg/ (both wasm builds and their glue),
# the embedding modules of www/ (same relative layout, so their ../pkg/ imports still
# resolve) and the templates in packaging/, checks it, and packs it with `npm pack`.
# Prints the tarball's path as the last line of standard output.
#   scripts/package.sh            # build, assemble dist/, pack dist/xpbd-cloth-<version>.tgz
source "$(dirname "$0")/setup.sh"

"$ROOT/scripts/build.sh" >&2

DIST="$ROOT/dist"
PKG_FILES=(xpbd_cloth.js xpbd_cloth.d.ts xpbd_cloth_bg.wasm xpbd_cloth_bg.wasm.d.ts xpbd_cloth_scalar_bg.wasm)
WWW_MODULES=(wasm renderer cloth options pointer camera frame-loop painter xpbd-cloth-element parameters style errors backend theme state-file recording)
# The WebGPU backend: loaded by backend.js only when chosen
GPU_FILES=(gpu-cloth.js gpu-cloth.d.ts solver.wgsl render.wgsl)

log "assembling dist/"
rm -rf "$DIST"
mkdir -p "$DIST/pkg" "$DIST/www/gpu"
for file in "${PKG_FILES[@]}"; do
  cp "$ROOT/pkg/$file" "$DIST/pkg/$file"
done
for module in "${WWW_MODULES[@]}"; do
  for ext in js d.ts; do
    if [ ! -f "$ROOT/www/$module.$ext" ]; then
      log "www/$module.$ext is missing: the package needs every embedding module and its declarations"
      exit 1
    fi
    cp "$ROOT/www/$module.$ext" "$DIST/www/$module.$ext"
  done
done
for file in "${GPU_FILES[@]}"; do
  cp "$ROOT/www/gpu/$file" "$DIST/www/gpu/$file"
done
for file in index.js index.d.ts element.js element.d.ts README.md; do
  cp "$ROOT/packaging/$file" "$DIST/$file"
done
if [ -f "$ROOT/LICENSE" ]; then cp "$ROOT/LICENSE" "$DIST/LICENSE"; else cp "$ROOT/packaging/LICENSE" "$DIST/LICENSE"; fi
node "$ROOT/packaging/package-json.mjs" "$ROOT/Cargo.toml" "$DIST/package.json" >&2
node "$ROOT/packaging/check-dist.mjs" "$DIST" >&2

log "npm pack"
tarball="$(cd "$DIST" && npm pack --silent --pack-destination "$DIST" 2>/dev/null | tail -n 1)"
if [ ! -f "$DIST/$tarball" ]; then
  log "npm pack did not produce a tarball (got '$tarball')"
  exit 1
fi
log "packed dist/$tarball"
echo "$DIST/$tarball"
