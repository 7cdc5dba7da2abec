#!/usr/bin/env bash
# Checks out every repository pinned in eval/repos.json or eval/kinds/*/source.json at its commit, from
# the bare mirrors the search tool's `fetch` leaves under /work/.mirror/<owner>+<name>/repo (override with LORE_EVAL_MIRRORS),
# into $LORE_EVAL_REPOS/<name>/files (default /work/evalrepos). Nothing here is committed: only the
# labels under eval/repos/<name>/ are. A repository whose mirror is absent is skipped with a line.
# `bash eval/checkout.sh name...` checks out only those suites (others' checkouts are left as they are).
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
mirrors="${LORE_EVAL_MIRRORS:-/work/.mirror}"
dest="${LORE_EVAL_REPOS:-/work/evalrepos}"
# The drift/recall suites (repos.json) and the blind kind labels (kinds/<name>/source.json), once each.
node -e '
  const fs = require("fs"), path = require("path");
  const [suites, kinds] = process.argv.slice(1);
  const rows = require(suites).map((r) => [r.name, r.repo, r.commit]);
  for (const d of fs.readdirSync(kinds)) {
    const f = path.join(kinds, d, "source.json");
    if (fs.existsSync(f)) { const s = require(f); rows.push([d, s.repo, s.commit]); }
  }
  for (const r of new Set(rows.map((r) => r.join(" ")))) console.log(r);
' "$here/repos.json" "$here/kinds" |
while read -r name repo commit; do
  if [ $# -gt 0 ] && [[ " $* " != *" $name "* ]]; then continue; fi
  git_dir="$mirrors/${repo/\//+}/repo"
  if [ ! -d "$git_dir" ]; then echo "skip $name: no mirror at $git_dir (fetch github:$repo first)"; continue; fi
  if ! git --git-dir "$git_dir" cat-file -e "$commit^{commit}" 2>/dev/null; then echo "skip $name: $commit not in $git_dir"; continue; fi
  out="$dest/$name/files"
  rm -rf "$out" && mkdir -p "$out"
  # Mirrors may lack their largest blobs: checkout-index writes every file it can read and names the
  # rest, where `git archive` would stop at the first missing one.
  index="$(mktemp)"
  GIT_DIR="$git_dir" GIT_INDEX_FILE="$index" git read-tree "$commit"
  GIT_DIR="$git_dir" GIT_INDEX_FILE="$index" git --work-tree "$out" checkout-index -a -f 2>&1 | sed 's/^/  /' || true
  rm -f "$index"
  echo "$name: $(find "$out" -type f | wc -l) files at $commit"
done
