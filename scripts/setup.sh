# Shared set-up, sourced by the other scripts: installs whatever a fresh machine
# of this kind lacks. Every step checks first, so a second run costs nothing.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
export PATH="$HOME/.cargo/bin:$PATH"

log() { printf '\033[1m[xpbd-cloth]\033[0m %s\n' "$*" >&2; }

ensure_wasm_target() {
  if ! rustup target list --installed | grep -qx wasm32-unknown-unknown; then
    log "installing the wasm32-unknown-unknown target"
    rustup target add wasm32-unknown-unknown
  fi
}

# The CLI must be exactly the version of the wasm-bindgen crate in Cargo.lock.
wasm_bindgen_version() {
  [ -f Cargo.lock ] || cargo generate-lockfile >&2
  awk '/^name = "wasm-bindgen"$/ { getline; gsub(/version = |"/, ""); print; exit }' Cargo.lock
}

ensure_wasm_bindgen() {
  local want have
  want="$(wasm_bindgen_version)"
  have="$(wasm-bindgen --version 2>/dev/null | awk '{print $2}' || true)"
  if [ "$have" != "$want" ]; then
    log "installing wasm-bindgen-cli $want (found '${have:-none}'; takes a few minutes)"
    cargo install wasm-bindgen-cli --version "$want"
  fi
}

ensure_chromium() {
  if [ ! -x /usr/bin/chromium ] || [ ! -x /usr/bin/chromedriver ]; then
    log "installing Debian's chromium and chromium-driver"
    local sudo=""
    [ "$(id -u)" = 0 ] || sudo="sudo"
    $sudo apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq chromium chromium-driver >/dev/null
  fi
}

ensure_node_modules() {
  # npm ci writes node_modules/.package-lock.json; an older one than the
  # committed lock file means dependencies changed since the last install.
  if [ ! -f node_modules/.package-lock.json ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
    log "installing npm dev dependencies (playwright-core drives Debian's chromium; typescript checks the package types)"
    npm ci --no-audit --no-fund
  fi
}
