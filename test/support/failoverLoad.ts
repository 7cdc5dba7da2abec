// Agents writing while their store's owner is killed again and again: the measurement behind
// issue 14's failover point, in small (the e2e test) and in full (eval/failover.ts). Each agent is
// a real `lore mcp` over stdio; the first owner is a `lore serve`; after each share of the writes
// the current owner (named by owner.json) gets SIGKILL. When that owner was an agent's own
// `lore mcp`, that agent's calls in flight die with it (counted as "in a kill") and the agent
// starts again, as a person would restart it. Every other failed call counts against Lore, and
// every acknowledged write must be in the store at the end.

import { spawnSync } from 'node:child_process';
import { once } from 'node:events';
import { readOwner } from '../../src/host/ownerLock';
import { CLI, ownerFile, sandbox, startServe, stdioAgent, text, type Agent, type Sandbox } from './processes';

export interface FailoverLoadOptions {
  agents: number;
  writesPerAgent: number;
  kills: number;
}

export interface FailoverLoadResult {
  calls: number;
  acknowledged: number;
  /** Calls that failed while the agent's own lore mcp was being killed. */
  failedInKill: number;
  /** Every other failed call, with why: the figure that must be zero. */
  failed: string[];
  /** Acknowledged writes missing from the store at the end. */
  lost: string[];
  kills: { serve: number; agents: number };
  auditOk: boolean;
}

interface Slot {
  name: string;
  agent: Agent;
  /** Bumped when this agent's lore mcp is killed; a call that saw it change died in the kill. */
  generation: number;
  ready: Promise<void>;
}

function listKeys(box: Sandbox): Set<string> {
  const keys = new Set<string>();
  for (let offset = 0; ; offset += 200) {
    const r = spawnSync(
      process.execPath,
      [
        CLI,
        '--workspace',
        box.workspace,
        '--json',
        'list',
        '--type',
        'fact',
        '--limit',
        '200',
        '--offset',
        String(offset),
      ],
      { env: box.env, encoding: 'utf8' },
    );
    const page = JSON.parse(r.stdout) as { items: Array<{ key: string }>; next_offset: number | null };
    for (const item of page.items) keys.add(item.key);
    if (page.next_offset === null) return keys;
  }
}

export async function runFailoverLoad(options: FailoverLoadOptions): Promise<FailoverLoadResult> {
  const box = sandbox();
  const serve = await startServe(box);
  const slots: Slot[] = [];
  for (let i = 0; i < options.agents; i++) {
    const name = `agent-${i}`;
    slots.push({ name, agent: await stdioAgent(box, name), generation: 0, ready: Promise.resolve() });
  }
  const result: FailoverLoadResult = {
    calls: 0,
    acknowledged: 0,
    failedInKill: 0,
    failed: [],
    lost: [],
    kills: { serve: 0, agents: 0 },
    auditOk: false,
  };
  const acknowledged: string[] = [];
  const total = options.agents * options.writesPerAgent;
  const killEvery = Math.floor(total / (options.kills + 1));
  let killing: Promise<void> | undefined;
  let killsDone = 0;

  /** Kills the current owner once it is serving (an owner file with a port); false when none is yet. */
  const killOwner = async (): Promise<boolean> => {
    const owner = readOwner(ownerFile(box));
    if (!owner?.port) return false;
    if (owner.pid === serve.child.pid && serve.child.exitCode === null && serve.child.signalCode === null) {
      const exited = once(serve.child, 'exit');
      serve.child.kill('SIGKILL');
      await exited;
      result.kills.serve++;
      return true;
    }
    const slot = slots.find((s) => s.agent.pid === owner.pid);
    if (!slot) return false;
    slot.generation++;
    let restarted!: () => void;
    slot.ready = new Promise((resolve) => (restarted = resolve));
    process.kill(owner.pid, 'SIGKILL');
    await slot.agent.close().catch(() => undefined);
    slot.agent = await stdioAgent(box, slot.name);
    restarted();
    result.kills.agents++;
    return true;
  };

  const maybeKill = () => {
    if (killing || killsDone >= options.kills || result.acknowledged < (killsDone + 1) * killEvery) return;
    killing = killOwner().then((done) => {
      if (done) killsDone++;
      killing = undefined;
    });
  };

  await Promise.all(
    slots.map(async (slot, a) => {
      for (let i = 0; i < options.writesPerAgent; i++) {
        await slot.ready;
        const generation = slot.generation;
        const title = `Agent ${a} write ${i}`;
        result.calls++;
        try {
          const r = await slot.agent.call('remember', {
            type: 'fact',
            title,
            description: `written by agent ${a}, number ${i}`,
          });
          const out = r.structuredContent as { saved?: boolean; key?: string } | undefined;
          if (r.isError || !out?.saved) throw new Error(text(r));
          acknowledged.push(out.key!);
          result.acknowledged++;
        } catch (error) {
          if (slot.generation !== generation) result.failedInKill++;
          else
            result.failed.push(
              `${title}: ${(error as Error).message.slice(0, 300)}\n${slot.agent.stderr?.().slice(-3000) ?? ''}`,
            );
        }
        maybeKill();
      }
    }),
  );
  await killing;
  try {
    const stored = listKeys(box);
    result.lost = acknowledged.filter((key) => !stored.has(key));
    const audit = spawnSync(process.execPath, [CLI, '--workspace', box.workspace, '--json', 'audit', 'verify'], {
      env: box.env,
      encoding: 'utf8',
    });
    result.auditOk = JSON.parse(audit.stdout).ok === true;
  } finally {
    await Promise.all(slots.map((s) => s.agent.close().catch(() => undefined)));
    await serve.stop().catch(() => undefined);
  }
  return result;
}
