// The engine stays pure: no 'vscode', no process I/O, no environment, no stdout. A test fails if one appears.

import { strict as assert } from 'node:assert';
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

const ENGINE = join(__dirname, '..', '..', 'src', 'engine');

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? sourceFiles(path) : path.endsWith('.ts') ? [path] : [];
  });
}

const FORBIDDEN: Array<[RegExp, string]> = [
  [/from ['"]vscode['"]|require\(['"]vscode['"]\)/, "imports 'vscode'"],
  [/from ['"](node:)?(fs|fs\/promises|child_process|net|http|https|os|worker_threads|readline)['"]/, 'imports process I/O'],
  [/\bprocess\./, 'touches process (env, stdout, exit…)'],
  [/\bconsole\./, 'writes to the console'],
];

describe('engine purity', () => {
  const files = sourceFiles(ENGINE);

  it('has source files to check', () => {
    assert.ok(files.length > 10, `found only ${files.length} engine files`);
  });

  for (const [pattern, what] of FORBIDDEN) {
    it(`no engine module ${what}`, () => {
      const offenders = files.filter((file) => pattern.test(readFileSync(file, 'utf8')));
      assert.deepEqual(offenders, [], `${offenders.join(', ')} ${what}`);
    });
  }
});
