// LORE_EMBED_THREADS as the shell-started processes read it: a thread count or auto; a value that
// is neither falls back to auto and says so once in the log, naming the variable and what it takes.

import { strict as assert } from 'node:assert';
import { embedderSettingsFromEnv } from '../../../src/host/embedSettings';
import type { Logger } from '../../../src/engine/ports';

function capture(): { logger: Logger; warnings: string[] } {
  const warnings: string[] = [];
  const none = () => {};
  return { logger: { trace: none, debug: none, info: none, error: none, warn: (m) => warnings.push(m) }, warnings };
}

const threadsOf = (value: string | undefined, logger?: Logger) => {
  const s = embedderSettingsFromEnv('/tmp/lore-home', { LORE_EMBED_THREADS: value }, logger);
  return s && 'threads' in s ? s.threads : undefined;
};

describe('LORE_EMBED_THREADS', () => {
  it('takes a whole number from 1 or auto, auto when unset, without a warning', () => {
    const { logger, warnings } = capture();
    assert.equal(threadsOf('3', logger), 3);
    assert.equal(threadsOf('auto', logger), 'auto');
    assert.equal(threadsOf(undefined, logger), 'auto');
    assert.deepEqual(warnings, []);
  });

  it('falls back to auto on anything else, warning once per value with the variable and what it accepts', () => {
    const { logger, warnings } = capture();
    assert.equal(threadsOf('two', logger), 'auto');
    assert.equal(threadsOf('two', logger), 'auto');
    assert.equal(threadsOf('0', logger), 'auto');
    assert.equal(threadsOf('1.5', logger), 'auto');
    assert.equal(warnings.length, 3, warnings.join('\n'));
    assert.match(warnings[0], /LORE_EMBED_THREADS="two" is not a thread count/);
    assert.match(warnings[0], /whole number from 1, or to auto/);
    assert.match(warnings[0], /using auto/);
  });
});
