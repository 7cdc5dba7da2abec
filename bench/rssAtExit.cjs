// Preloaded (node --require) into the processes bench/vectorBench.ts and bench/embed.ts spawn: at
// exit, the process's CPU time (ms) and peak resident set (MB) are appended to $LORE_BENCH_RSS as
// one line. The peak is VmHWM from /proc/self/status where there is one: getrusage's maxRSS keeps
// the high-water mark of the process before exec, i.e. of the bench that forked it.
'use strict';
process.on('exit', () => {
  const { user, system } = process.cpuUsage();
  let rss = process.resourceUsage().maxRSS / 1024;
  try {
    const hwm = /^VmHWM:\s+(\d+) kB/m.exec(require('node:fs').readFileSync('/proc/self/status', 'utf8'));
    if (hwm) rss = Number(hwm[1]) / 1024;
  } catch {
    // not Linux: maxRSS it is
  }
  if (process.env.LORE_BENCH_RSS)
    require('node:fs').appendFileSync(process.env.LORE_BENCH_RSS, `${(user + system) / 1000} ${rss}\n`);
});
