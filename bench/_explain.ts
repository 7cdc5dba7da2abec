import { classifyContextOf, classifyKind } from '/work/wt/kinds/src/engine/indexing/classify';
const stub = '# 2. Use X\n\nSuperseded by [5. Use Y](0005-use-y.md).\n';
const paths = ['README.md','docs/adr/0001-record-architecture-decisions.md','docs/adr/0002-use-x.md','docs/adr/0003-queue-in-postgres.md','docs/adr/0005-use-y.md','docs/guide.md'];
const show = (v: any) => console.log(v.kind, v.confidence.toFixed(2), v.runnerUp, v.runnerUpConfidence.toFixed(2), v.signals.map((s: any) => `${s.feature}:${s.weight.toFixed(2)}`).join(' '));
show(classifyKind('docs/adr/0002-use-x.md', stub, classifyContextOf(paths), { explain: true }));
show(classifyKind('docs/adr/0002-use-x.md', stub, undefined, { explain: true }));
const writeUp = '# Job queue outage, 1 March 2025\n\n## Summary\n\nJobs stopped for 40 minutes after a failover.\n\n## Timeline\n\n- 10:02 primary failover\n- 10:40 workers restarted\n\n## Root cause\n\nWorkers held connections to the old primary.\n\n## Action items\n\n- Reconnect on failover.\n';
const p2 = ['README.md', 'docs/incidents/2025-03-01-queue-outage.md', 'docs/ops/restart-workers.md'];
show(classifyKind('docs/incidents/2025-03-01-queue-outage.md', writeUp, classifyContextOf(p2), { explain: true }));
