// Preloaded into each measured process (node --import): writes the process's peak RSS (KiB)
// to the file named by SCHEMA_SYNC_BENCH_RSS when it exits.
import { writeFileSync } from 'node:fs';

const out = process.env.SCHEMA_SYNC_BENCH_RSS;
if (out) process.on('exit', () => writeFileSync(out, String(process.resourceUsage().maxRSS)));
