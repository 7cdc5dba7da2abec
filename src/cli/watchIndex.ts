// The body of `lore watch`, loaded only by that command (chokidar and the MCP server stay out of
// every other command's start).

import { watch } from 'chokidar';
import { relative, sep } from 'node:path';
import { discoveryMatcher } from '../engine';
import { runIndex } from '../host/engineApi';
import { stderrLogger } from '../host/logger';
import { workspaceDiscoveryRules } from '../host/workspaceConfig';
import { ownerServer } from '../host/ownerServer';
import type { CommandContext } from './command';
import { stopSignal } from './serveMcp';

const SETTLE_MS = 300;

export async function runWatch(ctx: CommandContext): Promise<number> {
  const logger = stderrLogger('info');
  const owner = ownerServer({ workspace: ctx.workspace, door: 'lore watch', logger });
  const store = owner.access.open();
  await owner.http();
  const root = store.paths.workspaceRoot;
  const controller = new AbortController();
  let running: Promise<void> | undefined;
  let again = false;
  let timer: NodeJS.Timeout | undefined;

  // Paths the watcher reported since the last run: after re-indexing, drift checks the references to them.
  let touched = new Set<string>();
  const reindex = async (): Promise<void> => {
    const paths = [...touched];
    touched = new Set();
    const { summary, status } = await owner.access.use((engine) =>
      runIndex(engine, root, { signal: controller.signal }),
    );
    if (paths.length) {
      const drifted = (await owner.access.use((engine) => engine.driftCheck(paths))).filter(
        (f) => f.state !== 'current',
      );
      if (drifted.length)
        ctx.print({ event: 'drift', findings: drifted }, (r) =>
          r.findings
            .map(
              (f) =>
                `drift: ` +
                `${f.source.key ?? `${f.source.path}:${f.source.line ?? 0}`} → ` +
                `${f.reference.raw} is ${f.state} (${f.evidence.detail})`,
            )
            .join('\n'),
        );
    }
    const changed = summary.indexed + summary.renamed + summary.deleted;
    if (changed || summary.embedded) {
      ctx.print(
        { event: 'indexed', summary, status },
        () =>
          `indexed ${summary.indexed}, renamed ${summary.renamed}, removed ` +
          `${summary.deleted}; ${status.files} files, ${status.chunks} ` +
          `chunks`,
      );
    }
  };
  // One index run at a time; changes that arrive during a run cause exactly one more.
  const schedule = () => {
    clearTimeout(timer);
    timer = setTimeout(() => {
      if (running) {
        again = true;
        return;
      }
      running = reindex()
        .catch((error) => logger.error(`indexing failed: ${(error as Error).message}`))
        .finally(() => {
          running = undefined;
          if (again) {
            again = false;
            schedule();
          }
        });
    }, SETTLE_MS);
  };

  await reindex();
  // Baselines for the references made since the last scan, so each later change is a finding;
  // symbols located by the parser, as every later check will locate them.
  await owner.access.open().symbols;
  const scan = await owner.access.use((engine) => engine.driftScan());
  ctx.print(
    { event: 'drift-scan', references: scan.references, by_state: scan.by_state },
    (r) =>
      `drift: ${r.references} references, ${Object.entries(r.by_state)
        .filter(([s]) => s !== 'current')
        .map(([s, n]) => `${n} ${s}`)
        .join(', ')}`,
  );
  // Folders the index skips are not watched (node_modules can hold most of a workspace's files).
  // The config is read once here; the index itself rereads it on every run.
  const matcher = discoveryMatcher(workspaceDiscoveryRules(root));
  const ignored = (path: string) => {
    const inside = relative(root, path).split(sep).join('/');
    return (
      inside !== '' && !inside.startsWith('..') && (/(^|\/)\.git(\/|$)/.test(inside) || matcher.skipsFolder(inside))
    );
  };
  const watcher = watch(root, { ignoreInitial: true, ignored, followSymlinks: false });
  watcher.on('all', (_event: string, path: string) => {
    const rel = relative(root, path).split(sep).join('/');
    if (rel && !rel.startsWith('..')) touched.add(rel);
    schedule();
  });
  await new Promise<void>((resolve) => watcher.once('ready', () => resolve()));
  const stopped = stopSignal();
  ctx.print({ event: 'watching', workspace: root }, (r) => `watching ${r.workspace} (Ctrl-C to stop)`);
  await stopped;
  controller.abort();
  clearTimeout(timer);
  await watcher.close();
  await running;
  await owner.close();
  return 0;
}
