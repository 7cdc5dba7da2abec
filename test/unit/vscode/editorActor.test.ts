// The editor's actor is a person, but a confirmed one (who may promote or apply a session
// proposal) only when the command has just had a yes to a modal dialog.

import { strict as assert } from 'node:assert';
import { createFakeVscode, installFakeVscode } from '../../support/fakeVscode';

describe('VS Code editor actor', () => {
  it('is human only when the command says a modal confirmed the act', () => {
    installFakeVscode(createFakeVscode());

    const { editorActor } =
      require('../../../src/vscode/commands/ui') as typeof import('../../../src/vscode/commands/ui');
    assert.equal(editorActor().door, 'ui');
    assert.equal(editorActor().human, false);
    assert.equal(editorActor(true).human, true);
  });
});
