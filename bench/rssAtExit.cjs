// Preloaded (node --require) into the processes bench/vectorBench.ts spawns: at exit, the
// process's CPU time (ms) and peak resident set (MB) are appended to $LORE_BENCH_RSS as one line.
// The peak is /proc/self/status's VmHWM where there is one: Linux's ru_maxrss (resourceUsage)
// keeps the peak of the process before it exec'd node, which for a child of a large bench
// process is the bench's own size at the fork.
'use strict';
process.on('exit', () => {
  const { user, system } = process.cpuUsage();
  let rss = process.resourceUsage().maxRSS / 1024;
  try {
    const hwm = /^VmHWM:\s+(\d+) kB$/m.exec(require('node:fs').readFileSync('/proc/self/status', 'utf8'));
    if (hwm) rss = Number(hwm[1]) / 1024;
  } catch {
    // Not Linux: maxRSS it is.
  }
  if (process.env.LORE_BENCH_RSS)
    require('node:fs').appendFileSync(process.env.LORE_BENCH_RSS, `${(user + system) / 1000} ${rss}\n`);
});
