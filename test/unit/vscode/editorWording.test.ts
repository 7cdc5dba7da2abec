// Errors reach a person at the editor in the editor's words: the engine's hints name CLI commands
// and LORE_* variables; the editor says its command, view or `lore.*` setting instead.

import { strict as assert } from 'node:assert';
import { LoreError } from '../../../src/engine';
import { editorWording, errorText } from '../../../src/vscode/editorWording';
import { openTestStore, person, type TestStore } from '../../support/store';

function thrown(work: () => unknown): unknown {
  try {
    work();
  } catch (error) {
    return error;
  }
  throw new Error('expected it to throw');
}

describe('VS Code wording of engine hints', () => {
  let store: TestStore;
  beforeEach(() => (store = openTestStore()));
  afterEach(() => store.cleanup());

  it('an unknown key points at the views and Lore: Recall…, not lore list / lore recall', () => {
    const text = errorText(thrown(() => store.engine.get('decision/nope')));
    assert.equal(text, 'no memory with key decision/nope — check the key with the Lore views or Lore: Recall…');
  });

  it('an unknown drift finding points at the Drift view, not lore drift list', () => {
    const text = errorText(thrown(() => store.engine.reverifyReference(person, 'nope')));
    assert.match(text, /the Drift view/);
    assert.doesNotMatch(text, /lore drift/);
  });

  it('model hints name the editor command and the lore.embedding.modelDir setting', () => {
    const hint = 'check the network, or copy the model folder by hand and set LORE_MODEL_DIR';
    assert.equal(
      errorText(new LoreError('UNAVAILABLE', 'cannot reach the host', hint)),
      'cannot reach the host — check the network, or copy the model folder by hand and set the ' +
        'lore.embedding.modelDir setting',
    );
    assert.match(editorWording('Run "lore model download" to fetch it once'), /^Run Lore: Download Embedding Model to/);
  });

  it('leaves hints without an editor counterpart, and other errors, as they are', () => {
    assert.equal(editorWording('see `lore history decision/x`'), 'see `lore history decision/x`');
    assert.equal(errorText(new Error('disk full')), 'disk full');
  });
});
