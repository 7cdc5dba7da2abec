// `.lore/kinds`, the format: parsing (comments, blank lines, globs with spaces, kinds as people
// name them), bad lines reported with their number and ignored, the last matching rule winning,
// and the edits Set Kind makes (a rule moved to the end, the rest of the file kept).

import { strict as assert } from 'node:assert';
import {
  globProblem,
  kindMatcher,
  kindNamed,
  literalGlob,
  parseKindRules,
  requireKindNamed,
  withKindRule,
  withoutKindRule,
} from '../../../../src/engine/indexing/kindCorrections';
import { isLoreError } from '../../../../src/engine';

describe('.lore/kinds rules', () => {
  it('reads glob → kind lines, skipping comments and blank lines, keeping each rule’s line number', () => {
    const { rules, problems } = parseKindRules(
      ['# ops pages are runbooks', '', 'docs/operations/** runbook', '  docs/My Notes/plan.md   rfc  ', ''].join('\n'),
    );
    assert.deepEqual(problems, []);
    assert.deepEqual(rules, [
      { glob: 'docs/operations/**', kind: 'runbook', line: 3 },
      { glob: 'docs/My Notes/plan.md', kind: 'rfc', line: 4 },
    ]);
  });

  it('understands a kind as a person names it, where that is unambiguous', () => {
    const named = ['runbook', 'Runbooks', 'ADR', 'adrs', 'post-mortem', 'Postmortems', 'RFCs', 'Helm charts', 'k8s'];
    assert.deepEqual(
      named.map((n) => kindNamed(n)),
      ['runbook', 'runbook', 'adr', 'adr', 'postmortem', 'postmortem', 'rfc', 'helm', 'kubernetes'],
    );
    assert.equal(kindNamed('Kubernetes manifests'), 'kubernetes');
    assert.equal(kindNamed('release notes'), 'changelog');
    for (const unknown of ['runbok', 'notes', '', 'runbook guide'])
      assert.equal(kindNamed(unknown), undefined, unknown);
  });

  it('refuses an unknown kind with an error that names every valid kind', () => {
    try {
      requireKindNamed('runbok');
      assert.fail('accepted "runbok"');
    } catch (error) {
      assert.ok(isLoreError(error) && error.code === 'INVALID_INPUT');
      assert.match(error.message, /unknown kind "runbok"/);
      assert.match(error.message, /adr, rfc, runbook, postmortem, changelog, readme, guide, terraform/);
    }
  });

  it('reports each bad line with its number and ignores it, keeping the good ones', () => {
    const { rules, problems } = parseKindRules(
      [
        'docs/ops/** runbook',
        'lonely-word',
        'docs/x.md runbok',
        '/etc/passwd guide',
        '../outside/** guide',
        '!docs/** guide',
        'docs/adr/** ADR',
      ].join('\r\n'),
    );
    assert.deepEqual(
      rules.map((r) => [r.line, r.glob, r.kind]),
      [
        [1, 'docs/ops/**', 'runbook'],
        [7, 'docs/adr/**', 'adr'],
      ],
    );
    assert.deepEqual(
      problems.map((p) => p.line),
      [2, 3, 4, 5, 6],
    );
    assert.match(problems[0].message, /a glob and a kind/);
    assert.match(problems[1].message, /unknown kind "runbok"; the kinds are adr, rfc/);
    assert.match(problems[2].message, /relative to the workspace root/);
    assert.match(problems[4].message, /negated/);
  });

  it('lets the last rule that matches a path decide, as .gitattributes does', () => {
    const { rules } = parseKindRules('docs/** guide\ndocs/ops/** runbook\ndocs/ops/archive/** postmortem\n');
    const match = kindMatcher(rules);
    assert.equal(match.ruleFor('docs/intro.md')?.kind, 'guide');
    assert.equal(match.ruleFor('docs/ops/restore.md')?.kind, 'runbook');
    assert.equal(match.ruleFor('docs/ops/archive/2024-outage.md')?.kind, 'postmortem');
    assert.equal(match.ruleFor('README.md'), undefined);
    // Reversed, the broad rule comes last and wins everywhere it matches.
    const reversed = kindMatcher(parseKindRules('docs/ops/** runbook\ndocs/** guide\n').rules);
    assert.equal(reversed.ruleFor('docs/ops/restore.md')?.kind, 'guide');
  });

  it('refuses a glob with a line break, which would write a second rule', () => {
    assert.match(globProblem('docs/**\nREADME.md adr') ?? '', /line break/);
    assert.equal(globProblem('docs/ops/**'), null);
  });

  it('writes a file’s own path as a glob that matches only that file', () => {
    const odd = 'docs/[id]/notes (draft) #1.md';
    const glob = literalGlob(odd);
    assert.equal(globProblem(glob), null);
    const match = kindMatcher(parseKindRules(`${glob} runbook\n`).rules);
    assert.equal(match.ruleFor(odd)?.kind, 'runbook');
    assert.equal(match.ruleFor('docs/i/notes (draft) #1.md'), undefined);
    assert.equal(literalGlob('docs/ops/restore.md'), 'docs/ops/restore.md');
  });

  it('sets a rule by moving it to the end (so it wins) and keeps comments and other rules', () => {
    const start = withKindRule('', 'docs/ops/**', 'runbook');
    assert.match(
      start,
      /^# [^\n]*\n(# [^\n]*\n)*docs\/ops\/\*\* runbook\n$/,
      'a new file: comments saying what it is, then the rule',
    );
    assert.deepEqual(parseKindRules(start).problems, []);
    const text = '# ours\ndocs/ops/** guide\ndocs/adr/** adr\n';
    const moved = withKindRule(text, 'docs/ops/**', 'runbook');
    assert.equal(moved, '# ours\ndocs/adr/** adr\ndocs/ops/** runbook\n');
    assert.equal(withKindRule('docs/adr/** adr', 'x.md', 'rfc'), 'docs/adr/** adr\nx.md rfc\n');
    const removed = withoutKindRule(moved, ['docs/ops/**']);
    assert.deepEqual(removed, { text: '# ours\ndocs/adr/** adr\n', removed: 1 });
    assert.equal(withoutKindRule(moved, ['docs/nothing/**']).removed, 0);
  });
});
