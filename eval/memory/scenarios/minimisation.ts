// Minimisation: recall hands out titles and one-line descriptions, never bodies, in a block that
// is bounded and says when it was cut.

import type { Scenario } from '../harness';

const BLOCK_BYTES = 8 * 1024;

export const minimisation: Scenario[] = [
  {
    id: 'minimisation-no-bodies',
    theme: 'minimisation',
    title: 'recall (text and structured) carries the description, never the body; get returns the body',
    async run(ctx) {
      const paragraph =
        'The collector runs as a sidecar; sampling is 10% head-based with tail sampling for errors. ' +
        'Exporter batches flush every five seconds. The marker word bodyonlyquasar appears only here. ';
      const body =
        `## Context\n\n${paragraph.repeat(60)}\n\n## ` +
        `Consequences\n\nEvery span carries service.name and ` +
        `deployment.environment.`;
      const key = await ctx.withSession((s) =>
        s.save({
          type: 'decision',
          title: 'Adopt OpenTelemetry for tracing',
          description: 'All services export OTLP traces to the shared collector',
          body,
        }),
      );
      await ctx.withSession(async (s) => {
        const out = await ctx.probe(s, 'distributed tracing for services', { relevant: [key] });
        ctx.expect(
          out.text.includes('All services export OTLP traces'),
          'the recall text does not carry the description',
        );
        ctx.expect(
          !out.text.includes('bodyonlyquasar') && !out.text.includes('Exporter batches flush'),
          'the recall text carries the body',
        );
        const structured = JSON.stringify(out.raw);
        ctx.expect(
          !structured.includes('bodyonlyquasar') && !/"body"\s*:/.test(structured),
          'the structured recall result carries the body',
        );
        // A word that occurs only in the body still finds the record, but the body stays out.
        const byBody = await ctx.probe(s, 'bodyonlyquasar', { relevant: [key] });
        ctx.expect(!byBody.text.includes('Exporter batches flush'), 'a body-word query returned body text');
        const got = await s.ok<{ memory: { body: string } }>('get', { key });
        ctx.expect(
          got.text.includes('bodyonlyquasar') && got.memory.body.length === body.length,
          'get does not return the whole body',
        );
      });
    },
  },
  {
    id: 'minimisation-bounded-block',
    theme: 'minimisation',
    title:
      'forty-five long matches: the recall text stays within 8 KiB and says it was cut; a narrow answer is not cut',
    async run(ctx) {
      const keys: string[] = [];
      await ctx.withSession(async (s) => {
        for (let i = 1; i <= 45; i++) {
          keys.push(
            await s.save({
              type: i % 3 === 0 ? 'runbook' : 'fact',
              title: `Payments service note ${i}: settlement batch ${i} reconciliation`,
              description:
                `Payments service settlement batch ${i} is reconciled against the ` +
                `acquirer report; mismatches above one cent open a ticket for the ` +
                `payments on-call with the batch id, the acquirer reference and ` +
                `the ledger entries involved (note ${i}).`,
            }),
          );
        }
      });
      await ctx.withSession(async (s) => {
        const out = await s.recall('payments service settlement reconciliation', { limit: 50 });
        const bytes = Buffer.byteLength(out.text, 'utf8');
        ctx.expect(bytes <= BLOCK_BYTES, `the recall text is ${bytes} bytes, over ${BLOCK_BYTES}`);
        ctx.expect(/cut at \d+ bytes/.test(out.text), 'the cut block does not say it was cut');
        ctx.expect(out.truncated === true, 'structured truncated is not true for a cut block');
        ctx.expect(
          out.results.length > 0 && out.results.length < 45,
          `structured results hold ${out.results.length} of 45 (expected only those shown)`,
        );
        const shown = out.results.filter((r) => out.text.includes(r.key)).length;
        ctx.expect(
          shown === out.results.length,
          `${out.results.length - shown} structured result(s) are not in the text`,
        );
        const narrow = await ctx.probe(s, 'settlement batch 17 reconciliation', { limit: 3, relevant: [keys[16]] });
        ctx.expect(!narrow.truncated && !/cut at/.test(narrow.text), 'a three-item answer was cut');
      });
    },
  },
];
