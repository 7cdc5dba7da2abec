// A workspace's store filled with the bench's generated memories, written in one batch and closed
// again: the benches that then time whole processes (hooks, transports) start from the same store.

import type { Actor } from '../src/engine';
import { openStore } from '../src/host/openStore';
import { Corpus } from './corpus';

const actor: Actor = { door: 'import', name: 'bench' };

export function seedMemories(workspace: string, home: string, memories: number, seed: number): void {
  const store = openStore({ workspace, home, door: 'bench' });
  try {
    const corpus = new Corpus(seed);
    store.engine.batch(() => {
      for (let i = 0; i < memories; i++) store.engine.remember(actor, corpus.memory(i));
    });
  } finally {
    store.close();
  }
}
