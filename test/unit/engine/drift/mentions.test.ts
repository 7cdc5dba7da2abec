// Mentions (issue 17, the mixed-d10 case): a name a README writes in a code span that nothing
// defines — a Kubernetes Secret — is watched on the lines of the few files beside the README that
// use it (the Makefile recipe), so editing those lines flags the README and nothing else does.

import { strict as assert } from 'node:assert';
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { driftSpace, type DriftSpace } from '../../../support/drift';

const FIXTURE = join(__dirname, '../../../fixtures/drift-mentions');
const README = 'tools/certs/README.md';
const MAKEFILE = 'tools/certs/Makefile.k8s.mk';

function fixtureFiles(dir = FIXTURE): Record<string, string> {
  const out: Record<string, string> = {};
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) Object.assign(out, fixtureFiles(path));
    else if (entry.name !== 'SOURCE.md')
      out[relative(FIXTURE, path).split('\\').join('/')] = readFileSync(path, 'utf8');
  }
  return out;
}

function withFixture(run: (s: DriftSpace) => void, extra: Record<string, string> = {}): void {
  const s = driftSpace({ ...fixtureFiles(), ...extra });
  try {
    s.engine.driftScan();
    run(s);
  } finally {
    s.cleanup();
  }
}

/** The Makefile with `edit` applied to its lines. */
function editMakefile(s: DriftSpace, edit: (lines: string[]) => void): void {
  const lines = readFileSync(join(s.root, MAKEFILE), 'utf8').split('\n');
  edit(lines);
  s.write(MAKEFILE, lines.join('\n'));
}

/** Every reference's state, by source, raw text and target. */
function states(s: DriftSpace): Map<string, string> {
  return new Map(
    s.all().map((f) => [`${f.source.path ?? f.source.key} ${f.reference.raw} ${f.reference.target_path}`, f.state]),
  );
}

function secret(s: DriftSpace) {
  const refs = s.refs(README, 'istio-ca-secret');
  assert.equal(refs.length, 1, `one reference to the Secret, got ${JSON.stringify(refs)}`);
  return refs[0];
}

describe('drift: a name nothing defines, used by a file beside the document', () => {
  it('is watched on the Makefile that uses it, and an edit to a line using it flags the README (check, scan)', () => {
    withFixture((s) => {
      assert.equal(secret(s).state, 'current');
      assert.equal(secret(s).reference.target_path, MAKEFILE);
      const before = states(s);
      editMakefile(s, (lines) => {
        const at = lines.findIndex((l) => l.includes('istio-ca-secret'));
        lines[at] = lines[at].replace('>/dev/null 2>&1', '-o name >/dev/null 2>&1');
      });
      const checked = s.engine.driftCheck([MAKEFILE]).find((f) => f.reference.raw === 'istio-ca-secret');
      assert.equal(checked?.state, 'changed', JSON.stringify(checked));
      assert.match(
        checked!.evidence.detail,
        /lines of tools\/certs\/Makefile\.k8s\.mk that use istio-ca-secret changed since they were/,
      );
      s.engine.driftScan();
      assert.equal(secret(s).state, 'changed');
      // The recipe holding that line did change (its target's own text); no other reference moved.
      assert.equal(s.refs(README, 'fetch-root-ca')[0].state, 'changed');
      const after = states(s);
      for (const [key, state] of before)
        if (!/ (istio-ca-secret|fetch-root-ca) /.test(key)) assert.equal(after.get(key), state, `${key} moved`);
      assert.ok(before.size >= 4, `the README's other references are there to compare: ${[...before.keys()]}`);
    });
  });

  it('stays current when the Makefile is edited elsewhere or its lines shift', () => {
    withFixture((s) => {
      editMakefile(s, (lines) => {
        lines.splice(0, 0, '# Certificates for the multicluster guide.', '');
        const clean = lines.findIndex((l) => l.includes('rm -f k8s-root-cert.pem'));
        lines[clean] = '\t@rm -f k8s-root-cert.pem k8s-root-key.pem';
      });
      s.engine.driftCheck([MAKEFILE]);
      assert.equal(secret(s).state, 'current');
      s.engine.driftScan();
      assert.equal(secret(s).state, 'current');
      assert.equal(secret(s).evidence.detail, 'unchanged since it was fingerprinted');
    });
  });

  it('is gone when the Makefile stops using the name', () => {
    withFixture((s) => {
      editMakefile(s, (lines) => {
        for (let i = 0; i < lines.length; i++) lines[i] = lines[i].replace(/istio-ca-secret/g, 'root-ca-secret');
      });
      s.engine.driftCheck([MAKEFILE]);
      s.engine.driftScan();
      assert.equal(secret(s).state, 'gone');
      assert.equal(secret(s).evidence.detail, `istio-ca-secret is no longer used in ${MAKEFILE}`);
    });
  });

  it('follows the lines to a renamed Makefile without a finding, and watches them there', () => {
    withFixture((s) => {
      s.move(MAKEFILE, 'tools/certs/k8s.mk');
      const checked = s.engine.driftCheck([MAKEFILE, 'tools/certs/k8s.mk']);
      assert.equal(checked.find((f) => f.reference.raw === 'istio-ca-secret')?.state, 'current');
      assert.equal(secret(s).reference.target_path, 'tools/certs/k8s.mk');
      assert.match(secret(s).evidence.detail, /followed to tools\/certs\/k8s\.mk/);
      s.engine.driftScan();
      assert.equal(secret(s).state, 'current');
      const text = readFileSync(join(s.root, 'tools/certs/k8s.mk'), 'utf8');
      s.write('tools/certs/k8s.mk', text.replace('get secret istio-ca-secret -n', 'get secret istio-ca-secret -A -n'));
      s.engine.driftCheck(['tools/certs/k8s.mk']);
      assert.equal(secret(s).state, 'changed');
    });
  });

  it('the rename found by a full scan alone is followed too', () => {
    withFixture((s) => {
      s.move(MAKEFILE, 'tools/certs/k8s.mk');
      s.engine.driftScan();
      assert.equal(secret(s).state, 'current');
      assert.equal(secret(s).reference.target_path, 'tools/certs/k8s.mk');
    });
  });

  it('a document and the script it names, saved after an earlier check, are resolved from the listing now', () => {
    withFixture((s) => {
      s.write(README, `${readFileSync(join(s.root, README), 'utf8')}\nThe \`istio-ca-secret\` is also read.\n`);
      s.engine.driftCheck([README]);
      s.write('tools/new/README.md', '# New\nThe `new-secret` Secret is read by run.sh.\n');
      s.write('tools/new/run.sh', '#!/bin/sh\nkubectl get secret new-secret\n');
      s.engine.driftCheck(['tools/new/README.md', 'tools/new/run.sh']);
      const refs = s.refs('tools/new/README.md', 'new-secret');
      assert.deepEqual(
        refs.map((r) => [r.reference.target_path, r.state]),
        [['tools/new/run.sh', 'current']],
      );
    });
  });

  it('is re-verified like any reference once the change is accepted', () => {
    withFixture((s) => {
      editMakefile(s, (lines) => {
        const at = lines.findIndex((l) => l.includes('istio-ca-secret'));
        lines[at] += ' # checked first';
      });
      s.engine.driftScan();
      const changed = secret(s);
      assert.equal(changed.state, 'changed');
      s.engine.reverifyReference({ door: 'cli', name: 'tester' }, changed.id);
      s.engine.driftScan();
      assert.equal(secret(s).state, 'current');
    });
  });
});

