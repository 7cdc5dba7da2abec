// Preloaded (node --require) into the processes bench/vectorBench.ts spawns: at exit, the
// process's CPU time (ms) and peak resident set (MB) are appended to $LORE_BENCH_RSS as one line.
'use strict';
process.on('exit', () => {
  const { user, system } = process.cpuUsage();
  const rss = process.resourceUsage().maxRSS / 1024;
  if (process.env.LORE_BENCH_RSS)
    require('node:fs').appendFileSync(process.env.LORE_BENCH_RSS, `${(user + system) / 1000} ${rss}\n`);
});
