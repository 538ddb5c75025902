// Preloaded into each measured process (node --import) by bench/compare.mjs: writes the
// process's CPU time (user + system, microseconds) to the file named by SCHEMA_SYNC_BENCH_CPU
// when it exits.
import { writeFileSync } from 'node:fs';

const out = process.env.SCHEMA_SYNC_BENCH_CPU;
if (out) {
  process.on('exit', () => {
    const { user, system } = process.cpuUsage();
    writeFileSync(out, String(user + system));
  });
}
