#!/usr/bin/env node
// node scripts/adversarial.mjs [--kills 60] [--pairs 40] [--types 10000] [--seed 20250613] [--no-rss]
//
// The adversarial pass of issue 18, as figures (not part of npm test; needs `npm run build`;
// see bench/README.md). Against the built CLI and the bundled reference server:
//  1. kills: `pull`s moving a folder of `--types` types between two listings (A and B: a tenth of
//     the hashes changed, 1 % removed, 1 % added) get SIGKILL, SIGINT or SIGTERM at a random
//     moment (seeded); after each exit the files on disk are judged (the lockfile and generated
//     files exactly A or exactly B, or a mix; a transaction folder or run lock left apart), then as the next command sees them (read only, honouring a pending journal), then on
//     disk again after that next command (`generate`) has run;
//  2. pairs: a `check --format json` started at a random moment beside a `pull` (one cache folder
//     for both); its report must be byte for byte what `check` reports of the folder at rest
//     before the pull or after it, or an honest refusal ("kept changing");
//  3. peak RSS of a `pull` against a body that never ends and against a gzip bomb, at the default
//     --max-bytes.
// Prints one line per figure. Kill moments and signals come from a PRNG seeded with --seed.
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { sendAnswer, startReferenceServer } from '../dist/server/index.js';
import { openFolderView, RUN_LOCK_FILE, TXN_DIR } from '../dist/write/index.js';
import {
  movedListing,
  readTree,
  roomyTempDir,
  seededRandom,
  startCli,
  stateOnDisk,
  syntheticListing,
  visibleState,
} from '../test/helpers/folder-states.mjs';

const arg = (name, fallback) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? Number(process.argv[i + 1]) : fallback;
};
const KILLS = arg('kills', 60);
const PAIRS = arg('pairs', 40);
const TYPES = arg('types', 10_000);
const SEED = arg('seed', 20_250_613);
const RSS = !process.argv.includes('--no-rss');
const SIGNALS = ['SIGKILL', 'SIGINT', 'SIGTERM'];
const RSS_PROBE = fileURLToPath(new URL('../bench/rss-probe.mjs', import.meta.url));

const random = seededRandom(SEED);
const dir = await roomyTempDir('schema-sync-adversarial-');
const outDir = join(dir, 'out');
const lockfilePath = join(dir, 'schema-sync.lock.json');
const txnDir = join(outDir, TXN_DIR);
const listings = { A: syntheticListing(TYPES), B: movedListing(TYPES) };
for (const [name, listing] of Object.entries(listings)) writeFileSync(join(dir, `${name}.json`), JSON.stringify(listing));
// One cache folder for every command, as on a developer's machine.
const env = { SCHEMA_SYNC_CACHE_DIR: join(dir, 'cache') };
// The hostile body of part 3 ('endless' or 'gzipBomb'), sent through the server's delivery seam;
// the tests' fault helper (test/helpers/server/fault.ts) is TypeScript, which plain node cannot load.
let hostile;
const server = await startReferenceServer({ listing: listings.A, deliver: (exchange) => deliverHostile(exchange, hostile) });
const pullArgs = ['pull', '--base-url', server.url, '--out', 'out', '--quiet'];

/** Runs the CLI to its end; throws unless it exits with one of `codes`. */
async function run(args, codes = [0]) {
  const result = await startCli(args, { cwd: dir, env }).done;
  if (!codes.includes(result.code)) throw new Error(`schema-sync ${args.join(' ')} exited ${result.code ?? result.signal}: ${result.stderr}`);
  return result;
}

async function snapshot(name) {
  return { name, tree: await readTree(outDir), lockfile: readFileSync(lockfilePath, 'utf8') };
}

/** A check's JSON report in a few words, or its first error line. */
function describeReport(check) {
  try {
    const report = JSON.parse(check.stdout);
    return `${report.changes.length} changes, ${report.staleFiles.length} stale files`;
  } catch {
    return check.stderr.split('\n')[0];
  }
}

async function until(condition, timeoutMs) {
  const deadline = Date.now() + timeoutMs;
  while (!condition() && Date.now() < deadline) await sleep(1);
}

