// The report's drift slot: bench/drift.ts (owned with the drift feature) exports
// `runDriftBench({ quick })` returning plain figures; this turns them into a report section.
// Until that module exists the section says so and carries no figures.
//
// Accepted shapes from runDriftBench: a Section-like object with `figures`; an array of
// { name, unit, median | value | runs, baseline?, target? }; or a flat record of numbers
// (units read from the name: ...Ms → ms, ...PerSecond → /s).

import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { figure, type Figure, type Section, type Target } from './result';

interface PlainFigure {
  name: string;
  label?: string;
  unit?: string;
  sizes?: Record<string, number>;
  median?: number;
  value?: number;
  runs?: number[];
  baseline?: { label?: string; median?: number; value?: number; runs?: number[] };
  target?: Target;
}

function unitOf(name: string): string {
  if (/ms$|_ms$|Ms$/i.test(name)) return 'ms';
  if (/persecond$|per_second$|PerSecond$/i.test(name)) return '/s';
  return '';
}

function fromPlain(p: PlainFigure): Figure {
  const runs = p.runs?.length ? p.runs : [p.median ?? p.value ?? NaN];
  const b = p.baseline;
  return figure({
    name: p.name.startsWith('drift.') ? p.name : `drift.${p.name}`,
    label: p.label ?? p.name,
    sizes: p.sizes,
    unit: p.unit ?? unitOf(p.name),
    runs,
    ...(b
      ? { baseline: { label: b.label ?? 'baseline', runs: b.runs?.length ? b.runs : [b.median ?? b.value ?? NaN] } }
      : {}),
    ...(p.target ? { target: p.target } : {}),
  });
}

export function driftFigures(raw: unknown): Figure[] {
  if (Array.isArray(raw)) return (raw as PlainFigure[]).map(fromPlain);
  if (raw && typeof raw === 'object') {
    const o = raw as Record<string, unknown>;
    if (Array.isArray(o.figures))
      return (o.figures as PlainFigure[]).map((f) =>
        Array.isArray(f.runs) && typeof f.median === 'number' && 'met' in f ? (f as unknown as Figure) : fromPlain(f),
      );
    return Object.entries(o)
      .filter(([, v]) => typeof v === 'number')
      .map(([name, v]) => fromPlain({ name, value: v as number }));
  }
  return [];
}

export async function driftSection(quick: boolean, log?: (line: string) => void): Promise<Section> {
  const started = Date.now();
  const module = ['drift.ts', 'drift.js'].map((f) => join(__dirname, f)).find((f) => existsSync(f));
  const section: Section = { bench: 'drift', title: 'Drift detection', method: {}, figures: [], notes: [], seconds: 0 };
  if (!module) {
    section.notes.push(
      'SLOT: bench/drift.ts (runDriftBench({ quick })) is not there yet; no drift figures in this report',
    );
    return section;
  }
  const loaded = (await import(module)) as { runDriftBench?: (o: { quick: boolean }) => Promise<unknown> | unknown };
  if (typeof loaded.runDriftBench !== 'function')
    throw new Error('bench/drift.ts does not export runDriftBench({ quick })');
  const raw = await loaded.runDriftBench({ quick });
  section.figures = driftFigures(raw);
  if (raw && typeof raw === 'object' && !Array.isArray(raw)) {
    const o = raw as Record<string, unknown>;
    if (typeof o.title === 'string') section.title = o.title;
    if (o.method && typeof o.method === 'object') section.method = o.method as Record<string, string>;
    if (Array.isArray(o.notes)) section.notes = o.notes.map(String);
  }
  section.details = raw;
  section.seconds = (Date.now() - started) / 1000;
  log?.(`drift: ${section.figures.length} figure(s)`);
  return section;
}
