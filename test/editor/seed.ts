// The editor tier's seeded workspace: which files it adds to the fixture workspace and which
// records the runner saves (through the real CLI) before the editor opens. The in-host suite and
// the runner's sidebar check read the same constants, so what is asserted is what was seeded.

export const SEED_FILES: Record<string, string> = {
  'src/queue.ts': [
    '// The job queue: rows in Postgres, claimed with SKIP LOCKED.',
    'export function enqueue(job: string): string {',
    '  return `queued ${job}`;',
    '}',
    '',
    'export function claim(): string | undefined {',
    '  return undefined;',
    '}',
    '',
  ].join('\n'),
  // Recall's evidence (recall.test.ts): a runbook the question "how do I upgrade the cluster
  // version?" finds by stemming, though its title shares no run of letters with the question.
  'docs/runbooks/eks-upgrades.md': [
    '# Upgrading EKS clusters',
    '',
    'Clusters move one minor Kubernetes version at a time; skipping a minor release is not supported.',
    '',
    '## Procedure',
    '',
    '1. Raise `cluster_version` in `infra/eks.tf` by one minor release and apply it in staging first.',
    '2. Upgrade the managed node groups once the control plane reports the new release.',
    '3. Check that every workload rolled onto the new nodes.',
    '',
  ].join('\n'),
};

/**
 * A doc that refers to code nobody opens in the editor (driftDocs.test.ts): a function it names and
 * a script it links to. The drift-of-docs tests change the one and move the other.
 */
export const DRIFT_DOC = {
  doc: 'docs/worker.md',
  code: 'src/worker.ts',
  symbol: 'processJob',
  script: 'scripts/retry.sh',
  moved: 'scripts/jobs/retry.sh',
} as const;

SEED_FILES[DRIFT_DOC.doc] = [
  '# Worker',
  '',
  `The worker's loop is \`${DRIFT_DOC.symbol}()\` in \`${DRIFT_DOC.code}\`.`,
  `Failed jobs are retried by [the retry script](../${DRIFT_DOC.script}).`,
  '',
].join('\n');
SEED_FILES[DRIFT_DOC.code] =
  `export function ${DRIFT_DOC.symbol}(job: string): string {\n  return \`done \${job}\`;\n}\n`;
SEED_FILES[DRIFT_DOC.script] = '#!/bin/sh\necho retry\n';

/**
 * Issue 31's corrupted-runbook case (driftRunbook.test.ts): a runbook runs a script of the repository
 * with a flag the script parses; another runbook gives generic flags to other tools. The script is
 * renamed (underscores to dashes), as `git mv` would.
 */
export const RUNBOOK = {
  doc: 'docs/runbooks/restore-database.md',
  other: 'docs/runbooks/deploy-app.md',
  script: 'scripts/restore_db.bash',
  renamed: 'scripts/restore-db.bash',
  /** 0-based line of the doc that runs the script. */
  line: 5,
} as const;

SEED_FILES[RUNBOOK.doc] = [
  '# Restore the database',
  '',
  'From the scripts folder, try it first without changing anything:',
  '',
  '```sh',
  'bash restore_db.bash --dry-run',
  '```',
  '',
].join('\n');
SEED_FILES[RUNBOOK.other] = [
  '# Deploy the app',
  '',
  '```sh',
  'kubectl apply -f app.yaml --dry-run',
  '```',
  '',
  'Every tool here takes `--help`, and `--dry-run` when you are unsure.',
  '',
].join('\n');
SEED_FILES[RUNBOOK.script] = [
  '#!/usr/bin/env bash',
  '# Restores the newest database backup.',
  'dry_run=false',
  'while [[ $# -gt 0 ]]; do',
  '  case "$1" in',
  '    --dry-run) dry_run=true ;;',
  '    --help) echo "usage: restore_db.bash [--dry-run]"; exit 0 ;;',
  '  esac',
  '  shift',
  'done',
  'echo "restoring (dry run: ${dry_run})"',
  '',
].join('\n');

/**
 * This repository's ADRs live in a folder no list of names would guess, numbered ADR-NNN_ with
 * underscores: Promote to Repository must learn that from the index (scenarios.ts).
 */
export const ADR_FOLDER = 'handbook/choices';
export const NEXT_ADR = `${ADR_FOLDER}/ADR-012_jobs_queue_lives_in_postgres.md`;
const adr = (number: string, title: string) =>
  `# ADR-${number}: ${title}\n\nDate: 2025-01-10\n\n## ` +
  `Status\n\nAccepted\n\n## Context\n\nWhy.\n\n## ` +
  `Decision\n\n${title}.\n\n## Consequences\n\nSo.\n`;
SEED_FILES[`${ADR_FOLDER}/ADR-007_keep_the_monolith.md`] = adr('007', 'Keep the monolith');
SEED_FILES[`${ADR_FOLDER}/ADR-011_split_billing.md`] = adr('011', 'Split billing');

export interface SeedRecord {
  key: string;
  type: 'decision' | 'dead_end' | 'runbook';
  title: string;
  description: string;
  body: string;
  anchors: string[];
}

/** The decision the views, recall and the drift test use; anchored to a symbol the drift test removes. */
export const SEEDED_DECISION: SeedRecord = {
  key: 'decision/jobs-queue-on-postgres',
  type: 'decision',
  title: 'Jobs queue lives in Postgres',
  description: 'Background jobs are rows in Postgres claimed with SKIP LOCKED; no separate broker.',
  body: 'We keep the job queue in the primary Postgres database so a job and the data it touches commit together.',
  anchors: ['src/queue.ts#enqueue'],
};

/** A dead end, so the Dead Ends view has a row too; it is also the record the Forget test removes. */
export const SEEDED_DEAD_END: SeedRecord = {
  key: 'dead_end/redis-streams-for-jobs',
  type: 'dead_end',
  title: 'Redis streams for jobs',
  description: 'Tried Redis streams as the job broker; lost jobs on failover and needed a second store.',
  body: 'Abandoned after the failover test lost acknowledged jobs.',
  anchors: [],
};

/**
 * A dead end the engine ranks first for "worker" although its title does not say "worker" (its
 * description does): a picker that sorts label matches to the top would move it down.
 */
export const RECALL_DEAD_END: SeedRecord = {
  key: 'dead_end/in-place-node-upgrade',
  type: 'dead_end',
  title: 'In-place node upgrade',
  description: 'Tried upgrading worker nodes in place; pods were evicted without a drain.',
  body: 'Replaced by managed node group rotation.',
  anchors: [],
};

export const SEED_RECORDS: SeedRecord[] = [SEEDED_DECISION, SEEDED_DEAD_END, RECALL_DEAD_END];

/** The file the Remember Selection test selects from, and the text it selects. */
export const SELECTION_FILE = 'src/queue.ts';
export const SELECTION_TEXT = '// The job queue: rows in Postgres, claimed with SKIP LOCKED.';

/** Environment variables the runner sets for the editor (and so for the extension host). */
export const ENV = {
  /** Folder where the in-host suite writes results.json and exchanges UI requests with the runner. */
  bridge: 'LORE_EDITOR_BRIDGE',
  /** Path of the built CLI (dist/cli.js) so tests can check the store through another real door. */
  cli: 'LORE_EDITOR_CLI',
  /** Node binary that runs the CLI (the project's Node, not the editor's). */
  node: 'LORE_EDITOR_NODE',
  /** "1" when a runner with a browser page answers UI requests (the code-server run). */
  ui: 'LORE_EDITOR_UI',
} as const;
