// Remember Selection's body: code in a fence tagged with its language; Markdown, or a selection
// with fences of its own, as it is — never a fence wrapping a fence.

import assert from 'node:assert/strict';
import { selectionBody } from '../../../src/vscode/selectionBody';
import { openFence } from '../../../src/engine/text/fences';

describe('vscode selection body', () => {
  it('fences code with its language', () => {
    assert.equal(selectionBody('queue.claim()\n', 'typescript'), '```typescript\nqueue.claim()\n```\n');
    assert.equal(selectionBody('  \n', 'typescript'), undefined);
  });

  it('keeps a selection’s own fences and nests them in none (the broken ADR of issue 25)', () => {
    const selected = 'Roll back with:\n\n```bash\nhelm rollback api 3\n```\n\nThen check the pods.';
    for (const language of ['markdown', 'ruby']) {
      const body = selectionBody(selected, language)!;
      assert.equal(body, `${selected}\n`);
      assert.equal(openFence(body), null, 'no fence is left open');
      assert.ok(!body.startsWith('```ruby'), body);
    }
  });

  it('openFence names the fence a text leaves open, and none when each is closed', () => {
    assert.equal(openFence('a\n```bash\nx\n'), '```');
    assert.equal(openFence('````md\n```bash\nx\n```\n'), '````');
    assert.equal(openFence('~~~\nx\n~~~\n'), null);
    assert.equal(openFence('```\nx\n```\n'), null);
  });
});
