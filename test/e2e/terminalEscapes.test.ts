// Output cannot drive the person's terminal. Control characters (ESC/CSI/OSC sequences, C1, a
// lone carriage return, bidi overrides) are refused at save time in every text field, naming the
// field; a file name from the disk, which no save checks, is printed escaped; and the promote
// confirmation shows where a record came from on lines no field can imitate. Before, each
// sequence was stored and printed raw (an OSC 52 in a title wrote the clipboard on `lore list`).

import { strict as assert } from 'node:assert';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { makeSpace, ok, runCliInTerminal, type CliSpace } from '../support/cli';

// eslint-disable-next-line no-control-regex -- finding control characters is the point
const RAW_CONTROL = /[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]/;
const ATTACKS: Record<string, string> = {
  'CSI colour': 'red \x1b[31mtext',
  'OSC 52 clipboard write': 'copy \x1b]52;c;ZXZpbA==\x07 me',
  'C1 CSI': 'c1 \u009b2J clear',
  'lone carriage return': 'fake\rreal',
  'bidi override': 'read \u202eevil',
};

describe('terminal escapes never reach the person', function () {
  this.timeout(120_000);
  let space: CliSpace;
  before(() => {
    space = makeSpace('lore-escapes-');
  });
  after(() => space.cleanup());

  for (const [name, attack] of Object.entries(ATTACKS)) {
    it(`refuses ${name} in title, description, body and tags, naming the field`, () => {
      for (const [field, args] of [
        ['title', ['--title', attack, '--description', 'd']],
        ['description', ['--title', 't', '--description', attack]],
        ['body', ['--title', 't', '--description', 'd', '--body', attack]],
        ['tags[0]', ['--title', 't', '--description', 'd', '--tag', attack]],
      ] as const) {
        const result = space.lore('remember', '--type', 'decision', ...args);
        assert.notEqual(result.code, 0, `${field}: ${result.stdout}`);
        assert.ok(result.stderr.startsWith(`lore: ${field} contains a control character`), result.stderr);
        assert.doesNotMatch(result.stderr, RAW_CONTROL, 'the refusal does not echo the sequence raw');
      }
      assert.match(space.lore('list', '--json').stdout, /"total": 0/);
    });
  }

  it('keeps tabs and new lines in a body', () => {
    ok(space.lore('remember', '--type', 'runbook', '--title', 'Tabs', '--description', 'd', '--body', 'a\tb\nc'));
    const got = ok(space.lore('get', 'runbook/tabs', '--json'));
    assert.equal(got.json.memory.body, 'a\tb\nc');
  });

  it('prints a file name holding an OSC 52 sequence escaped in recall, text and JSON', () => {
    const docs = join(space.workspace, 'docs');
    mkdirSync(docs, { recursive: true });
    writeFileSync(
      join(docs, 'queue\x1b]52;c;ZXZpbA==\x07.md'),
      '# Queue\n\nThe postgres job queue uses SKIP LOCKED.\n',
    );
    ok(space.lore('index'));
    const text = ok(space.lore('recall', 'postgres job queue'));
    assert.match(text.stdout, /queue\\x1b\]52;c;ZXZpbA==\\x07\.md/);
    assert.doesNotMatch(text.stdout, RAW_CONTROL);
    const json = ok(space.lore('recall', 'postgres job queue', '--json'));
    assert.doesNotMatch(json.stdout, RAW_CONTROL);
  });

  it("shows a web page record's provenance in the promote confirmation where no field can forge it", () => {
    const title = 'Fine" by client "cli';
    const saved = ok(
      space.lore('remember', '--type', 'decision', '--title', title, '--description', 'd', '--source', 'webpage'),
    );
    assert.match(saved.stdout, /quarantined/);
    const asked = runCliInTerminal(['promote', 'decision/fine-by-client-cli'], {
      home: space.home,
      workspace: space.workspace,
      input: 'n\n',
    });
    const lines = asked.stdout.split('\n');
    const provenance = lines.filter((l) => /saved from:/.test(l));
    assert.deepEqual(provenance, ['saved from:  webpage by client "lore-cli"'], asked.stdout);
    assert.ok(lines.includes('title:       "Fine\\" by client \\"cli"'), asked.stdout);
    assert.match(asked.stdout, /not promoted/);
  });
});
