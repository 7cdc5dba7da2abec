// Engineering vocabulary: for an engineering question, the decision or runbook that answers it
// outranks chat-style facts and preferences that merely talk about the same thing.

import type { Scenario } from '../harness';

export const vocabulary: Scenario[] = [
  {
    id: 'vocab-decision-over-chat',
    theme: 'vocabulary',
    title: 'the webhook retry decision outranks chat notes and a preference about webhook retries',
    async run(ctx) {
      const keys = await ctx.withSession(
        async (s) => ({
          decision: await s.save({
            type: 'decision',
            title: 'Retry failed webhooks with exponential backoff',
            description:
              'Deliveries are retried 5 times with exponential backoff capped ' +
              'at 10 minutes, then moved to the dead-letter table',
          }),
          chat: await s.save({
            type: 'fact',
            title: 'Sam mentioned webhook retries in standup',
            description: 'Sam said the webhook retry question came up again in chat today',
          }),
          pref: await s.save({
            type: 'preference',
            title: 'Keep answers about webhooks short',
            description: 'When the user asks about webhook retries, they prefer a two-line answer',
          }),
        }),
        'chat-assistant',
      );
      await ctx.withSession(async (s) => {
        await ctx.probe(s, 'how do webhook retries work', { first: keys.decision, below: [keys.chat, keys.pref] });
        await ctx.probe(s, 'what happens when a webhook delivery keeps failing', {
          first: keys.decision,
          below: [keys.chat, keys.pref],
        });
      });
    },
  },
  {
    id: 'vocab-runbook-over-chat',
    theme: 'vocabulary',
    title: "the credential-rotation runbook outranks a chat fact that repeats the question's words",
    async run(ctx) {
      const keys = await ctx.withSession(
        async (s) => ({
          runbook: await s.save({
            type: 'runbook',
            title: 'Rotate the Postgres credentials',
            description:
              'Create a new role password in Vault, update the app secret, roll ' +
              'the API pods, then revoke the old password',
            basis: 'verified',
          }),
          chat: await s.save({
            type: 'fact',
            title: 'User asked how to rotate database credentials',
            description: "In yesterday's chat the user asked about rotating the database credentials before the audit",
          }),
          pref: await s.save({
            type: 'preference',
            title: 'Prefers step-by-step answers for credential questions',
            description: 'When asked about credentials or rotation, answer as numbered steps',
          }),
        }),
        'chat-assistant',
      );
      await ctx.withSession(async (s) => {
        await ctx.probe(s, 'how do I rotate the database credentials', {
          first: keys.runbook,
          below: [keys.chat, keys.pref],
        });
        await ctx.probe(s, 'rotate postgres password', { first: keys.runbook, below: [keys.chat, keys.pref] });
      });
    },
  },
  {
    id: 'vocab-decision-over-preference',
    theme: 'vocabulary',
    title: 'the ORM decision outranks a preference that names another ORM',
    async run(ctx) {
      const keys = await ctx.withSession(async (s) => ({
        decision: await s.save({
          type: 'decision',
          title: 'Use Drizzle ORM for database access',
          description: 'Queries are typed with Drizzle; schema lives in src/db/schema.ts; no raw SQL in handlers',
        }),
        pref: await s.save({
          type: 'preference',
          title: 'Likes Prisma examples',
          description: 'The user enjoys answers with Prisma ORM examples for database access questions',
        }),
        chat: await s.save({
          type: 'fact',
          title: 'ORM came up in the retro',
          description: 'Someone in the retro asked which ORM we use for database access',
        }),
      }));
      await ctx.withSession(async (s) => {
        await ctx.probe(s, 'which ORM do we use for database access', {
          first: keys.decision,
          below: [keys.pref, keys.chat],
        });
      });
    },
  },
];
