// `npm run eval:failover [-- --agents 4 --writes 250 --kills 10]`: agents writing through
// `lore mcp` while the store's owner is killed (SIGKILL) again and again, all on loopback in a
// temporary LORE_HOME. Prints the calls, the acknowledged writes, the calls that failed in a kill
// (the killed agent's own call in flight) and outside one (must be 0), and the acknowledged
// writes missing afterwards (must be 0). Needs `npm run build` first.

import { parseArgs } from 'node:util';
import { runFailoverLoad } from '../test/support/failoverLoad';

const { values } = parseArgs({
  options: {
    agents: { type: 'string', default: '4' },
    writes: { type: 'string', default: '250' },
    kills: { type: 'string', default: '10' },
  },
});
const count = (name: string, value: string, max: number) => {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1 || n > max) throw new Error(`--${name} must be a whole number from 1 to ${max}`);
  return n;
};
const options = {
  agents: count('agents', values.agents!, 16),
  writesPerAgent: count('writes', values.writes!, 5000),
  kills: count('kills', values.kills!, 100),
};

void (async () => {
  const started = Date.now();
  const r = await runFailoverLoad(options);
  console.log(
    JSON.stringify(
      {
        agents: options.agents,
        writes_per_agent: options.writesPerAgent,
        kills_requested: options.kills,
        calls: r.calls,
        acknowledged: r.acknowledged,
        failed_in_kill: r.failedInKill,
        failed: r.failed.length,
        lost: r.lost.length,
        kills: r.kills,
        audit_ok: r.auditOk,
        seconds: Math.round((Date.now() - started) / 1000),
      },
      null,
      2,
    ),
  );
  for (const line of [...r.failed, ...r.lost.map((key) => `lost: ${key}`)].slice(0, 20)) console.log(line);
  process.exit(r.failed.length || r.lost.length || !r.auditOk ? 1 : 0);
})().catch((error) => {
  console.error(error);
  process.exit(1);
});
