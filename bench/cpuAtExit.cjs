// Preloaded (node --require) into the processes bench/coldBench.ts spawns: at exit, the process's
// own CPU time since it started (user + system, ms) is appended to $LORE_BENCH_CPU. CPU time,
// unlike wall time, barely moves with the load other processes put on the machine.
'use strict';
process.on('exit', () => {
  const { user, system } = process.cpuUsage();
  if (process.env.LORE_BENCH_CPU)
    require('node:fs').appendFileSync(process.env.LORE_BENCH_CPU, `${(user + system) / 1000}\n`);
});
