// When the first index offers the model download: only when nothing would give recall a model and
// the offer was never answered — a team's embeddings endpoint (setting or LORE_EMBED_URL) counts
// as a model. The offer itself, its text and its buttons are shown in the real editor
// (test/editor/suite/modelOffer.test.ts, test/editor/offerScenarios.ts).

import { strict as assert } from 'node:assert';
import { mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { createFakeVscode, installFakeVscode } from '../../support/fakeVscode';
import { tempDir } from '../../support/store';
import { readSettings, type SettingKey } from '../../../src/vscode/settings';

type Offer = typeof import('../../../src/vscode/modelOffer');

describe('VS Code model offer: when it is made', () => {
  let home: string;
  let offer: Offer;
  const savedUrl = process.env.LORE_EMBED_URL;
  const settings = (values: Partial<Record<SettingKey, unknown>> = {}) => readSettings((key) => values[key]).settings;

  before(() => {
    installFakeVscode(createFakeVscode());

    offer = require('../../../src/vscode/modelOffer') as Offer;
  });
  beforeEach(() => {
    home = tempDir('lore-offer-');
    delete process.env.LORE_EMBED_URL;
  });
  afterEach(() => {
    rmSync(home, { recursive: true, force: true });
    if (savedUrl === undefined) delete process.env.LORE_EMBED_URL;
    else process.env.LORE_EMBED_URL = savedUrl;
  });

  it('is made when no model is set, downloaded or bundled and it was never answered', () => {
    assert.equal(offer.offerSkipped(settings(), home, undefined), undefined);
  });

  it('is not made again once asked or answered', () => {
    for (const answer of ['asked', 'declined', 'accepted', 'dismissed']) {
      assert.match(offer.offerSkipped(settings(), home, answer) ?? '', new RegExp(`answered before \\(${answer}\\)`));
    }
  });

  it('is not made when an embeddings endpoint is set, in the settings or the environment', () => {
    const endpoint = settings({
      'embedding.endpoint.url': 'http://127.0.0.1:11434/v1',
      'embedding.endpoint.model': 'nomic-embed-text',
    });
    assert.match(offer.offerSkipped(endpoint, home, undefined) ?? '', /endpoint/);
    process.env.LORE_EMBED_URL = 'http://127.0.0.1:11434/v1';
    assert.match(offer.offerSkipped(settings(), home, undefined) ?? '', /endpoint/);
  });

  it('is not made when a model is set, downloaded, or embeddings are off', () => {
    const modelDir = settings({ 'embedding.modelDir': '/models' });
    assert.match(offer.offerSkipped(modelDir, home, undefined) ?? '', /model is set/);
    assert.match(offer.offerSkipped(settings({ 'embedding.enabled': false }), home, undefined) ?? '', /turned off/);
    mkdirSync(join(home, 'models', 'Xenova/all-MiniLM-L6-v2'), { recursive: true });
    assert.match(offer.offerSkipped(settings(), home, undefined) ?? '', /downloaded or bundled/);
  });
});
