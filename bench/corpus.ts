// Synthetic engineering memories and queries for the bench: decisions, dead ends, runbooks,
// incidents, conventions… built from word lists by a seeded PRNG, so every run with the same seed
// writes the same store and asks the same questions.
//
// Words are drawn with a Zipf-like skew (a few words such as "deploy" or "postgres" are
// everywhere, most are rare) and bodies carry code identifiers and paths, which gives the long
// tail of terms a real store has. Queries are 2–5 words drawn from the same vocabulary with the
// same skew, so many of them hit common words: the expensive case for lexical recall.

import type { MemoryType, RememberInput } from '../src/engine';
import { prng } from '../scripts/prng';

export { prng };

const words = (text: string): string[] => text.trim().split(/\s+/);

export const VOCABULARY = {
  component: words(`billing auth gateway scheduler ingest search notifications checkout inventory payments
    reporting exporter importer webhooks ledger catalog onboarding analytics mailer uploader thumbnailer
    indexer crawler api frontend dashboard admin session cache queue worker cron tenant quota pricing
    invoicing identity permissions audit storage sync replication`),
  tech: words(`postgres redis kafka rabbitmq grpc graphql terraform kubernetes helm docker nginx envoy
    elasticsearch opensearch clickhouse sqlite dynamodb s3 lambda cloudfront prometheus grafana sentry
    opentelemetry jaeger vault consul nomad celery sidekiq temporal airflow dbt spark flink protobuf avro
    jwt oauth saml ldap webpack vite esbuild jest mocha playwright cypress eslint prettier typescript`),
  problem: words(`timeout deadlock leak contention starvation backpressure throttling oom crashloop
    flakiness drift skew regression outage latency spike corruption duplication reordering retries
    exhaustion fragmentation lag stampede thundering herd split brain hotspot overflow truncation
    mismatch misconfiguration expiry revocation rollback`),
  action: words(`rotate restart drain reindex vacuum backfill migrate rollback promote failover resize
    shard rebalance purge replay compact snapshot restore throttle pin upgrade downgrade patch
    bisect profile trace redeploy quarantine reconcile`),
  thing: words(`certificates credentials tokens keys secrets connections replicas partitions indexes
    migrations schemas buckets topics consumers producers workers pods nodes volumes snapshots
    dashboards alerts runbooks feature flags locks leases cursors batches jobs`),
  env: words(`staging production canary preview sandbox loadtest eu us apac onprem`),
  reason: words(`simpler operations lower latency fewer moving parts team familiarity cost vendor support
    transactional guarantees ordering durability observability compliance portability throughput
    backwards compatibility licensing`),
  symptom: words(`errors climb p99 spikes alerts fire disk fills memory grows queue backs up health checks
    fail requests hang connections reset jobs stall`),
  verb: words(`scales restarts deploys reconnects retries batches streams replicates fails over warms up`),
  symbolPart: words(`parse build load save fetch send retry handle resolve invoice order user account
    token session event batch cursor lease header payload config client server request response
    record queue job task`),
  pathPart: words(`src lib internal pkg cmd services handlers models adapters jobs migrations config
    scripts infra deploy charts modules`),
};

const TYPE_WEIGHTS: Array<[MemoryType, number]> = [
  ['decision', 22],
  ['dead_end', 10],
  ['runbook', 14],
  ['incident', 8],
  ['postmortem', 4],
  ['convention', 12],
  ['fact', 14],
  ['preference', 6],
  ['reference', 10],
];

export class Corpus {
  private readonly random: () => number;
  private readonly zipf = new Map<string[], number[]>();

  constructor(seed: number) {
    this.random = prng(seed);
  }

  int(maxExclusive: number): number {
    return Math.floor(this.random() * maxExclusive);
  }

