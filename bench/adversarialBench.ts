// Hostile text against every parser that reads untrusted text: the secret rules (`a.a.a.…`,
// `a:a:a…`, `-----BEGIN` repeated, runs of key-like base64, half-URLs), a markdown file's way into
// the index (classify, redact, chunk, and the references drift reads from it: a file of `[`, of
// code spans, of half links…), and a search hit's snippet. Each input is grown ×2 from the smallest
// size to the largest (16 KiB → 1 MiB; --quick 16 → 128 KiB), and timed at each size in CPU time per
// KB, each size's run repeated to the same bytes as the largest, median of several rounds. The
// figure is the cost per KB at the largest size, its baseline that at the smallest: a linear
// parser keeps the ratio near 1, a quadratic one makes it grow with the size ratio (64 across
// 16 KiB → 1 MiB, 8 in --quick). A ratio over RATIO_BOUND fails the run (the bench exits non-zero),
// in --quick too (the test suite's quick run checks only that the figures are well formed: at its
// sizes noise can pass ×4). The two inputs issue 30 named (`[` × 1 MiB, and 1 MiB of code spans on
// one line) are also timed whole at 1 MiB against 1 s.

import { extractFromMarkdown } from '../src/engine/drift/extract';
import { chunkDocument } from '../src/engine/indexing/chunk';
import { classify } from '../src/engine/indexing/classify';
import { redact } from '../src/engine/indexing/redact';
import { validateRemember } from '../src/engine/model/validate';
import { docSnippet } from '../src/engine/search/snippet';
import { terms } from '../src/engine/text/words';
import { figure, type Figure, type Section } from './result';

/** Cost per KB at the largest size over that at the smallest, beyond which a parser counts as super-linear. */
export const RATIO_BOUND = 4;

export interface AdversarialBenchOptions {
  quick: boolean;
  smallBytes: number;
  /** How many times the input is doubled from smallBytes: the largest is smallBytes × 2^doublings. */
  doublings: number;
  reps: number;
}

export function adversarialOptions(
  quick: boolean,
  overrides: Partial<AdversarialBenchOptions> = {},
): AdversarialBenchOptions {
  const KB = 1024;
  const sizes = quick ? { smallBytes: 16 * KB, doublings: 3 } : { smallBytes: 16 * KB, doublings: 6 };
  return { quick, ...sizes, reps: quick ? 3 : 5, ...overrides };
}

/**
 * Hostile shapes for a markdown file's way into the index (classification, chunking, the references
 * drift reads), each the unit repeated, framed as `# a…b`: one heading line for the spaces, a first
 * heading and a last word for the others.
 */
export const ADVERSARIAL_FILES: Record<string, string> = {
  newlines: '\n',
  headings: '# h\n',
  // One heading line, `# ` then spaces: the old heading pattern was cubic on it (2,000 spaces: 24 s).
  'a heading of spaces': ' ',
  'unclosed <%': '<%',
  'template braces': '{{',
  'indented bullets': '  - a\n',
  // The link pattern retried every `[` to the end of the line (128 KiB: 27 s, 256 KiB: 110 s).
  'brackets [': '[',
  'image brackets ![': '![',
  'escaped \\[': '\\[',
  'half links [a](': '[a](',
  'backticks `': '`',
  // 60,000 code spans on one line took 38 s: each was blanked by a search from the line's start.
  'code spans `a`': '`a` ',
  'half autolinks <http://': '<http://',
  'reference definitions': '[a]: #a\n',
  'closing )': ')',
  'html tags <a ': '<a ',
};