describe('drift: names that are not mentions', () => {
  it('a name every file in the folder uses is a common word: not watched at all', () => {
    withFixture((s) => {
      assert.deepEqual(s.refs(README, 'istio-system'), []);
      // Editing any of those files flags nothing in the README.
      s.write('tools/certs/common.mk', '# Shared settings.\nDEFAULT_NAMESPACE := istio-system-2\n');
      const flagged = s.engine.driftCheck(['tools/certs/common.mk']).filter((f) => f.state !== 'current');
      assert.deepEqual(flagged, []);
    });
  });

  it('up to three files using it are each watched; a fourth makes it a common word', () => {
    const three = { 'tools/certs/a.sh': 'echo shared-name\n', 'tools/certs/b.sh': 'echo shared-name\n' };
    const note = { 'tools/certs/NOTES.md': '# Notes\nThe `shared-name` value.\n' };
    withFixture(
      (s) => {
        const refs = s.refs('tools/certs/NOTES.md', 'shared-name');
        assert.deepEqual(refs.map((r) => r.reference.target_path).sort(), ['tools/certs/a.sh', 'tools/certs/b.sh']);
      },
      { ...three, ...note },
    );
    const four = { ...three, 'tools/certs/c.sh': 'echo shared-name\n', 'tools/certs/d.sh': 'echo shared-name\n' };
    withFixture((s) => assert.deepEqual(s.refs('tools/certs/NOTES.md', 'shared-name'), []), { ...four, ...note });
  });

  it('a folder of more than 100 code or config files beside the document is not searched for names', () => {
    const note = { 'data/README.md': '# Fixtures\nThe `fixture-token` value.\n' };
    const few: Record<string, string> = { 'data/use.json': '{"name": "fixture-token"}\n' };
    withFixture((s) => assert.equal(s.refs('data/README.md', 'fixture-token').length, 1), { ...few, ...note });
    const many = { ...few };
    for (let i = 0; i < 100; i++) many[`data/case-${i}.json`] = `{"case": ${i}}\n`;
    withFixture((s) => assert.deepEqual(s.refs('data/README.md', 'fixture-token'), []), { ...many, ...note });
  });

  it('a name only a code block writes, or only prose, a diagram, a generated line or another folder uses', () => {
    withFixture(
      (s) => {
        // `cacerts-backup` is in the README's code block; the Makefile does not use it anyway, and a block is no claim.
        assert.deepEqual(s.refs(README, 'cacerts-backup'), []);
        assert.deepEqual(s.refs(README, 'other-secret'), []);
        assert.deepEqual(s.refs(README, 'far-away-name'), []);
      },
      {
        [README]: `${fixtureFiles()[README]}\nSee \`other-secret\` and \`far-away-name\`.\n`,
        'tools/certs/GUIDE.md': '# Guide\nThe `other-secret` Secret.\n',
        'tools/other/run.sh': 'echo far-away-name\n',
        // A diagram draws names, and a generated line (minified, one huge line) holds everything.
        'tools/certs/flow.drawio.svg': '<svg><text>other-secret</text></svg>\n',
        'tools/certs/schema.json': `${JSON.stringify({ pattern: 'x'.repeat(600), name: 'other-secret' })}\n`,
      },
    );
  });

  it('a name something defines stays a symbol reference (the Makefile target)', () => {
    withFixture((s) => {
      const target = s.refs(README, 'fetch-root-ca');
      assert.equal(target.length, 1);
      assert.equal(target[0].reference.form, 'symbol');
      assert.equal(target[0].state, 'current');
      assert.doesNotMatch(target[0].evidence.detail, /followed/);
    });
  });
});
