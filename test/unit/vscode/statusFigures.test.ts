// The status-bar text and tooltip: files, pending embeddings, model (or why there is none), last update.

import assert from 'node:assert/strict';
import type { IndexStatus } from '../../../src/engine';
import { combine, describe as statusText } from '../../../src/vscode/statusFigures';

const status = (over: Partial<IndexStatus>): IndexStatus => ({
  files: 0,
  chunks: 0,
  redactions: 0,
  by_kind: {},
  model: null,
  model_problem: null,
  pending: 0,
  last_update: null,
  ...over,
});

describe('vscode status bar figures', () => {
  it('sums the folders and names the model', () => {
    const figures = combine([
      status({ files: 10, chunks: 40, pending: 3, model: 'minilm', last_update: '2026-01-02T00:00:00Z' }),
      status({ files: 2, chunks: 5, model: 'minilm', last_update: '2026-01-01T00:00:00Z' }),
    ]);
    const { text, tooltip } = statusText(figures);
    assert.equal(text, '$(book) Lore 12 files · 3 pending');
    assert.match(tooltip, /12 files, 45 chunks, 3 waiting for embeddings/);
    assert.match(tooltip, /Model: minilm/);
    assert.match(tooltip, /Last update: .+ ago \(.+\)/, 'a local, relative time, not the ISO text');
    assert.doesNotMatch(tooltip, /2026-01-02T00:00:00Z/);
  });

  it('says recall is lexical and why when there is no model', () => {
    const { text, tooltip } = statusText(combine([status({ files: 1, model_problem: 'no model in /data/models' })]));
    assert.equal(text, '$(book) Lore 1 file · lexical');
    assert.match(tooltip, /Model: none — recall is lexical/);
    assert.match(tooltip, /Why no model: no model in \/data\/models/);
    assert.match(tooltip, /Last update: never/);
  });

  it('names settings and commands, never a CLI command or an environment variable (issue 25)', () => {
    const problem =
      'The embedding model Xenova/all-MiniLM-L6-v2 (q8) is not in /data/models: recall is lexical-only. ' +
      'Run "lore model download" to fetch it once, or set LORE_MODEL_DIR (and LORE_MODEL) to a local model ' +
      'folder; LORE_EMBED_TOKEN_FILE or LORE_EMBED_TOKEN; LORE_EMBED=off';
    const { tooltip } = statusText(combine([status({ files: 1, model_problem: problem })]));
    assert.doesNotMatch(tooltip, /\blore [a-z]+ |LORE_[A-Z]/, tooltip);
    assert.match(tooltip, /Lore: Download Embedding Model/);
    assert.match(tooltip, /the lore\.embedding\.modelDir setting \(and the lore\.embedding\.model setting\)/);
  });
});
