// `npm run eval:history`: `lore check --base <parent>` replayed on real commits of fetched public
// repositories (issue 29, point 4). Each case in cases.jsonl pins a repository, a commit and what
// the commit did: `broken` (it broke a doc reference: a renamed or deleted file, a heading…; the
// case names the document and the reference) or `clean` (it broke nothing). For each, a throwaway
// clone of the local mirror is checked out at the commit and the built CLI is run against the
// parent, exactly as the pull-request gate runs: a broken case must be reported (an error naming the
// document and the reference), a clean case must report no error. Warnings (an ADR naming code the
// commit modifies) are counted, not failures. Mirrors absent: the case is skipped, said so.
//
//   npm run eval:history [-- --only madr,adr-tools] [-- --expect broken|clean] [-- --scan adr/madr --limit 40]
//
// `--scan REPO` lists what lore check reports on the REPO's last commits that delete or rename a
// file, to find candidate cases (each is then read by hand before it is pinned).

import { spawnSync, execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';

const CLI = resolve(__dirname, '..', '..', 'dist', 'cli.js');
const MIRRORS = process.env.LORE_EVAL_MIRRORS ?? '/work/.mirror';

export interface HistoryCase {
  repo: string;
  commit: string;
  expect: 'broken' | 'clean';
  /** broken: the document whose reference the commit broke, and the reference as written. */
  path?: string;
  reference?: string;
  cause: string;
}

interface Finding {
  rule: string;
  level: 'error' | 'warning';
  path: string;
  line?: number;
  message: string;
}

export interface CaseOutcome {
  case: HistoryCase;
  outcome: 'reported' | 'missed' | 'quiet' | 'false-alarm' | 'skipped' | 'failed';
  errors: Finding[];
  warnings: number;
  seconds: number;
  detail?: string;
}

export function mirrorOf(repo: string): string | null {
  const dir = join(MIRRORS, repo.replace('/', '+'), 'repo');
  return existsSync(dir) ? dir : null;
}

export function readCases(file = join(__dirname, 'cases.jsonl')): HistoryCase[] {
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter((l) => l.trim() && !l.startsWith('//'))
    .map((l) => JSON.parse(l) as HistoryCase);
}

const git = (cwd: string, args: string[]) =>
  execFileSync('git', ['-C', cwd, ...args], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });

/** lore check --base <commit>^ on a throwaway clone at the commit; the report's findings. */
function checkCommit(mirror: string, commit: string): { findings: Finding[]; seconds: number } {
  const root = mkdtempSync(join(tmpdir(), 'lore-history-'));
  try {
    const repo = join(root, 'repo');
    execFileSync('git', ['clone', '-q', '--shared', '--no-checkout', mirror, repo], { stdio: 'ignore' });
    git(repo, ['-c', 'advice.detachedHead=false', 'checkout', '-q', commit]);
    const started = Date.now();
    const r = spawnSync(process.execPath, [CLI, '--workspace', repo, '--json', 'check', '--base', `${commit}^`], {
      env: { ...process.env, LORE_HOME: join(root, 'home'), LORE_EMBED: 'off' },
      encoding: 'utf8',
      maxBuffer: 64 * 1024 * 1024,
      timeout: 300_000,
    });
    const seconds = (Date.now() - started) / 1000;
    if (r.status !== 0 && r.status !== 1) throw new Error(`lore check exited ${r.status}: ${r.stderr.trim()}`);
    return { findings: (JSON.parse(r.stdout) as { new: Finding[] }).new, seconds };
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}

export function replay(c: HistoryCase): CaseOutcome {
  const mirror = mirrorOf(c.repo);
  if (!mirror)
    return { case: c, outcome: 'skipped', errors: [], warnings: 0, seconds: 0, detail: `no mirror of ${c.repo}` };
  try {
    const { findings, seconds } = checkCommit(mirror, c.commit);
    const errors = findings.filter((f) => f.level === 'error');
    const warnings = findings.length - errors.length;
    if (c.expect === 'clean')
      return { case: c, outcome: errors.length ? 'false-alarm' : 'quiet', errors, warnings, seconds };
    const hit = errors.some((f) => f.path === c.path && f.message.includes(`refers to ${c.reference!}`));
    return { case: c, outcome: hit ? 'reported' : 'missed', errors, warnings, seconds };
  } catch (error) {
    return { case: c, outcome: 'failed', errors: [], warnings: 0, seconds: 0, detail: (error as Error).message };
  }
}

function scan(repo: string, limit: number): void {
  const mirror = mirrorOf(repo);
  if (!mirror) throw new Error(`no mirror of ${repo} under ${MIRRORS}`);
  const commits = git(mirror, ['log', '--no-merges', '--diff-filter=DR', `-${limit}`, '--format=%H %s', 'HEAD'])
    .trim()
    .split('\n')
    .filter(Boolean);
  for (const line of commits) {
    const commit = line.slice(0, 40);
    try {
      const { findings, seconds } = checkCommit(mirror, commit);
      const errors = findings.filter((f) => f.level === 'error');
      console.log(`${line.slice(0, 90)}  (${seconds.toFixed(1)} s)`);
      for (const f of errors) console.log(`    ${f.path}:${f.line ?? ''} ${f.message.slice(0, 200)}`);
    } catch (error) {
      console.log(`${line.slice(0, 90)}  failed: ${(error as Error).message.slice(0, 200)}`);
    }
  }
}

function main(): number {
  const { values } = parseArgs({
    options: {
      only: { type: 'string' },
      expect: { type: 'string' },
      scan: { type: 'string' },
      limit: { type: 'string' },
    },
  });
  if (!existsSync(CLI)) throw new Error(`${CLI} is missing: run npm run build first`);
  if (values.scan) {
    scan(values.scan, Number(values.limit ?? 30));
    return 0;
  }
  const only = values.only?.split(',');
  const cases = readCases().filter(
    (c) => (!only || only.some((o) => c.repo.includes(o))) && (!values.expect || c.expect === values.expect),
  );
  const outcomes: CaseOutcome[] = [];
  for (const c of cases) {
    const o = replay(c);
    outcomes.push(o);
    const what = o.case.expect === 'broken' ? `${o.case.path} → ${o.case.reference}` : 'breaks nothing';
    console.log(
      `${o.outcome.padEnd(11)} ${c.repo} ${c.commit.slice(0, 10)} ${what}` +
        `${o.seconds ? ` (${o.seconds.toFixed(1)} s)` : ''}${o.detail ? ` — ${o.detail}` : ''}`,
    );
    if (o.outcome === 'false-alarm' || o.outcome === 'missed')
      for (const f of o.errors) console.log(`    reported: ${f.path}:${f.line ?? ''} ${f.message.slice(0, 240)}`);
  }
  const count = (outcome: CaseOutcome['outcome']) => outcomes.filter((o) => o.outcome === outcome).length;
  const broken = outcomes.filter((o) => o.case.expect === 'broken' && o.outcome !== 'skipped').length;
  const clean = outcomes.filter((o) => o.case.expect === 'clean' && o.outcome !== 'skipped').length;
  console.log(
    `\nbroke a reference: ${count('reported')}/${broken} reported on the commit that caused it` +
      `\nbroke nothing: ${count('quiet')}/${clean} with nothing reported ` +
      `(${count('false-alarm')} false alarm(s); warnings on ${outcomes.filter((o) => o.warnings).length})` +
      `\nskipped (no mirror): ${count('skipped')}; failed to run: ${count('failed')}`,
  );
  if (count('skipped') === outcomes.length) {
    console.log(`every mirror is absent under ${MIRRORS}: nothing was measured (fetch them first)`);
    return 0;
  }
  return count('missed') + count('false-alarm') + count('failed') ? 1 : 0;
}

if (require.main === module) process.exitCode = main();
