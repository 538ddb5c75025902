// The scene of the kills, the pairs and the RSS part: a folder of `--types` types that `pull`s
// move between two listings (A and B: a tenth of the hashes changed, 1 % removed, 1 % added),
// against the bundled reference server, whose delivery part 3 can make hostile.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { sendAnswer, startReferenceServer } from '../../dist/server/index.js';
import { TXN_DIR } from '../../dist/write/index.js';
import { movedListing, readTree, syntheticListing } from '../../test/helpers/folder-states.mjs';
import { until } from './common.mjs';

/**
 * Sets the scene up in `dir` and pulls A, then B (timed: how long a whole pull A→B takes, and
 * how long from its transaction folder on). `scene.deliver` (undefined: the answer as it is)
 * sends the server's answers.
 */
export async function movingFolder(dir, types, tally) {
  mkdirSync(dir, { recursive: true });
  const outDir = join(dir, 'out');
  const lockfilePath = join(dir, 'schema-sync.lock.json');
  const listings = { A: syntheticListing(types), B: movedListing(types) };
  for (const [name, listing] of Object.entries(listings)) writeFileSync(join(dir, `${name}.json`), JSON.stringify(listing));
  // One cache folder for every command, as on a developer's machine.
  const env = { SCHEMA_SYNC_CACHE_DIR: join(dir, 'cache') };
  const scene = { dir, outDir, lockfilePath, txnDir: join(outDir, TXN_DIR), listings, env, deliver: undefined };
  const server = await startReferenceServer({
    listing: listings.A,
    deliver: (exchange) => (scene.deliver ? scene.deliver(exchange) : sendAnswer(exchange.response, exchange.answer)),
  });
  const pullArgs = ['pull', '--base-url', server.url, '--out', 'out', '--quiet'];
  const snapshot = async (name) => ({ name, tree: await readTree(outDir), lockfile: readFileSync(lockfilePath, 'utf8') });

  await tally.run('scene: pull A', pullArgs, { cwd: dir, env });
  const A = await snapshot('A');
  server.setListing(listings.B);
  const timed = tally.start('scene: pull A→B', pullArgs, { cwd: dir, env });
  let exited = false;
  void timed.done.then(() => (exited = true));
  await until(() => exited || existsSync(scene.txnDir), 300_000);
  const txnAt = Date.now();
  const timedResult = await timed.done;
  if (timedResult.code !== 0) throw new Error(`pull A→B failed: ${timedResult.stderr}`);
  const B = await snapshot('B');
  return Object.assign(scene, {
    server,
    pullArgs,
    A,
    B,
    runMs: timedResult.exitedAt - timed.startedAt,
    writeMs: Math.max(50, timedResult.exitedAt - txnAt),
    close: () => server.close(),
  });
}
