#!/usr/bin/env node
// The deterministic sample of a checked-out repository that a blind labeller labels (KINDS.md):
// which paths to read, chosen from the tree alone, never from what Lore's classifier says. Files are
// grouped by extension (a file without one by its name); each group gets a share of the total in
// proportion to its size, prose groups weighted three times (the document kinds are the ones people
// search by), every group at least one, and a group's picks are spread evenly over its sorted paths.
// Binary files, files over 512 KiB and anything under .git are left out.
//
//   node eval/kinds/sample.mjs DIR [TOTAL=100]   prints one path per line, relative to DIR

import { readdirSync, statSync, openSync, readSync, closeSync } from 'node:fs';
import { join, relative } from 'node:path';

const PROSE = new Set(['md', 'markdown', 'mdx', 'rst', 'adoc', 'asciidoc', 'txt', 'erb', 'org', 'textile']);
const BINARY = new Set([
  ...'png jpg jpeg gif svg ico webp bmp tiff pdf zip gz tgz bz2 xz 7z jar war'.split(' '),
  ...'woff woff2 ttf otf eot mp3 mp4 mov avi wasm so dylib dll exe bin pyc class'.split(' '),
  ...'psd sketch drawio xlsx docx pptx'.split(' '),
]);
const MAX_BYTES = 512 * 1024;
// Extensionless files grouped by their own name; every other extensionless file is one group.
const KNOWN_NAMES = new Set([
  ...'dockerfile containerfile makefile jenkinsfile vagrantfile gemfile rakefile procfile'.split(' '),
  ...'license licence readme changelog codeowners notice authors'.split(' '),
]);

function walk(root, dir, out) {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.name === '.git') continue;
    const full = join(dir, entry.name);
    if (entry.isDirectory()) walk(root, full, out);
    else if (entry.isFile()) out.push(relative(root, full).split('\\').join('/'));
  }
}

function extensionOf(path) {
  const name = path.slice(path.lastIndexOf('/') + 1).toLowerCase();
  const dot = name.lastIndexOf('.');
  if (dot > 0) return name.slice(dot + 1);
  return KNOWN_NAMES.has(name) ? `name:${name}` : 'name:';
}

function looksBinary(full) {
  const buffer = Buffer.alloc(4096);
  const fd = openSync(full, 'r');
  try {
    const read = readSync(fd, buffer, 0, buffer.length, 0);
    return buffer.subarray(0, read).includes(0);
  } finally {
    closeSync(fd);
  }
}

export function sample(root, total = 100) {
  const all = [];
  walk(root, root, all);
  const candidates = all
    .filter((path) => !BINARY.has(extensionOf(path)))
    .filter((path) => statSync(join(root, path)).size <= MAX_BYTES && !looksBinary(join(root, path)))
    .sort();
  if (candidates.length <= total) return candidates;
  const groups = new Map();
  for (const path of candidates) {
    const key = extensionOf(path);
    if (!groups.has(key)) groups.set(key, []);
    groups.get(key).push(path);
  }
  const weightOf = (key) => (PROSE.has(key) ? 3 : 1);
  const weighted = [...groups].map(([key, paths]) => paths.length * weightOf(key));
  const sum = weighted.reduce((a, b) => a + b, 0);
  const picked = [];
  [...groups].forEach(([, paths], i) => {
    const share = Math.max(1, Math.min(paths.length, Math.round((weighted[i] / sum) * total)));
    for (let k = 0; k < share; k++) picked.push(paths[Math.floor(((k + 0.5) * paths.length) / share)]);
  });
  return [...new Set(picked)].sort();
}

if (process.argv[1] && import.meta.url === new URL(`file://${process.argv[1]}`).href) {
  const [dir, total] = process.argv.slice(2);
  if (!dir) {
    console.error('usage: node eval/kinds/sample.mjs DIR [TOTAL=100]');
    process.exit(2);
  }
  for (const path of sample(dir, total ? Number(total) : 100)) console.log(path);
}
