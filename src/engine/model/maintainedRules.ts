// The maintained half of secret detection: secretlint's recommended preset
// (@secretlint/secretlint-rule-preset-recommend, pinned in package.json), run in this process, with
// no network and no configuration file. Its rules report ranges from synchronous `file` handlers,
// so they are driven here directly (the engine validates synchronously); @secretlint/core runs the
// same rules in the corpus test to show this driver finds what secretlint itself finds.
// The preset's comment filter is left out on purpose: a `secretlint-disable` comment written into
// a memory or a file must not switch detection off.

import { rules as presetRules } from '@secretlint/secretlint-rule-preset-recommend';

export interface MaintainedFinding {
  /** `secretlint-<rule>`, e.g. `secretlint-sendgrid`. */
  rule: string;
  description: string;
  index: number;
  length: number;
}

interface RuleReport {
  range: readonly [number, number];
}

interface ScannerRule {
  meta: { id: string; type?: string };
  create(
    context: {
      createTranslator: (messages: unknown) => (id: string, data?: unknown) => unknown;
      report: (descriptor: RuleReport) => void;
      ignore: (descriptor: unknown) => void;
    },
    options: Record<string, unknown>,
  ): { file?: (source: { content: string; filePath: string; ext: string; contentType: 'text' }) => unknown };
}

const SCANNERS = (presetRules as unknown as ScannerRule[]).filter(
  (rule) => rule.meta.type !== 'filter' && !rule.meta.id.includes('filter-'),
);

function shortName(id: string): string {
  return id.replace('@secretlint/secretlint-rule-', 'secretlint-');
}

/** Every secret the preset finds in `text` (`ext`: the file's extension, which a few rules look at). */
export function maintainedFindings(text: string, ext = ''): MaintainedFinding[] {
  const findings: MaintainedFinding[] = [];
  for (const rule of SCANNERS) {
    const rule_ = shortName(rule.meta.id);
    const handlers = rule.create(
      {
        createTranslator: () => (id) => id,
        report: ({ range: [start, end] }) =>
          findings.push({
            rule: rule_,
            description: `a secret (${rule_.slice('secretlint-'.length)}, by secretlint's recommended rules)`,
            index: start,
            length: end - start,
          }),
        ignore: () => undefined,
      },
      {},
    );
    handlers.file?.({ content: text, filePath: `text${ext}`, ext, contentType: 'text' });
  }
  return findings;
}