try {
  // The two states, and how long a pull A→B takes (whole, and from its transaction folder on).
  await run(pullArgs);
  const A = await snapshot('A');
  server.setListing(listings.B);
  const timed = startCli(pullArgs, { cwd: dir, env });
  let exited = false;
  void timed.done.then(() => (exited = true));
  await until(() => exited || existsSync(txnDir), 300_000);
  const txnAt = Date.now();
  const timedResult = await timed.done;
  if (timedResult.code !== 0) throw new Error(`pull A→B failed: ${timedResult.stderr}`);
  const runMs = timedResult.exitedAt - timed.startedAt;
  const writeMs = Math.max(50, timedResult.exitedAt - txnAt);
  const B = await snapshot('B');
  const states = [A, B];
  console.log(`adversarial pass: ${TYPES} types, seed ${SEED}; pull A→B ${runMs} ms, of which ${writeMs} ms from its transaction folder on`);

  // 1. Kills.
  const tried = { SIGKILL: 0, SIGINT: 0, SIGTERM: 0 };
  const mixedOnDisk = { SIGKILL: 0, SIGINT: 0, SIGTERM: 0 };
  const leftBehind = { SIGKILL: 0, SIGINT: 0, SIGTERM: 0 };
  let pendingAfterKill = 0;
  let mixedAsSeen = 0;
  let mixedAfterNext = 0;
  let finishedFirst = 0;
  let current = B;
  for (let round = 0; round < KILLS; round++) {
    const signal = SIGNALS[round % SIGNALS.length];
    const target = current === A ? B : A;
    server.setListing(listings[target.name]);
    const child = startCli(pullArgs, { cwd: dir, env });
    let done = false;
    void child.done.then(() => (done = true));
    // Node runs no handler before its start-up: a graceful signal is sent once it can be heard.
    const minDelay = signal === 'SIGKILL' ? 0 : 400;
    if (random() < 0.5) {
      await until(() => done, minDelay + random() * Math.max(0, 0.9 * runMs - minDelay));
    } else {
      await until(() => done || existsSync(txnDir), runMs * 3);
      await until(() => done, Math.max(minDelay - (Date.now() - child.startedAt), random() * writeMs));
    }
    const killed = !done && child.child.kill(signal);
    const result = await child.done;
    if (!killed || result.code === 0) {
      finishedFirst++;
      current = await stateOnDisk(outDir, lockfilePath, states);
      if (current !== target) throw new Error(`a pull that finished left ${current?.name ?? 'a mix'}, not ${target.name}: ${result.stderr}`);
      continue;
    }
    tried[signal]++;
    // A mix: the lockfile and the generated files are neither exactly A nor exactly B. A
    // transaction folder or run lock left for the next command is counted apart.
    const content = await stateOnDisk(outDir, lockfilePath, states, [TXN_DIR, RUN_LOCK_FILE]);
    if (content === undefined) {
      if (existsSync(join(txnDir, 'journal.json'))) pendingAfterKill++;
      mixedOnDisk[signal]++;
    } else if ((await stateOnDisk(outDir, lockfilePath, states)) === undefined) {
      leftBehind[signal]++;
    }
    let seen;
    try {
      seen = await visibleState(openFolderView, outDir, lockfilePath, states);
    } catch {
      mixedAsSeen++;
    }
    // The next command finishes (or discards) what the kill left, then writes nothing more.
    await run(['generate', '--out', 'out', '--quiet']);
    const after = await stateOnDisk(outDir, lockfilePath, states);
    if (after === undefined || (seen !== undefined && after !== seen)) mixedAfterNext++;
    current = after ?? current;
  }
  const kills = tried.SIGKILL + tried.SIGINT + tried.SIGTERM;
  console.log(
    `kills: ${kills} landed (SIGKILL ${tried.SIGKILL}, SIGINT ${tried.SIGINT}, SIGTERM ${tried.SIGTERM}; ${finishedFirst} pulls finished before their signal)`,
  );
  console.log(
    `  mixes on disk right after the exit: SIGKILL ${mixedOnDisk.SIGKILL} (${pendingAfterKill} with a committed journal for the next command), SIGINT ${mixedOnDisk.SIGINT}, SIGTERM ${mixedOnDisk.SIGTERM}`,
  );
  console.log(
    `  left a transaction folder or run lock for the next command (content whole): SIGKILL ${leftBehind.SIGKILL}, SIGINT ${leftBehind.SIGINT}, SIGTERM ${leftBehind.SIGTERM}`,
  );
  console.log(`  mixes as the next command sees the folder: ${mixedAsSeen}; on disk after the next command (generate): ${mixedAfterNext}`);

  // 2. check beside pull. What check reports of each state at rest, against each listing.
  const atRest = {};
  for (const state of states) {
    await run(['pull', '--input', `${state.name}.json`, '--out', 'out', '--quiet']);
    for (const input of ['A', 'B']) {
      const check = await run(['check', '--input', `${input}.json`, '--out', 'out', '--format', 'json'], [0, 1]);
      atRest[`${state.name}|${input}`] = `${check.code}\n${check.stdout}`;
    }
  }
  current = B;
  let wrong = 0;
  let refused = 0;
  const examples = [];
  for (let pair = 0; pair < PAIRS; pair++) {
    const target = current === A ? B : A;
    server.setListing(listings[target.name]);
    const pulling = startCli(pullArgs, { cwd: dir, env });
    await sleep(random() * runMs);
    const check = await startCli(['check', '--input', `${target.name}.json`, '--out', 'out', '--format', 'json'], { cwd: dir, env }).done;
    const pulled = await pulling.done;
    if (pulled.code !== 0) throw new Error(`pull failed beside check: ${pulled.stderr}`);
    const report = `${check.code}\n${check.stdout}`;
    if (check.code === 2 && check.stderr.includes('kept changing while check read it')) refused++;
    else if (report !== atRest[`${current.name}|${target.name}`] && report !== atRest[`${target.name}|${target.name}`]) {
      wrong++;
      if (examples.length < 3) examples.push(`exit ${check.code}: ${describeReport(check)}`);
    }
    current = target;
  }
  console.log(`check beside pull: ${PAIRS} pairs, ${wrong} wrong reports, ${refused} refused as "kept changing"${examples.length ? `; e.g. ${examples.join(' | ')}` : ''}`);

  // 3. Peak RSS against hostile bodies at the default --max-bytes.
  if (RSS) {
    for (const fault of [{ kind: 'endless' }, { kind: 'gzipBomb' }]) {
      hostile = fault.kind;
      const rssFile = join(dir, 'rss');
      const nodeArgs = ['--import', pathToFileURL(RSS_PROBE).href];
      const { code, stderr } = await startCli(pullArgs, { cwd: dir, env: { ...env, SCHEMA_SYNC_BENCH_RSS: rssFile }, nodeArgs }).done;
      const mib = Math.round(Number(readFileSync(rssFile, 'utf8')) / 1024);
      console.log(`peak RSS, ${fault.kind === 'endless' ? 'a body that never ends' : 'a gzip bomb (2 GiB from 2 MB)'}: ${mib} MiB; exit ${code}: ${stderr.split('\n')[0]}`);
    }
    hostile = undefined;
  }
} finally {
  await server.close();
  rmSync(dir, { recursive: true, force: true });
}

/**
 * Sends the answer, or with `kind` a hostile body: `endless`, the listing's elements over and
 * over, never closing the array, as fast as the client reads; `gzipBomb`, 2 GiB of blanks after a
 * `[` as one compressed MiB repeated (gzip members join).
 */
async function deliverHostile({ response, answer, signal }, kind) {
  if (kind === 'gzipBomb') {
    const blank = gzipSync(Buffer.alloc(1024 ** 2, ' '), { level: 9 });
    const body = Buffer.concat([gzipSync('['), ...Array.from({ length: 2048 }, () => blank)]);
    return sendAnswer(response, { status: 200, headers: { 'content-type': 'application/json', 'content-encoding': 'gzip' }, body });
  }
  if (kind !== 'endless') return sendAnswer(response, answer);
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
