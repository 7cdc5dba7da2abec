#!/usr/bin/env bash
# Installs the agent hosts the host tier (npm run test:hosts) drives, at pinned versions, from npm
# into a cache outside the project (as scripts/editor/setup.sh does for code-server):
#   ${LORE_HOSTS_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/lore-hosts}
# Safe to run again: a host already at its pinned version is skipped. Writes paths.json there.
# Usage: setup.sh [claude] [codex] [gemini]   (default: all three)
set -euo pipefail

CLAUDE_CODE_VERSION=2.1.197
CODEX_VERSION=0.171.0
GEMINI_CLI_VERSION=0.61.0

CACHE="${LORE_HOSTS_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/lore-hosts}"
say() { printf 'hosts setup: %s\n' "$*"; }
die() { printf 'hosts setup: error: %s\n' "$*" >&2; exit 1; }
command -v npm >/dev/null || die "npm is not on PATH; install Node.js 20 first."
mkdir -p "$CACHE" || die "cannot create $CACHE (set LORE_HOSTS_CACHE to a writable folder)."

install() { # name package version bin
  local dir="$CACHE/$1"
  if [ ! -f "$dir/.installed-$3" ]; then
    say "installing $2@$3"
    rm -rf "$dir" && mkdir -p "$dir"
    echo '{"private":true}' > "$dir/package.json"
    (cd "$dir" && npm install --no-audit --no-fund --loglevel=error "$2@$3") || die "npm install $2@$3 failed."
    touch "$dir/.installed-$3"
  fi
  [ -x "$dir/node_modules/.bin/$4" ] || die "$2@$3 installed no $4 executable in $dir/node_modules/.bin."
}

hosts=("$@")
[ ${#hosts[@]} -eq 0 ] && hosts=(claude codex gemini)
for host in "${hosts[@]}"; do
  case "$host" in
    claude) install claude-code @anthropic-ai/claude-code "$CLAUDE_CODE_VERSION" claude ;;
    codex) install codex @openai/codex "$CODEX_VERSION" codex ;;
    gemini) install gemini-cli @google/gemini-cli "$GEMINI_CLI_VERSION" gemini ;;
    *) die "unknown host $host (claude, codex or gemini)" ;;
  esac
done
node -e '
const fs = require("fs"), path = require("path"), cache = process.argv[1];
const bins = { claude: "claude-code/node_modules/.bin/claude", codex: "codex/node_modules/.bin/codex", gemini: "gemini-cli/node_modules/.bin/gemini" };
const paths = {};
for (const [k, rel] of Object.entries(bins)) if (fs.existsSync(path.join(cache, rel))) paths[k] = path.join(cache, rel);
fs.writeFileSync(path.join(cache, "paths.json"), JSON.stringify(paths, null, 2) + "\n");
console.log("hosts setup: ready: " + Object.keys(paths).join(", ") + " in " + cache);
' "$CACHE"
