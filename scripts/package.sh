#!/usr/bin/env bash
# Builds the npm package xpbd-cloth: assembles dist/ from the top-level files of
# pkg/ (both wasm builds and their glue; its subfolders are not the package's),
# the folder www/lib/ (the package's modules, in the same relative layout, so
# their ../../pkg/ imports still resolve) and the templates in packaging/, checks
# it, and packs it with `npm pack`. Prints the tarball's path as the last line of
# standard output.
#   scripts/package.sh            # build, assemble dist/, pack dist/xpbd-cloth-<version>.tgz
source "$(dirname "$0")/setup.sh"

"$ROOT/scripts/build.sh" >&2

DIST="$ROOT/dist"

log "assembling dist/"
rm -rf "$DIST"
mkdir -p "$DIST/pkg" "$DIST/www"
find "$ROOT/pkg" -maxdepth 1 -type f ! -name '.*' -exec cp {} "$DIST/pkg/" \;
cp -R "$ROOT/www/lib" "$DIST/www/lib"
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
