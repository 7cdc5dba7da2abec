// The text a relocated doc reference is rewritten to: in the form the doc wrote it (relative to the
// doc, or a repository path), its fragment kept, and a clear reason when there is nothing to rewrite.

import assert from 'node:assert/strict';
import type { DriftFinding } from '../../../../src/engine';
import { foldFindings } from '../../../../src/vscode/drift/fold';
import { canRelink, relink } from '../../../../src/vscode/drift/relink';

function finding(
  raw: string,
  target: string,
  moved: string | undefined,
  state: DriftFinding['state'] = 'relocated',
  form = 'link',
  doc = 'docs/ops/worker.md',
): DriftFinding {
  return {
    id: 'ref-1',
    source: { kind: 'doc', path: doc, line: 3 },
    reference: { raw, form, target_path: target, symbol: form === 'flag' ? raw : null },
    state,
    evidence: { detail: 'moved', ...(moved ? { new_path: moved } : {}) },
    detected_at: '2026-01-01T00:00:00.000Z',
  };
}

describe('relink (update a relocated doc reference)', () => {
  it('keeps a link relative to the doc, with its fragment', () => {
    const line = 'Retries: [the script](../../scripts/retry.sh#usage) does it.';
    const change = relink(finding('../../scripts/retry.sh#usage', 'scripts/retry.sh', 'scripts/jobs/retry.sh'), line);
    assert.ok(!('problem' in change));
    assert.equal(change.text, '../../scripts/jobs/retry.sh#usage');
    assert.equal(line.slice(change.start, change.end), '../../scripts/retry.sh#usage');
    assert.equal(change.line, 2);
  });

  it('keeps a repository path a repository path, and follows moved lines', () => {
    const change = relink(
      finding('src/queue.ts#L10-L12', 'src/queue.ts', 'src/jobs/queue.ts#L20-L22'),
      'See `src/queue.ts#L10-L12`.',
    );
    assert.ok(!('problem' in change));
    assert.equal(change.text, 'src/jobs/queue.ts#L20-L22');
  });

  it('says why when the reference is not relocated or no longer on its line', () => {
    assert.match(
      (relink(finding('a.md', 'docs/ops/a.md', undefined, 'changed'), 'x a.md') as { problem: string }).problem,
      /is changed, not relocated/,
    );
    assert.match(
      (relink(finding('a.md', 'docs/ops/a.md', 'docs/a.md'), 'something else') as { problem: string }).problem,
      /no longer on line 3 of docs\/ops\/worker\.md; save it/,
    );
  });
});

/** The line with the fix applied, and every whitespace-separated token checked: only the reference's own changed. */
function applied(line: string, f: DriftFinding): string {
  const change = relink(f, line);
  assert.ok(!('problem' in change), JSON.stringify(change));
  assert.equal(line.slice(change.start, change.end), f.reference.raw, 'the span is the reference as written');
  const out = line.slice(0, change.start) + change.text + line.slice(change.end);
  const before = line.split(/\s+/);
  const after = out.split(/\s+/);
  assert.equal(after.length, before.length, out);
  const differing = before.map((t, i) => (t === after[i] ? -1 : i)).filter((i) => i >= 0);
  assert.equal(differing.length, 1, `exactly one token changed: ${line} → ${out}`);
  assert.ok(before[differing[0]].includes(f.reference.raw), `the changed token held ${f.reference.raw}: ${out}`);
  return out;
}

describe('relink: a fix changes only the reference it names (issue 31, point 1)', () => {
  const RUNBOOK = 'docs/runbooks/restore.md';
  const LINE = 'bash restore_db.bash --dry-run';

  it('the runbook case: the renamed script is rewritten by its new name; the flag is left alone', () => {
    const script = finding(
      'restore_db.bash',
      'scripts/restore_db.bash',
      'scripts/restore-db.bash',
      'relocated',
      'filename',
      RUNBOOK,
    );
    assert.equal(applied(LINE, script), 'bash restore-db.bash --dry-run');
    const flag = finding(
      '--dry-run',
      'scripts/restore_db.bash',
      'scripts/restore-db.bash',
      'relocated',
      'flag',
      RUNBOOK,
    );
    const refused = relink(flag, LINE);
    assert.ok('problem' in refused, 'a flag is never rewritten into a path');
    assert.match(refused.problem, /--dry-run is a flag, and stays as written/);
    assert.equal(canRelink(flag), false);
    assert.equal(canRelink(script), true);
  });

  it('the warning on that line stands for the script, not the flag, so its first fix updates the script', () => {
    const script = finding(
      'restore_db.bash',
      'scripts/restore_db.bash',
      'scripts/restore-db.bash',
      'relocated',
      'filename',
      RUNBOOK,
    );
    const flag = finding(
      '--dry-run',
      'scripts/restore_db.bash',
      'scripts/restore-db.bash',
      'relocated',
      'flag',
      RUNBOOK,
    );
    const [group, ...rest] = foldFindings([{ ...flag, id: 'ref-2' }, script]);
    assert.equal(rest.length, 0);
    assert.equal(group.finding.reference.raw, 'restore_db.bash');
    assert.deepEqual(
      group.also.map((f) => f.reference.raw),
      ['--dry-run'],
    );
  });

  it('rewrites only the whole token, never a longer one that contains it', () => {
    const f = finding('run.sh', 'docs/ops/run.sh', 'docs/ops/go.sh', 'relocated', 'filename');
    assert.equal(applied('./prerun.sh && run.sh --x', f), './prerun.sh && go.sh --x');
    assert.match((relink(f, 'run.sh then run.sh') as { problem: string }).problem, /more than once/);
    assert.match((relink(f, 'prerun.sh only') as { problem: string }).problem, /no longer on line 3/);
  });

  it('keeps each form: a path from the project root, a root link, a folder link, a published page, a URL', () => {
    const project = finding('pkg/a.go', 'svc/pkg/a.go', 'svc/internal/a.go', 'relocated', 'path', 'svc/docs/x.md');
    assert.equal(applied('see `pkg/a.go` now', project), 'see `internal/a.go` now');
    const root = finding('/docs/a.md#why', 'docs/a.md', 'docs/guides/a.md');
    assert.equal(applied('[a](/docs/a.md#why) x', root), '[a](/docs/guides/a.md#why) x');
    const folder = finding('../guide/', 'docs/guide/README.md', 'docs/manual/README.md', 'relocated', 'index');
    assert.equal(applied('[g](../guide/) y', folder), '[g](../manual/) y');
    const page = finding(
      '../../source/a.html',
      'source/a.html.md.erb',
      'source/b/a.html.md.erb',
      'relocated',
      'published',
    );
    assert.equal(applied('[p](../../source/a.html) z', page), '[p](../../source/b/a.html) z');
    const url = finding('https://github.com/o/r/blob/main/docs/a.md#L3', 'docs/a.md', 'docs/b.md', 'relocated', 'url');
    assert.equal(
      applied('<https://github.com/o/r/blob/main/docs/a.md#L3> w', url),
      '<https://github.com/o/r/blob/main/docs/b.md#L3> w',
    );
  });

  it('offers nothing when the new place cannot be written in the same form', () => {
    // A bare name whose file only moved folder still names it; a published page whose source lost its page form.
    const moved = finding('run.sh', 'docs/ops/run.sh', 'scripts/run.sh', 'relocated', 'filename');
    assert.ok('problem' in relink(moved, 'run run.sh'));
    const page = finding('a.html', 'docs/ops/a.html.md', 'docs/ops/b.md', 'relocated', 'published');
    assert.ok('problem' in relink(page, '[a](a.html)'));
  });
});
