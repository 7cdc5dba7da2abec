// Hostile text against the secret rules: inputs shaped to make a backtracking pattern retry at
// every offset (`a.a.a.…`, `a:a:a…`, `-----BEGIN` repeated, runs of key-like base64, half-URLs),
// redacted whole as the indexer does, and over-long bodies refused as a save does. The figure is
// the cost per KB of the large input, its baseline the cost per KB of the small one (the small one
// repeated to the same total bytes, in the same run): linear rules keep the ratio near 1, a
// quadratic one makes it grow with the size ratio (64 at 16 KB vs 1 MiB).

import { chunkDocument } from '../src/engine/indexing/chunk';
import { classify } from '../src/engine/indexing/classify';
import { redact } from '../src/engine/indexing/redact';
import { validateRemember } from '../src/engine/model/validate';
import { elapsedMs, figure, now, type Section } from './result';

export interface AdversarialBenchOptions {
  quick: boolean;
  smallBytes: number;
  largeBytes: number;
  reps: number;
}

export function adversarialOptions(
  quick: boolean,
  overrides: Partial<AdversarialBenchOptions> = {},
): AdversarialBenchOptions {
  const KB = 1024;
  const sizes = quick ? { smallBytes: 4 * KB, largeBytes: 64 * KB } : { smallBytes: 16 * KB, largeBytes: 1024 * KB };
  return { quick, ...sizes, reps: quick ? 2 : 5, ...overrides };
}

/** Each input is its unit repeated to the size asked for. */
/** Hostile shapes for the rest of a file's way into the index (classification and chunking). */
export const ADVERSARIAL_FILES: Record<string, string> = {
  newlines: '\n',
  headings: '# h\n',
  // One heading line, `# ` then spaces: the old heading pattern was cubic on it (2,000 spaces: 24 s).
  'a heading of spaces': ' ',
  'unclosed <%': '<%',
  'template braces': '{{',
  'indented bullets': '  - a\n',
};

export const ADVERSARIAL_INPUTS: Record<string, string> = {
  'a.a.a.': 'a.',
  'a:a:a:': 'a:',
  aaaa: 'a',
  'BEGIN repeated': '-----BEGIN RSA PRIVATE KEY-----',
  'END lines': '-----END PRIVATE KEY-----\n',
  'base64 lines': `${'Q'.repeat(64)}\n`,
  '40-char tokens': 'wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY ',
  'half URLs': 'a://b:c',
  'name=': 'db_password=',
};

function textOf(unit: string, bytes: number): string {
  return unit.repeat(Math.ceil(bytes / unit.length)).slice(0, bytes);
}

/** Microseconds per KB to run `work` over `text`, repeated until `total` bytes have been processed. */
function perKb(work: (text: string) => void, text: string, total: number): number {
  const times = Math.max(1, Math.round(total / text.length));
  const start = now();
  for (let i = 0; i < times; i++) work(text);
  return (elapsedMs(start) * 1000) / ((times * text.length) / 1024);
}

const refuse = (body: string) => {
  try {
    const provenance = { source: 'user' as const };
    validateRemember({ type: 'fact', title: 'Hostile body', description: 'A body over the limit', body, provenance });
  } catch {
    return; // refused on its size, as it should be
  }
  throw new Error('an over-long body was accepted');
};

export function adversarialSection(options: AdversarialBenchOptions): Section {
  const started = Date.now();
  const sizes = { small_bytes: options.smallBytes, large_bytes: options.largeBytes };
  const target = { on: 'ratio' as const, op: '<=' as const, limit: 2 };
  const figures = [];
  const work: Array<[string, string, (text: string) => void, string]> = [
    ...Object.entries(ADVERSARIAL_INPUTS).map(([name, unit]): [string, string, (text: string) => void, string] => [
      `adversarial.redact.${name.replace(/[^a-z0-9]+/gi, '_').replace(/^_|_$/g, '')}`,
      `redact ${name}`,
      (text) => void redact(text),
      unit,
    ]),
    ...Object.entries(ADVERSARIAL_FILES).map(([name, unit]): [string, string, (text: string) => void, string] => [
      // Framed as `# a…b`: one heading line for the spaces, a first heading and a last word for the others.
      `adversarial.index.${name.replace(/[^a-z0-9]+/gi, '_')}`,
      `index a markdown file of ${name}`,
      (text) => {
        const file = `# a${text}b`;
        chunkDocument(classify('docs/hostile.md', file, { chartRoots: new Set() }), redact(file).text);
      },
      unit,
    ]),
    ['adversarial.refuse_body', 'refuse an over-long body (a.a.a.)', refuse, 'a.'],
  ];
  for (const [name, label, run, unit] of work) {
    // An over-long body starts past the 16 KiB limit, so both sizes are refused.
    const smallBytes = run === refuse ? Math.max(options.smallBytes, 32 * 1024) : options.smallBytes;
    const small = textOf(unit, smallBytes);
    const large = textOf(unit, options.largeBytes);
    const base: number[] = [];
    const runs: number[] = [];
    run(small); // warm-up: the patterns compiled and tiered up before anything is timed
    for (let r = 0; r < options.reps; r++) {
      base.push(perKb(run, small, options.largeBytes));
      runs.push(perKb(run, large, options.largeBytes));
    }
    figures.push(
      figure({
        name,
        label,
        sizes: { ...sizes, small_bytes: smallBytes },
        unit: 'µs/KB',
        runs,
        baseline: { label: `${Math.round(smallBytes / 1024)} KB input`, runs: base },
        target,
      }),
    );
  }
  return {
    bench: 'adversarial',
    title: 'Hostile input',
    method: {
      redact: 'every secret rule over the input, PEM blocks widened to their lines, as the indexer redacts',
      index: 'classify, redact and chunk a markdown file, as the indexer does with each file it reads',
      refuse_body: 'validateRemember on a body over 16 KiB: refused on its size before any rule reads it',
      ratio: 'cost per KB of the large input over that of the small one; near 1 is linear time',
    },
    figures,
    notes: [],
    seconds: (Date.now() - started) / 1000,
  };
}
