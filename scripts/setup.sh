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

# Debian packages, installed only when one of the given commands or files is missing.
apt_install() {
  local sudo=""
  [ "$(id -u)" = 0 ] || sudo="sudo"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "$@" >/dev/null
}

ensure_firefox() {
  if [ ! -x /usr/bin/firefox-esr ]; then
    log "installing Debian's firefox-esr (driven by puppeteer-core over WebDriver BiDi)"
    apt_install firefox-esr
  fi
}

# geckodriver runs wasm-bindgen-test in Firefox (GECKODRIVER points at it).
ensure_geckodriver() {
  if ! command -v geckodriver >/dev/null; then
    log "installing geckodriver (cargo install; takes a few minutes)"
    cargo install geckodriver
  fi
}

# Where Debian's libwebkit2gtk-4.1-0 puts MiniBrowser (a multiarch library folder).
minibrowser_path() {
  local dir
  dir="$(dpkg-architecture -qDEB_HOST_MULTIARCH 2>/dev/null || gcc -print-multiarch 2>/dev/null || echo x86_64-linux-gnu)"
  echo "/usr/lib/$dir/webkit2gtk-4.1/MiniBrowser"
}

# WebKitWebDriver drives MiniBrowser (WebKitGTK, Safari's engine); MiniBrowser
# has no headless mode, so it runs inside xvfb-run.
ensure_webkit() {
  if ! command -v WebKitWebDriver >/dev/null || ! command -v xvfb-run >/dev/null \
    || [ ! -x "$(minibrowser_path)" ]; then
    log "installing Debian's webkit2gtk-driver, libwebkit2gtk-4.1-0 (MiniBrowser) and xvfb"
    apt_install webkit2gtk-driver libwebkit2gtk-4.1-0 xvfb xauth \
      gstreamer1.0-plugins-base gstreamer1.0-plugins-good fonts-dejavu-core
  fi
}

# Every browser engine the end-to-end tests drive.
ensure_browsers() {
  ensure_chromium
  ensure_firefox
  ensure_webkit
}
