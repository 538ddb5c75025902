// Part 3, memory: the peak RSS of a `pull` against a body that never ends and against a gzip
// bomb, at the default --max-bytes (measured in the child by bench/rss-probe.mjs).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { sendAnswer } from '../../dist/server/index.js';

const RSS_PROBE = fileURLToPath(new URL('../../bench/rss-probe.mjs', import.meta.url));

/** Prints the peak RSS of a pull against each hostile body. */
export async function rss(scene, tally) {
  const { dir, env, pullArgs } = scene;
  try {
    for (const kind of ['endless', 'gzipBomb']) {
      scene.deliver = (exchange) => deliverHostile(exchange, kind);
      const rssFile = join(dir, 'rss');
      const nodeArgs = ['--import', pathToFileURL(RSS_PROBE).href];
      const { code, stderr } = await tally.start(`rss: ${kind}`, pullArgs, { cwd: dir, env: { ...env, SCHEMA_SYNC_BENCH_RSS: rssFile }, nodeArgs }).done;
      const mib = Math.round(Number(readFileSync(rssFile, 'utf8')) / 1024);
      console.log(`peak RSS, ${kind === 'endless' ? 'a body that never ends' : 'a gzip bomb (2 GiB from 2 MB)'}: ${mib} MiB; exit ${code}: ${stderr.split('\n')[0]}`);
    }
  } finally {
    scene.deliver = undefined;
  }
}

/**
 * Sends a hostile body: `endless`, the listing's elements over and over, never closing the
 * array, as fast as the client reads; `gzipBomb`, 2 GiB of blanks after a `[` as one compressed
 * MiB repeated (gzip members join). (The tests' fault helper, test/helpers/server/fault.ts, is
 * TypeScript, which plain node cannot load.)
 */
async function deliverHostile({ response, answer, signal }, kind) {
  if (kind === 'gzipBomb') {
    const blank = gzipSync(Buffer.alloc(1024 ** 2, ' '), { level: 9 });
    const body = Buffer.concat([gzipSync('['), ...Array.from({ length: 2048 }, () => blank)]);
    return sendAnswer(response, { status: 200, headers: { 'content-type': 'application/json', 'content-encoding': 'gzip' }, body });
  }
  response.writeHead(200, { 'content-type': 'application/json' });
  const text = answer.body.toString('utf8');
  const piece = Buffer.from(`${text.slice(1, -1)},`.repeat(64));
  response.write('[');
  while (!response.destroyed && !signal.aborted) {
    if (!response.write(piece)) await new Promise((resolve) => {
      const done = () => {
        response.off('drain', done).off('close', done);
        signal.removeEventListener('abort', done);
        resolve();
      };
      response.on('drain', done).on('close', done);
      signal.addEventListener('abort', done);
    });
  }
}
