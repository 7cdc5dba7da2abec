// `lore doctor`: what Lore sees here — runtime, whether agent hosts can start Lore, data directory,
// store, owner, audit chain, records — and what to fix.

import { accessSync, constants, existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { SCHEMA_VERSION, isLoreError } from '../../engine';
import { storePaths } from '../../host/dataDir';
import { isLive, readOwner } from '../../host/ownerLock';
import { HOST_CONFIG_FILES, commandLine, configuredLaunch } from '../agentSetup';
import type { Command } from '../command';
import { sharedStoreCheck } from '../storeCheck';
import { installedCli, launchProblem, loreOnPathIs, pathHint, resolveOnPath } from '../loreLaunch';

interface Check {
  name: string;
  ok: boolean;
  detail: string;
}

export const doctorCommand: Command = {
  name: 'doctor',
  summary: "check the runtime, the data directory, the store, the audit chain and every record's signatures",
  usage: 'lore doctor',
  options: {},
  positionals: { min: 0, max: 0, names: '' },
  async run(ctx) {
    const checks: Check[] = [];
    const [major] = process.versions.node.split('.').map(Number);
    checks.push({
      name: 'node',
      ok: major >= 20,
      detail: `Node ${process.versions.node}${major >= 20 ? '' : ' (Lore needs Node 20 or newer)'}`,
    });
    checks.push(...launchChecks(ctx.workspace));
    const paths = storePaths(ctx.workspace);
    checks.push({ name: 'workspace', ok: true, detail: paths.workspaceRoot });
    checks.push({
      name: 'store',
      ok: true,
      detail: existsSync(paths.database) ? paths.database : `${paths.database} (created on first save)`,
    });
    const readOnly = readOnlyFolder(paths.dir);
    if (readOnly)
      checks.push({
        name: 'data folder',
        ok: false,
        detail:
          `${paths.dir} is read-only (${readOnly}): recall, list and get work; ` +
          'saving is refused until it is writable',
      });
    // A shared PostgreSQL store named by LORE_STORE: where, encrypted or not, its schema.
    const shared = await sharedStoreCheck(process.env);
    if (shared) checks.push(shared);
    const owner = readOwner(paths.owner);
    const ownerState = owner && isLive(owner, paths.owner) ? 'is running' : 'is gone; its lock will be taken over';
    checks.push({
      name: 'owner',
      ok: true,
      detail: owner ? `pid ${owner.pid} (${owner.door}) ${ownerState}` : 'none (the store is free)',
    });
    let stats: Record<string, unknown> | undefined;
    try {
      await ctx.withEngine(
        async (engine) => {
          const s = await engine.stats();
          stats = { ...s };
          checks.push({
            name: 'schema',
            ok: s.schema_version === SCHEMA_VERSION,
            detail: `version ${s.schema_version}`,
          });
          checks.push({
            name: 'memories',
            ok: true,
            detail: `${s.memories} (${
              Object.entries(s.by_status)
                .map(([k, n]) => `${n} ${k}`)
                .join(', ') || 'none'
            }), ${s.archived_versions} archived versions`,
          });
          const index = await engine.indexStatus();
          stats.index = index;
          checks.push({
            name: 'index',
            ok: true,
            detail:
              `${index.files} files, ${index.chunks} chunks, last update ` +
              `${index.last_update ?? 'never (run lore index)'}; ` +
              `model ${index.model ? `${index.model} (${index.pending} pending)` : `none — ${index.model_problem}`}` +
              `${index.model ? '' : '; recall is lexical only'}`,
          });
          const audit = await engine.verifyAudit();
          checks.push({
            name: 'audit',
            ok: audit.ok,
            detail: audit.ok
              ? `${audit.events} events, chain intact, records match it`
              : `${audit.problems.length} problem(s): run lore audit verify`,
          });
          // A record refused as tampered is memory Lore will not hand out: the store needs a person.
          const { checked, refused } = await engine.verifyRecords();
          const named =
            refused
              .slice(0, 5)
              .map((r) => `${r.key} v${r.version} (${r.reason})`)
              .join('; ') + (refused.length > 5 ? '; …' : '');
          checks.push({
            name: 'records',
            ok: refused.length === 0,
            detail:
              refused.length === 0
                ? `${checked} versions verify`
                : `${refused.length} of ${checked} versions refused as tampered: ` +
                  `${named} — forget them, or restore them from an export`,
          });
        },
        { create: false, embed: true },
      );
    } catch (error) {
      checks.push({
        name: 'open',
        ok: false,
        detail: isLoreError(error) ? `${error.message}${error.hint ? ` — ${error.hint}` : ''}` : String(error),
      });
    }
    const ok = checks.every((c) => c.ok);
    ctx.print({ ok, checks, stats }, (r) =>
      r.checks.map((c) => `${c.ok ? 'ok  ' : 'FAIL'} ${c.name}: ${c.detail}`).join('\n'),
    );
    return ok ? 0 : 1;
  },
};

/** Why the store's folder cannot be written (EROFS, EACCES), or undefined when it can (or is not there yet). */
function readOnlyFolder(dir: string): string | undefined {
  if (!existsSync(dir)) return undefined;
  try {
    accessSync(dir, constants.W_OK);
    return undefined;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code ?? 'not writable';
  }
}

/**
 * Whether `lore` is a command here, and whether the lore server each agent host's configuration
 * in the workspace names would start (a missing command is the usual first-run failure).
 */
function launchChecks(workspace: string): Check[] {
  const cli = installedCli();
  const onPath = resolveOnPath('lore');
  const checks: Check[] = [
    {
      name: 'lore command',
      ok: true,
      detail: loreOnPathIs(cli)
        ? `${onPath} (this CLI)`
        : onPath
          ? `${onPath} is another Lore than this one (${cli})`
          : `not on PATH (hosts set up by lore init run ${process.execPath} ${cli}); to add it, ${pathHint(cli)}`,
    },
  ];
  for (const { path, key } of HOST_CONFIG_FILES) {
    const full = join(workspace, path);
    if (!existsSync(full)) continue;
    const launch = configuredLaunch(readFileSync(full, 'utf8'), key);
    if (!launch) continue;
    const problem = launchProblem(launch, { cwd: workspace });
    checks.push({
      name: path,
      ok: !problem,
      detail: problem
        ? `its lore server (${commandLine(launch)}) would not start: ${problem} — ` +
          `run lore init --force to write a command that starts here, or ${pathHint(cli)}`
        : `starts ${commandLine(launch)}`,
    });
  }
  return checks;
}
