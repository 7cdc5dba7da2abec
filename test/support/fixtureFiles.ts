// A fixture folder under test/fixtures read as the files of a drift space (path → text).

import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';

export function fixtureFiles(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (at: string) => {
    for (const entry of readdirSync(at, { withFileTypes: true })) {
      const path = join(at, entry.name);
      if (entry.isDirectory()) walk(path);
      else out[relative(dir, path).split('\\').join('/')] = readFileSync(path, 'utf8');
    }
  };
  walk(dir);
  return out;
}
