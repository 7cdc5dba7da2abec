// Words a person reads in the views and the status bar: kinds of document by their plural names
// ("ADRs", "Runbooks") and times as local, relative phrases ("5 minutes ago", with the local date).

import type { DocKind, DocSummary } from '../../engine';

export const KIND_LABELS: Record<DocKind, string> = {
  adr: 'ADRs',
  rfc: 'RFCs',
  runbook: 'Runbooks',
  postmortem: 'Postmortems',
  changelog: 'Changelogs',
  readme: 'READMEs',
  guide: 'Guides',
  terraform: 'Terraform',
  kubernetes: 'Kubernetes manifests',
  helm: 'Helm charts',
  dockerfile: 'Dockerfiles',
  ci: 'CI pipelines',
  ansible: 'Ansible',
  config: 'Configuration',
  code: 'Code',
  other: 'Other documents',
};

/** One document of a kind, as a sentence names it ("this ADR was last checked"). */
export const KIND_NAMES: Record<DocKind, string> = {
  adr: 'ADR',
  rfc: 'RFC',
  runbook: 'runbook',
  postmortem: 'postmortem',
  changelog: 'changelog',
  readme: 'README',
  guide: 'guide',
  terraform: 'Terraform file',
  kubernetes: 'Kubernetes manifest',
  helm: 'Helm chart',
  dockerfile: 'Dockerfile',
  ci: 'CI pipeline',
  ansible: 'Ansible file',
  config: 'configuration file',
  code: 'file',
  other: 'document',
};

/** A kind on its own, as a person picks it from a list ("Runbook", "ADR"), with what it is for. */
export const KIND_CHOICES: Record<DocKind, { label: string; detail: string }> = {
  adr: { label: 'ADR', detail: 'records one decision: its status, context, decision and consequences' },
  rfc: { label: 'RFC', detail: 'proposes a design for discussion: a proposal, design doc or enhancement' },
  runbook: { label: 'Runbook', detail: 'tells an operator how to run, fix or recover the live system' },
  postmortem: { label: 'Postmortem', detail: 'writes up one incident after the fact: timeline, impact, cause' },
  changelog: { label: 'Changelog', detail: 'lists changes by release' },
  readme: { label: 'README', detail: 'a landing or overview page for a repository, folder or module' },
  guide: { label: 'Guide', detail: 'any other prose: concepts, reference, tutorials, how-tos' },
  terraform: { label: 'Terraform', detail: 'Terraform or OpenTofu files' },
  kubernetes: { label: 'Kubernetes manifest', detail: 'resources applied to a cluster' },
  helm: { label: 'Helm chart', detail: 'a chart, its values or its templates' },
  dockerfile: { label: 'Dockerfile', detail: 'a Dockerfile or Containerfile' },
  ci: { label: 'CI pipeline', detail: 'a pipeline or workflow definition' },
  ansible: { label: 'Ansible', detail: 'playbooks, roles and inventories' },
  config: { label: 'Configuration', detail: 'tool and application configuration' },
  code: { label: 'Code', detail: 'source code, scripts, queries' },
  other: { label: 'Other', detail: 'licences, templates, data files' },
};

export function kindName(kind: string | undefined): string {
  return (KIND_NAMES as Record<string, string>)[kind ?? ''] ?? 'doc';
}

export function kindLabel(kind: string): string {
  return (KIND_LABELS as Record<string, string>)[kind] ?? kind;
}

const UNITS: [Intl.RelativeTimeFormatUnit, number][] = [
  ['year', 31_536_000],
  ['month', 2_592_000],
  ['week', 604_800],
  ['day', 86_400],
  ['hour', 3600],
  ['minute', 60],
];

/** "5 minutes ago (1 Dec 2026, 10:55)", in the machine's locale and time zone; the text as given if it is no time. */
export function when(iso: string | null | undefined, now = Date.now()): string {
  if (!iso) return 'never';
  const at = Date.parse(iso);
  if (Number.isNaN(at)) return iso;
  const seconds = Math.round((at - now) / 1000);
  const [unit, size] = UNITS.find(([, s]) => Math.abs(seconds) >= s) ?? ['second', 1];
  const format = new Intl.RelativeTimeFormat(undefined, { numeric: 'auto' });
  const relative = Math.abs(seconds) < 45 ? 'just now' : format.format(Math.round(seconds / size), unit);
  const local = new Date(at).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });
  return `${relative} (${local})`;
}

/** A doc's title as a person reads it: never empty or a lone quote (then its file name). */
export function docTitle(title: string, path: string): string {
  const trimmed = title.trim().replace(/^["'`]+$/, '');
  return trimmed || path.split('/').pop() || path;
}

/** Why the document has its kind, briefly: the model's confidence, a close runner-up, the deciding signals. */
export function kindReason(doc: DocSummary): string {
  if (doc.kind_confidence === null || doc.kind_confidence === undefined) return '';
  if (doc.kind_confidence >= 1) return doc.kind_signals ? `Kind by definition: ${doc.kind_signals}` : '';
  const runnerUp = doc.kind_runner_up ? `; runner-up: ${doc.kind_runner_up}` : '';
  const because = doc.kind_signals ? ` — because of ${doc.kind_signals}` : '';
  return `Kind: ${doc.kind}, ${Math.round(doc.kind_confidence * 100)}% sure${runnerUp}${because}`;
}
