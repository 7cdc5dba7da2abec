// Repairability: a wrong record can be taken back. Retracted records leave recall; forgotten ones
// leave no content anywhere in the store's files; deprecated ones rank below their replacement.

import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { processGone, type Scenario } from '../harness';

/** Every file under `dir`, read as bytes and lowercased as Latin-1 (a byte-for-byte view). */
function rawFiles(dir: string): Array<{ path: string; text: string }> {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return rawFiles(path);
    return [{ path, text: readFileSync(path).toString('latin1').toLowerCase() }];
  });
}

function occurrences(dir: string, words: string[]): string[] {
  const found: string[] = [];
  for (const file of rawFiles(dir))
    for (const word of words)
      if (file.text.includes(word.toLowerCase())) found.push(`"${word}" in ${file.path.slice(dir.length + 1)}`);
  return found;
}

export const repairability: Scenario[] = [
  {
    id: 'repair-retract',
    theme: 'repairability',
    title: 'a retracted fact never comes back in recall, not even as_of; the correction answers instead',
    async run(ctx) {
      const wrong = await ctx.withSession((s) =>
        s.save({
          type: 'fact',
          title: 'Feature flags are toggled in LaunchDarkly',
          description: 'Flip flags in the LaunchDarkly dashboard; no deploy needed',
        }),
      );
      const right = await ctx.withSession(async (s) => {
        const seen = await s.recall('where are feature flags toggled');
        ctx.expect(
          seen.keys.includes(wrong),
          'the wrong fact was not recalled before the retraction (the scenario proves nothing)',
        );
        await s.ok('set_status', {
          key: wrong,
          status: 'retracted',
          reason: 'we never used LaunchDarkly; flags live in config/flags.yaml',
        });
        return s.save({
          type: 'decision',
          title: 'Feature flags live in config/flags.yaml',
          description: 'Flags are read at start-up; toggling one is a one-line PR and a deploy',
        });
      });
      await ctx.withSession(async (s) => {
        await ctx.probe(s, 'where are feature flags toggled', { relevant: [right], irrelevant: [wrong] });
        await ctx.probe(s, 'LaunchDarkly dashboard', { irrelevant: [wrong] });
        await ctx.probe(s, 'where are feature flags toggled', {
          label: 'as of now',
          as_of: new Date().toISOString(),
          irrelevant: [wrong],
        });
        const listed = await s.ok<{ items: Array<{ key: string }> }>('list');
        ctx.expect(!listed.items.some((m) => m.key === wrong), 'list still shows the retracted fact');
      });
    },
  },
  {
    id: 'repair-forget-no-trace',
    theme: 'repairability',
    title: "forget removes every version: nothing in recall or history, and no word of it in the store's files",
    async run(ctx) {
      // Personal data an agent should not have saved, in two versions; distinctive words only.
      const words = [
        'Quokkaberg',
        'Zbigniew',
        'Marmaladeferret',
        'Xanthopoulos',
        'Vantablack',
        'escalation-contact-for-the-vantablack',
      ];
      const { key, control, storeDir } = await ctx.withSession(async (s) => {
        const first = await s.save({
          type: 'fact',
          title: 'Escalation contact for the Vantablack migration',
          description: 'Call Zbigniew Quokkaberg on his private mobile',
          body: 'Home address: 12 Marmaladeferret Lane.',
        });
        await s.save({
          type: 'fact',
          key: first,
          title: 'Escalation contact for the Vantablack migration',
          description: 'Call Zbigniew Quokkaberg, private number in his chat profile',
          body: 'Backup contact: Ottilie Xanthopoulos.',
        });
        const other = await s.save({
          type: 'runbook',
          title: 'Payments database migration',
          description: 'Run the expand step, backfill in batches of 10k, then the contract step',
        });
        return { key: first, control: other, storeDir: dirname(await s.storeFile()) };
      });
      const before = occurrences(storeDir, words);
      ctx.expect(
        before.length > 0,
        'the words were not found in the store before forget, so the byte check proves nothing',
      );
      const pid = await ctx.withSession(async (s) => {
        await ctx.probe(s, 'Quokkaberg', { label: 'before forget', relevant: [key] });
        const receipt = await s.ok<{ receipt: { versions_removed: number } }>('forget', { key });
        ctx.expect(
          receipt.receipt.versions_removed === 2,
          `forget removed ${receipt.receipt.versions_removed} version(s), expected 2`,
        );
        await ctx.probe(s, 'Quokkaberg', { label: 'after forget', irrelevant: [key] });
        await ctx.probe(s, 'escalation contact for the migration', { irrelevant: [key], relevant: [control] });
        const history = await s.call('history', { key });
        ctx.expect(history.isError, 'history still answers for the forgotten key');
        return s.pid;
      });
      ctx.expect(processGone(pid), 'the server was still running when the store file was read');
      const after = occurrences(storeDir, words);
      ctx.expect(after.length === 0, `forgotten text is still in the store: ${after.join('; ')}`);
      await ctx.withSession(async (s) => {
        await ctx.probe(s, 'Zbigniew Quokkaberg private mobile', { label: 'after restart', irrelevant: [key] });
        await ctx.probe(s, 'payments database migration', { label: 'control after restart', relevant: [control] });
      });
    },
  },
  {
    id: 'repair-deprecate-ranks-lower',
    theme: 'repairability',
    title: 'a deprecated decision is still recalled, flagged with its reason, below its replacement',
    async run(ctx) {
      const keys = await ctx.withSession(async (s) => ({
        moment: await s.save({
          type: 'decision',
          title: 'Use moment.js for date handling',
          description: 'Parse and format dates with moment in the web client',
        }),
        datefns: await s.save({
          type: 'decision',
          title: 'Use date-fns for date handling',
          description: 'Tree-shakeable date helpers in the web client',
        }),
      }));
      await ctx.withSession(async (s) => {
        await s.ok('set_status', {
          key: keys.moment,
          status: 'deprecated',
          reason: 'moment is in maintenance mode; new code uses date-fns',
        });
      });
      await ctx.withSession(async (s) => {
        const out = await ctx.probe(s, 'which library for date handling', {
          first: keys.datefns,
          below: [keys.moment],
        });
        const old = out.results.find((r) => r.key === keys.moment);
        ctx.expect(old?.flags.includes('deprecated'), `${keys.moment} is not flagged deprecated in recall`);
        ctx.expect(/maintenance mode/.test(out.text), 'the deprecation reason is not in the recall text');
      });
    },
  },
];