  /** Picks from a list with weight 1/rank: the list's first entries are the common ones. */
  pick(list: string[]): string {
    let cumulative = this.zipf.get(list);
    if (!cumulative) {
      cumulative = [];
      let sum = 0;
      for (let i = 0; i < list.length; i++) cumulative.push((sum += 1 / (i + 1)));
      this.zipf.set(list, cumulative);
    }
    const target = this.random() * cumulative[cumulative.length - 1];
    let lo = 0;
    let hi = cumulative.length - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (cumulative[mid] < target) lo = mid + 1;
      else hi = mid;
    }
    return list[lo];
  }

  private uniform<T>(list: readonly T[]): T {
    return list[this.int(list.length)];
  }

  private type(): MemoryType {
    let roll = this.int(TYPE_WEIGHTS.reduce((sum, [, w]) => sum + w, 0));
    for (const [type, weight] of TYPE_WEIGHTS) if ((roll -= weight) < 0) return type;
    return 'decision';
  }

  private symbol(): string {
    const v = VOCABULARY.symbolPart;
    const cap = (w: string) => w[0].toUpperCase() + w.slice(1);
    return `${this.uniform(v)}${cap(this.uniform(v))}${cap(this.uniform(v))}`;
  }

  private path(component: string): string {
    const name = `${this.uniform(VOCABULARY.symbolPart)}_${this.uniform(VOCABULARY.symbolPart)}`;
    return `${this.uniform(VOCABULARY.pathPart)}/${component}/${name}.ts`;
  }

  private sentence(c: string): string {
    const V = VOCABULARY;
    const templates = [
      () => `When ${c} ${this.pick(V.verb)} under load we saw ${this.pick(V.problem)} in ${this.pick(V.env)}.`,
      () => `The fix lives in ${this.path(c)} around ${this.symbol()}.`,
      () =>
        `${cap(this.pick(V.action))} the ${this.pick(V.thing)} first, ` +
        `then ${this.pick(V.action)} the ${this.pick(V.thing)}.`,
      () => `Watch for ${this.pick(V.symptom)} ${this.pick(V.symptom)} on the ${c} dashboard.`,
      () =>
        `${cap(this.pick(V.tech))} handles the ${this.pick(V.thing)}; ` +
        `${this.pick(V.tech)} only sees ${this.pick(V.thing)}.`,
      () => `See ticket ${c.toUpperCase()}-${100 + this.int(9000)} and ${this.symbol()} for the details.`,
      () => `Measured ${10 + this.int(990)} ms p99 before and ${1 + this.int(200)} ms after the change.`,
      () => `Chosen for ${this.pick(V.reason)} and ${this.pick(V.reason)}.`,
    ];
    return this.uniform(templates)();
  }

  /** One memory; `i` makes the key unique. */
  memory(i: number): RememberInput {
    const V = VOCABULARY;
    const type = this.type();
    const c = this.pick(V.component);
    const tech = this.pick(V.tech);
    const other = this.pick(V.tech);
    const problem = this.pick(V.problem);
    const thing = this.pick(V.thing);
    const env = this.pick(V.env);
    let title: string;
    let description: string;
    switch (type) {
      case 'decision':
        title = this.uniform([
          `Use ${tech} for ${c}`,
          `Move ${c} ${thing} to ${tech}`,
          `Adopt ${tech} for ${c} ${thing}`,
        ]);
        description =
          `We chose ${tech} over ${other} for ${c} because of ` + `${this.pick(V.reason)} and ${this.pick(V.reason)}`;
        break;
      case 'dead_end':
        title = this.uniform([
          `${cap(tech)} for ${c} ${thing} does not work`,
          `Tried ${this.pick(V.action)} ${c} ${thing} with ${tech}`,
        ]);
        description = `Abandoned: ${problem} when ${c} ${this.pick(V.verb)}; ${tech} could not keep up in ${env}`;
        break;
      case 'runbook':
        title = this.uniform([
          `${cap(this.pick(V.action))} ${c} ${thing}`,
          `Recover ${c} after ${problem}`,
          `Deploy ${c} to ${env}`,
        ]);
        description =
          `Steps to ${this.pick(V.action)} ${c} ${thing} in ${env} when ` +
          `${this.pick(V.symptom)} ${this.pick(V.symptom)}`;
        break;
      case 'incident':
      case 'postmortem':
        title = `${cap(c)} ${problem} in ${env}`;
        description =
          `${cap(c)} saw ${problem} and ${this.pick(V.problem)}; root cause ` +
          `was ${this.pick(V.problem)} in ${tech} ${thing}`;
        break;
      case 'convention':
        title = this.uniform([
          `Name ${c} ${thing} after the ${this.pick(V.symbolPart)}`,
          `All ${c} handlers must ${this.pick(V.action)} ${thing}`,
        ]);
        description = `Applies to ${this.path(c)} and everything that talks to ${tech}`;
        break;
      case 'fact':
        title = this.uniform([
          `${cap(c)} talks to ${tech} on port ${1000 + this.int(9000)}`,
          `${cap(c)} ${thing} live in ${tech}`,
        ]);
        description = `${cap(c)} keeps its ${thing} in ${tech} (${env}); ${other} is only a cache`;
        break;
      case 'preference':
        title = `Prefer ${tech} over ${other} for ${c}`;
        description = `For ${this.pick(V.reason)}; ${other} is fine for ${this.pick(V.component)}`;
        break;
      default:
        title = this.uniform([`${cap(c)} architecture notes`, `Where to find ${c} ${thing}`]);
        description = `Links and notes on ${c}: ${tech}, ${other}, ${thing}, ${env}`;
    }
    const sentences = 2 + this.int(5);
    const body = Array.from({ length: sentences }, () => this.sentence(c)).join(' ');
    const tags = [...new Set([c, tech, ...(this.random() < 0.5 ? [this.pick(V.problem)] : [])])];
    return {
      key: `${type}/m${i}-${c}`,
      type,
      title: `${title} (#${i})`,
      description,
      body,
      tags,
      provenance: { source: this.random() < 0.7 ? 'user' : 'agent', client: 'bench' },
      ...(this.random() < 0.2 ? { basis: 'inferred' as const } : {}),
    };
  }

  /** A query of 2–5 words from the memories' vocabulary. */
  query(): string {
    const V = VOCABULARY;
    const lists = [V.component, V.tech, V.problem, V.action, V.thing, V.env, V.component, V.tech, V.problem];
    const n = 2 + this.int(4);
    const chosen = new Set<string>();
    while (chosen.size < n) chosen.add(this.pick(this.uniform(lists)));
    return [...chosen].join(' ');
  }
}

function cap(word: string): string {
  return word[0].toUpperCase() + word.slice(1);
}
