// `npx tsx eval/labelBroken.ts NAME...`: drafts eval/repos/<name>/broken.tsv, the references that
// are really broken in the unmodified repository. A finding of the scan is written down only when
// an independent check with GitHub's rules agrees its target is absent: a relative link from the
// document's folder, a root link from the repository root, a heading by GitHub's slug of every
// heading in the file. Findings whose target the check does find are left out and stay false
// alarms. A person reads the draft before it is committed (eval/README.md says how).

import { existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, normalize } from 'node:path';
import { treeSitterSymbols } from '../src/host/symbols/treeSitter';
import { scanUnmodified } from './drift';
import { suites } from './suites';

/** GitHub's anchor of a heading: from the text it renders (a link's or tag's text, never its address). */
function githubSlug(heading: string): string {
  return heading
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/<[^>]+>/g, '')
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-');
}

function absentByGithub(files: string, doc: string, raw: string, detail: string): boolean {
  const url = /github\.com\/[^/]+\/[^/]+\/(?:blob|tree)\/[^/]+\/([^#?]+)(?:#(.*))?/.exec(raw);
  const [pathPart, fragment] = url ? [`/${url[1]}`, url[2]] : raw.split('#');
  const target = pathPart
    ? normalize(pathPart.startsWith('/') ? join(files, pathPart) : join(files, dirname(doc), pathPart))
    : join(files, doc);
  if (!target.startsWith(files)) return true;
  if (!existsSync(target)) return true;
  if (!fragment || statSync(target).isDirectory()) return !/has no heading/.test(detail) ? false : true;
  const seen = new Map<string, number>();
  // GitHub numbers repeated headings: the second `## Beta` is `#beta-1`.
  const slugs = [...readFileSync(target, 'utf8').matchAll(/^#{1,6}\s+(.+?)\s*#*\s*$/gm)].map((m) => {
    const slug = githubSlug(m[1]);
    const n = seen.get(slug) ?? 0;
    seen.set(slug, n + 1);
    return n ? `${slug}-${n}` : slug;
  });
  return !slugs.includes(fragment.toLowerCase());
}

async function main(): Promise<void> {
  const names = new Set(process.argv.slice(2));
  const tree = treeSitterSymbols();
  await tree.whenReady;
  for (const suite of suites().suites.filter((s) => names.has(s.name))) {
    const result = scanUnmodified(suite.files, [], tree, suite.repository ? [suite.repository] : []);
    const rows = ['doc\treference\treason'];
    const left: string[] = [];
    for (const f of result.false_alarms) {
      const doc = f.source.path ?? '';
      const absent = suite.extra
        ? 'absent from the corpus subset or the repository: '
        : 'absent at the pinned commit: ';
      if (absentByGithub(suite.files, doc, f.reference.raw, f.evidence.detail)) {
        rows.push(`${doc}\t${f.reference.raw}\t${absent}${f.evidence.detail}`);
      } else left.push(`${doc} ${f.reference.raw}: ${f.evidence.detail}`);
    }
    const dir = suite.extra ?? suite.labels;
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'broken.tsv'), `${[...new Set(rows)].join('\n')}\n`);
    console.log(`${suite.name}: ${rows.length - 1} really broken written, ${left.length} left as false alarms`);
    for (const line of left) console.log(`  false alarm: ${line}`);
  }
}

void main();
