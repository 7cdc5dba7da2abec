// Bench-only probe, preloaded into a real `lore serve` by bench/ownerBench.ts with
// NODE_OPTIONS="--require bench/loopProbe.cjs" and LORE_BENCH_PROBE_FILE=<file>; Lore itself is
// unchanged. It samples the main thread's event-loop delay with a 10 ms interval timer (how late
// each tick fires), and on each SIGUSR2 writes the delays since the previous signal — including
// the stall still in progress, so a long one is never missed because its tick has not run yet —
// with the resident set size and its peak so far, to <file>, then starts a fresh window. Each window
// also carries perf_hooks' monitorEventLoopDelay histogram (p99, max), the process's CPU time and
// the main thread's event-loop utilisation over it, and the longest task in CPU ms: the most CPU the
// process used between two consecutive ticks of the 10 ms timer (a task that holds the thread keeps
// the timer from firing, so its CPU lands in one gap). CPU time, unlike the wall delay, does not grow
// when the machine is loaded; the figure is an upper bound (a gap also holds the short tasks around
// it, so its floor is about the 10 ms interval).
'use strict';

const { isMainThread } = require('node:worker_threads');
const file = process.env.LORE_BENCH_PROBE_FILE;

if (isMainThread && file) {
  const { performance, monitorEventLoopDelay } = require('node:perf_hooks');
  const histogram = monitorEventLoopDelay({ resolution: 5 });
  histogram.enable();
  let cpuSince = process.cpuUsage();
  let eluSince = performance.eventLoopUtilization();
  const { renameSync, writeFileSync } = require('node:fs');
  const INTERVAL = 10;
  let last = performance.now();
  let since = last;
  let delays = [];
  let cpuLast = process.cpuUsage();
  let longestTaskCpuMs = 0;
  const cpuGap = () => {
    const used = process.cpuUsage(cpuLast);
    cpuLast = process.cpuUsage();
    return (used.user + used.system) / 1000;
  };
  setInterval(() => {
    const t = performance.now();
    delays.push(Math.max(0, t - last - INTERVAL));
    last = t;
    longestTaskCpuMs = Math.max(longestTaskCpuMs, cpuGap());
  }, INTERVAL).unref();
  let seq = 0;
  const at = (sorted, p) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
  process.on('SIGUSR2', () => {
    const t = performance.now();
    // The gap since the last tick, split here: the rest belongs to the next window.
    const sorted = [...delays, Math.max(0, t - last - INTERVAL)].sort((a, b) => a - b);
    seq++;
    const stats = {
      seq,
      pid: process.pid,
      windowMs: t - since,
      samples: sorted.length,
      p50Ms: at(sorted, 50),
      p99Ms: at(sorted, 99),
      maxMs: sorted[sorted.length - 1],
      rssMb: process.memoryUsage().rss / 1048576,
      peakRssMb: process.resourceUsage().maxRSS / 1024,
      eldP99Ms: histogram.count ? histogram.percentile(99) / 1e6 : 0,
      eldMaxMs: histogram.count ? histogram.max / 1e6 : 0,
      cpuMs: (() => {
        const used = process.cpuUsage(cpuSince);
        return (used.user + used.system) / 1000;
      })(),
      elu: performance.eventLoopUtilization(eluSince).utilization,
      longestTaskCpuMs: Math.max(longestTaskCpuMs, cpuGap()),
    };
    longestTaskCpuMs = 0;
    histogram.reset();
    cpuSince = process.cpuUsage();
    eluSince = performance.eventLoopUtilization();
    delays = [];
    last = t;
    since = t;
    writeFileSync(`${file}.tmp`, JSON.stringify(stats));
    renameSync(`${file}.tmp`, file);
  });
  // LORE_BENCH_PROBE_CPU_PROF=<file>: a V8 CPU profile of the whole process, written as it exits
  // (node 20 refuses --cpu-prof in NODE_OPTIONS).
  const profile = process.env.LORE_BENCH_PROBE_CPU_PROF;
  if (profile) {
    const inspector = require('node:inspector');
    const session = new inspector.Session();
    session.connect();
    session.post('Profiler.enable');
    session.post('Profiler.setSamplingInterval', { interval: 1000 });
    session.post('Profiler.start');
    process.on('exit', () =>
      session.post('Profiler.stop', (error, result) => {
        if (!error) writeFileSync(profile, JSON.stringify(result.profile));
      }),
    );
  }
}
