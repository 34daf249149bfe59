#!/usr/bin/env bash
# Runs every test the project has, installing what a fresh machine lacks:
#   format and lint, native Rust tests (unit, reference, property, fuzz), wasm
#   API tests in headless Chromium and Firefox, a quick browser benchmark agreement
#   check, and end-to-end tests of the pages and the npm package.
# XPBD_ENGINES (default chromium,firefox,webkit) chooses the engines of the
# cross-engine suites (tests/e2e/engines.test.mjs, users.test.mjs) and of the wasm API tests.
source "$(dirname "$0")/setup.sh"

export XPBD_ENGINES="${XPBD_ENGINES:-chromium,firefox,webkit}"
engine_selected() { [[ ",$XPBD_ENGINES," == *",$1,"* ]]; }

ensure_wasm_target
ensure_wasm_bindgen
ensure_chromium
if engine_selected firefox; then
  ensure_firefox
  ensure_geckodriver
fi
if engine_selected webkit; then ensure_webkit; fi
for component in rustfmt clippy; do
  rustup component list --installed | grep -q "^$component" || rustup component add "$component"
done

log "cargo fmt --check"
cargo fmt --all -- --check

# The `experiments` feature (the experiments page's build) gates code and the
# test targets that need it: lint both ways, and test with it so none is skipped.
log "cargo clippy (native and wasm32, without and with every feature)"
cargo clippy --all-targets -- -D warnings
cargo clippy --all-targets --all-features -- -D warnings
cargo clippy --target wasm32-unknown-unknown --all-targets -- -D warnings
cargo clippy --target wasm32-unknown-unknown --all-targets --all-features -- -D warnings

log "cargo doc (the API documentation builds without a broken link)"
RUSTDOCFLAGS="-D warnings" cargo doc --no-deps --all-features

log "native tests"
cargo test --all-features

# wasm-bindgen's test runner polls the page for the tests' "test result" line,
# giving up after WASM_BINDGEN_TEST_TIMEOUT seconds (20 by default) and its driver
# after WASM_BINDGEN_TEST_DRIVER_TIMEOUT (5): the conservation tests run seconds of
# simulation, which on a machine busy with other work takes longer than that. The
# line is the condition waited for; these are only the caps.
export WASM_BINDGEN_TEST_TIMEOUT="${WASM_BINDGEN_TEST_TIMEOUT:-600}"
export WASM_BINDGEN_TEST_DRIVER_TIMEOUT="${WASM_BINDGEN_TEST_DRIVER_TIMEOUT:-60}"

log "wasm API tests in headless Chromium"
CHROMEDRIVER=/usr/bin/chromedriver cargo test --target wasm32-unknown-unknown --features experiments \
  --test wasm_api --test wasm_experiments --test wasm_conservation
if engine_selected firefox; then
  log "wasm API tests in headless Firefox"
  GECKODRIVER="$(command -v geckodriver)" cargo test --target wasm32-unknown-unknown --features experiments --test wasm_api
fi

log "building the page"
"$ROOT/scripts/build.sh"

ensure_node_modules
log "quick browser benchmark: the plain-JS and wasm cloths must agree (full run: scripts/bench.sh)"
node scripts/bench-browser.mjs --quick

log "end-to-end tests (node --test; Chromium everywhere, and $XPBD_ENGINES in tests/e2e/engines.test.mjs)"
# WebKit's MiniBrowser has no headless mode: the suite runs inside a virtual X display.
if engine_selected webkit; then
  xvfb-run -a node --test --test-concurrency=1 tests/e2e/
else
  node --test --test-concurrency=1 tests/e2e/
fi

log "the page, embedding, features, scenes, users, engines, API-misuse and hostile-argument suites again with the cloths in workers (XPBD_WORKER=on)"
# The run above hides OffscreenCanvas from the pages (XPBD_WORKER=off), so the cloths run on
# the main thread; this one leaves the engine as it is and every cloth steps and draws in a worker
# (users and engines in $XPBD_ENGINES, the others in Chromium). runtime.test.mjs and
# worker.test.mjs run both modes side by side in every engine whatever XPBD_WORKER says.
WORKER_FILES=(tests/e2e/{page,embed,features,scenes,users,engines,api-misuse,hostile-arguments}.test.mjs)
if engine_selected webkit; then
  XPBD_WORKER=on xvfb-run -a node --test --test-concurrency=1 "${WORKER_FILES[@]}"
else
  XPBD_WORKER=on node --test --test-concurrency=1 "${WORKER_FILES[@]}"
fi