/** Hostile shapes whole files take: a title of spaces in front matter, a heading of `{#` ids. */
const FRAMED_FILES: Record<string, [unit: string, frame: (body: string) => string]> = {
  'a front-matter title of spaces': [' ', (body) => `---\ntitle: a${body}b\n---\n# x\n`],
  'heading ids {#a': ['{#a', (body) => `# a${body}b\n`],
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

/** Hostile chunk texts a search hit's snippet is cut from. */
const ADVERSARIAL_SNIPPETS: Record<string, string> = {
  'table rules |': '|',
  'bullets - ': '- ',
  'front matter ---': '---\n',
};

function textOf(unit: string, bytes: number): string {
  return unit.repeat(Math.ceil(bytes / unit.length)).slice(0, bytes);
}

/** What the indexer does with one markdown file's text: classify, redact, chunk, and read its references. */
export function indexMarkdown(file: string): void {
  const kind = classify('docs/hostile.md', file, { chartRoots: new Set() });
  chunkDocument(kind, redact(file).text);
  extractFromMarkdown(file, 'docs/hostile.md', kind);
}

/** CPU milliseconds (this process, all threads) to run `work`: less swayed than wall time by other processes. */
function cpuMs(work: () => void): number {
  const start = process.cpuUsage();
  work();
  const used = process.cpuUsage(start);
  return (used.user + used.system) / 1000;
}

/** Microseconds of CPU per KB to run `work` over `text`, repeated until `total` bytes have been processed. */
function perKb(work: (text: string) => void, text: string, total: number): number {
  const times = Math.max(1, Math.round(total / text.length));
  const ms = cpuMs(() => {
    for (let i = 0; i < times; i++) work(text);
  });
  return (ms * 1000) / ((times * text.length) / 1024);
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

const snippetOf = (text: string) => {
  docSnippet(
    { text, heading: 'Hostile > chunk', title: 'Hostile', startLine: 1, endLine: 2 } as never,
    new Set(['zz']),
  );
  terms(text);
};

interface Work {
  name: string;
  label: string;
  run: (text: string) => void;
  /** The input at a size. */
  input: (bytes: number) => string;
  minBytes?: number;
}

const slug = (name: string) =>
  name
    .replace(/[^a-z0-9]+/gi, '_')
    .replace(/^_|_$/g, '')
    .toLowerCase();

function works(): Work[] {
  return [
    ...Object.entries(ADVERSARIAL_INPUTS).map(([name, unit]) => ({
      name: `adversarial.redact.${slug(name)}`,
      label: `redact ${name}`,
      run: (text: string) => void redact(text),
      input: (bytes: number) => textOf(unit, bytes),
    })),
    ...Object.entries(ADVERSARIAL_FILES).map(([name, unit]) => ({
      name: `adversarial.index.${slug(name)}`,
      label: `index a markdown file of ${name}`,
      run: indexMarkdown,
      input: (bytes: number) => `# a${textOf(unit, bytes)}b`,
    })),
    ...Object.entries(FRAMED_FILES).map(([name, [unit, frame]]) => ({
      name: `adversarial.index.${slug(name)}`,
      label: `index a markdown file with ${name}`,
      run: indexMarkdown,
      input: (bytes: number) => frame(textOf(unit, bytes)),
    })),
    ...Object.entries(ADVERSARIAL_SNIPPETS).map(([name, unit]) => ({
      name: `adversarial.snippet.${slug(name)}`,
      label: `snippet of a chunk of ${name}`,
      run: snippetOf,
      input: (bytes: number) => textOf(unit, bytes),
    })),
    // An over-long body starts past the 16 KiB limit, so every size is refused.
    {
      name: 'adversarial.refuse_body',
      label: 'refuse an over-long body (a.a.a.)',
      run: refuse,
      input: (bytes: number) => textOf('a.', bytes),
      minBytes: 32 * 1024,
    },
  ];
}

/** The ladder of sizes: smallBytes (or minBytes, if larger) doubled `doublings` times. */
function ladder(options: AdversarialBenchOptions, minBytes = 0): number[] {
  const sizes = [];
  for (let i = 0; i <= options.doublings; i++) sizes.push(Math.max(options.smallBytes, minBytes) * 2 ** i);
  return sizes;
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
};

export function adversarialSection(options: AdversarialBenchOptions): Section {
  const started = Date.now();
  const target = { on: 'ratio' as const, op: '<=' as const, limit: RATIO_BOUND };
  const figures: Figure[] = [];
  const ladders: Record<string, Record<string, number>> = {};
  for (const work of works()) {
    const sizes = ladder(options, work.minBytes);
    const largest = sizes[sizes.length - 1];
    const inputs = sizes.map((bytes) => work.input(bytes));
    work.run(inputs[0]); // warm-up: the patterns compiled and tiered up before anything is timed
    // Each round times every size, smallest to largest, so a burst of load lands on all of them.
    const bySize = sizes.map(() => [] as number[]);
    for (let r = 0; r < options.reps; r++)
      inputs.forEach((input, i) => bySize[i].push(perKb(work.run, input, largest)));
    ladders[work.name] = Object.fromEntries(sizes.map((b, i) => [`${b / 1024} KiB`, median(bySize[i])]));
    const f = figure({
      name: work.name,
      label: work.label,
      sizes: { small_bytes: sizes[0], large_bytes: largest, doublings: sizes.length - 1 },
      unit: 'µs/KB',
      runs: bySize[bySize.length - 1],
      baseline: { label: `${sizes[0] / 1024} KiB input`, runs: bySize[0] },
      target,
    });
    figures.push({ ...f, enforced: true });
  }
  figures.push(...namedInputs(options));
  return {
    bench: 'adversarial',
    title: 'Hostile input',
    method: {
      redact: 'every secret rule over the input, PEM blocks widened to their lines, as the indexer redacts',
      index: 'classify, redact and chunk a markdown file, and read its references, as the indexer does with each file',
      snippet: "a search hit's snippet and query terms cut from a hostile chunk",
      refuse_body: 'validateRemember on a body over 16 KiB: refused on its size before any rule reads it',
      ratio:
        `CPU time per KB at the largest size over that at the smallest, each the median of ${options.reps} rounds; ` +
        `near 1 is linear time; over ${RATIO_BOUND} fails the run`,
      named_1mib: 'the two inputs of issue 30 indexed whole at 1 MiB (CPU ms, median), held to 1 s',
    },
    figures,
    notes: [],
    seconds: (Date.now() - started) / 1000,
    details: { cost_per_kb_by_size: ladders },
  };
}

/** `[` × 1 MiB and 1 MiB of code spans on one line, indexed whole: 27 s at 128 KiB and 38 s before. */
function namedInputs(options: AdversarialBenchOptions): Figure[] {
  const bytes = options.quick ? 64 * 1024 : 1024 * 1024;
  const named: Array<[string, string, string]> = [
    ['adversarial.named.brackets', 'index a 1 MiB markdown file of [', '['],
    ['adversarial.named.code_spans', 'index 1 MiB of code spans on one line', '`a` '],
  ];
  return named.map(([name, label, unit]) => {
    const file = `# a${textOf(unit, bytes)}b`;
    const runs = [];
    for (let r = 0; r < Math.min(options.reps, 3); r++) runs.push(cpuMs(() => indexMarkdown(file)));
    return figure({
      name,
      label: options.quick ? label.replace('1 MiB', '64 KiB') : label,
      sizes: { bytes },
      unit: 'ms',
      runs,
      target: { on: 'median', op: '<=', limit: 1000 },
    });
  });
}
