// The help text and the README name the same default workspace for commands run without --workspace.

import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { makeSpace, ok } from '../support/cli';

describe('the default workspace in help and README', () => {
  it('is described the same way by `lore help COMMAND`, `lore help` and the README', () => {
    const space = makeSpace('lore-help-');
    try {
      const readme = readFileSync(join(__dirname, '..', '..', 'README.md'), 'utf8').replace(/\s+/g, ' ');
      const said = /Every command takes `--workspace DIR` \(default: ([^)]*)\)/.exec(readme);
      assert.ok(said, 'the README says what the default workspace is');
      const phrase = said[1].replace('`.git`', '.git');
      assert.ok(ok(space.lore('help', 'init')).stdout.replace(/\s+/g, ' ').includes(`(default: ${phrase})`));
      assert.ok(ok(space.lore('help')).stdout.replace(/\s+/g, ' ').includes(`defaults to ${phrase}`));
    } finally {
      space.cleanup();
    }
  });
});
