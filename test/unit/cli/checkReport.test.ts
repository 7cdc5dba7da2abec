// lore check's selection (src/cli/checkReport.ts): a document link to a file the change moved is
// an error (the link no longer opens anything; found replaying tektoncd/community 88d871f, where
// CONTRIBUTING.md kept linking process.md after it moved), a memory anchor to it only a warning.

import { strict as assert } from 'node:assert';
import type { DriftFinding } from '../../../src/engine';
import { selectNew } from '../../../src/cli/checkReport';

function relocated(source: DriftFinding['source']): DriftFinding {
  return {
    source,
    state: 'relocated',
    reference: { raw: 'process.md', target_path: 'process.md' },
    evidence: { old_path: 'process.md', new_path: 'process/README.md', detail: 'moved' },
  } as unknown as DriftFinding;
}

describe('lore check: what a moved file breaks', () => {
  it('reports a document link to a moved file as an error and a memory anchor to it as a warning', () => {
    const changed = {
      added: new Set<string>(),
      modified: new Set<string>(),
      deleted: new Set<string>(),
      renamed: new Map([['process.md', 'process/README.md']]),
    };
    const report = selectNew({
      findings: [
        relocated({ kind: 'doc', path: 'CONTRIBUTING.md', line: 3 }),
        relocated({ kind: 'memory', key: 'decision/process' }),
      ],
      changed,
      decisionDocs: new Set(),
      existedBefore: () => true,
    });
    assert.deepEqual(
      report.new.map((f) => [f.rule, f.level, f.path]),
      [
        ['relocated-reference', 'error', 'CONTRIBUTING.md'],
        ['relocated-reference', 'warning', 'process.md'],
      ],
    );
    assert.match(report.new[0].message, /moved to process\/README\.md/);
  });
});

describe('lore check: a store that first sees the repository after the change', () => {
  const changed = {
    added: new Set<string>(),
    modified: new Set<string>(['teps/0001-process.md']),
    deleted: new Set<string>(['docs/old/guide.md']),
    renamed: new Map([['teps/NNNN-tep-template/README.md', 'teps/tools/tep-template.md.mustache']]),
  };
  const unresolved = (path: string, raw: string): DriftFinding =>
    ({
      source: { kind: 'doc', path, line: 9 },
      state: 'broken',
      reference: { raw, target_path: null },
      evidence: { detail: `${raw} does not exist in the workspace` },
    }) as unknown as DriftFinding;

  it('reports a link the change broke although the reference was never resolved (fresh CI store)', () => {
    const report = selectNew({
      findings: [
        unresolved('teps/0001-tekton.md', 'NNNN-tep-template/README.md'),
        unresolved('README.md', '/docs/old#setup'),
        unresolved('README.md', 'never-existed.md'),
      ],
      changed,
      decisionDocs: new Set(),
      existedBefore: () => true,
    });
    assert.deepEqual(
      report.new.map((f) => [f.level, f.path]),
      [
        ['error', 'teps/0001-tekton.md'],
        ['error', 'README.md'],
      ],
    );
    assert.match(report.new[0].message, /this change moved teps\/NNNN-tep-template\/README\.md to teps\/tools/);
    assert.equal(report.already_broken, 1, 'a link to a file that never existed was broken before');
  });

  it('says nothing about a decision naming its own headings when the change edits it', () => {
    const self = {
      source: { kind: 'doc', path: 'teps/0001-process.md', line: 3 },
      state: 'current',
      reference: { raw: '#summary', target_path: 'teps/0001-process.md' },
      evidence: { detail: '' },
    } as unknown as DriftFinding;
    const report = selectNew({
      findings: [self],
      changed,
      decisionDocs: new Set(['teps/0001-process.md']),
      existedBefore: () => true,
    });
    assert.deepEqual(report.new, []);
  });
});
