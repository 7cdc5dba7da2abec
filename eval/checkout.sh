#!/usr/bin/env bash
# Checks out every repository pinned in eval/repos.json at its commit, from the bare mirrors the
# search tool's `fetch` leaves under /work/.mirror/<owner>+<name>/repo (override with LORE_EVAL_MIRRORS),
# into $LORE_EVAL_REPOS/<name>/files (default /work/evalrepos). Nothing here is committed: only the
# labels under eval/repos/<name>/ are. A repository whose mirror is absent is skipped with a line.
# `bash eval/checkout.sh name...` checks out only those suites (others' checkouts are left as they are).
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
mirrors="${LORE_EVAL_MIRRORS:-/work/.mirror}"
dest="${LORE_EVAL_REPOS:-/work/evalrepos}"
node -e 'for (const r of require(process.argv[1])) console.log([r.name, r.repo, r.commit].join(" "))' "$here/repos.json" |
while read -r name repo commit; do
  if [ $# -gt 0 ] && [[ " $* " != *" $name "* ]]; then continue; fi
  git_dir="$mirrors/${repo/\//+}/repo"
  if [ ! -d "$git_dir" ]; then echo "skip $name: no mirror at $git_dir (fetch github:$repo first)"; continue; fi
  if ! git --git-dir "$git_dir" cat-file -e "$commit^{commit}" 2>/dev/null; then echo "skip $name: $commit not in $git_dir"; continue; fi
  out="$dest/$name/files"
  rm -rf "$out" && mkdir -p "$out"
  git --git-dir "$git_dir" archive "$commit" | tar -x -C "$out"
  echo "$name: $(find "$out" -type f | wc -l) files at $commit"
done
