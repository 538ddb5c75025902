// One CLI run as its own process with bench/rss-probe.mjs preloaded: the bench rows and the
// memory rows measure their commands the same way.
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const PROBE = join(dirname(fileURLToPath(import.meta.url)), 'rss-probe.mjs');

/**
 * Runs `node <args>` in `cwd` with the machine-local caches in `work/cache` and the probe writing
 * the peak RSS to `work/rss`. Resolves with wall seconds, peak RSS in KiB and stderr; rejects when
 * the run exits other than 0.
 */
export function probedRun(args, cwd, work) {
  const rssFile = join(work, 'rss');
  return new Promise((resolveRun, reject) => {
    const started = process.hrtime.bigint();
    const child = spawn(process.execPath, ['--import', PROBE, ...args], {
      cwd,
      env: { ...process.env, NO_COLOR: '1', SCHEMA_SYNC_BENCH_RSS: rssFile, SCHEMA_SYNC_CACHE_DIR: join(work, 'cache') },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (d) => (stderr += d));
    child.on('error', reject);
    child.on('exit', (code) => {
      const seconds = Number(process.hrtime.bigint() - started) / 1e9;
      if (code !== 0) return reject(new Error(`${args.join(' ')} exited ${code}:\n${stderr}`));
      resolveRun({ seconds, rssKb: Number(readFileSync(rssFile, 'utf8')), stderr });
    });
  });
}
