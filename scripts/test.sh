#!/usr/bin/env bash
# Runs every test the project has, installing what a fresh machine lacks:
#   format and lint, native Rust tests (unit, reference, property, fuzz), wasm
#   API tests in headless Chromium, a quick browser benchmark agreement check,
#   and end-to-end tests of the pages and the npm package.
source "$(dirname "$0")/setup.sh"

ensure_wasm_target
ensure_wasm_bindgen
ensure_chromium
for component in rustfmt clippy; do
  rustup component list --installed | grep -q "^$component" || rustup component add "$component"
done

log "cargo fmt --check"
cargo fmt --all -- --check

log "cargo clippy (native and wasm32)"
cargo clippy --all-targets -- -D warnings
cargo clippy --target wasm32-unknown-unknown --all-targets -- -D warnings

log "native tests"
cargo test

log "wasm API tests in headless Chromium"
CHROMEDRIVER=/usr/bin/chromedriver cargo test --target wasm32-unknown-unknown --test wasm_api --test wasm_experiments

log "building the page"
"$ROOT/scripts/build.sh"

ensure_node_modules
log "quick browser benchmark: the plain-JS and wasm cloths must agree (full run: scripts/bench.sh)"
node scripts/bench-browser.mjs --quick

log "end-to-end tests (node --test, playwright-core, Debian chromium)"
node --test --test-concurrency=1 tests/e2e/
