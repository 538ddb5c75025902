// Part 1, kills: `pull`s moving the scene's folder between A and B get SIGKILL, SIGINT or SIGTERM
// at a random moment, or two SIGINTs 5 ms apart after the commit point (a second Ctrl-C during
// the roll-forward; sent from inside the process by test/hardening/kill-at.mjs, at the commit
// point or a random number of moved files after it). After each exit the files on disk are
// judged (the lockfile and generated files exactly A or exactly B, or a mix; a transaction folder
// or run lock left apart), then as the next command sees them (read only, honouring a pending
// journal), then on disk again after that next command (`generate`) has run.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { openFolderView, RUN_LOCK_FILE, TXN_DIR } from '../../dist/write/index.js';
import { stateOnDisk, visibleState } from '../../test/helpers/folder-states.mjs';
import { until } from './common.mjs';

const KILL_AT = pathToFileURL(fileURLToPath(new URL('../../test/hardening/kill-at.mjs', import.meta.url))).href;
const DOUBLE = 'SIGINT×2';
const KINDS = ['SIGKILL', 'SIGINT', 'SIGTERM', DOUBLE];
/** The commit point: the journal's rename (src/write/journal.ts), then files moved in from the transaction folder. */
const COMMIT = { op: 'renameSync', path: 'journal\\.json\\.tmp -> ', n: 1 };
const MOVED_IN = `^out/\\${TXN_DIR}/files/`;

/** Kills `count` pulls (the kinds in turn) and prints what they left, by kind. */
export async function kills(scene, count, random, tally) {
  const { A, B, dir, env, outDir, lockfilePath, txnDir, pullArgs, runMs, writeMs, server, listings } = scene;
  const states = [A, B];
  const perKind = () => Object.fromEntries(KINDS.map((kind) => [kind, 0]));
  const tried = perKind();
  const mixedOnDisk = perKind();
  const lockLeft = perKind();
  const txnLeft = perKind();
  const journalLeft = perKind();
  const mixedAsSeen = perKind();
  const mixedAfterNext = perKind();
  let pendingAfterKill = 0;
  let finishedFirst = 0;
  let current = B;
  for (let round = 0; round < count; round++) {
    const kind = KINDS[round % KINDS.length];
    const target = current === A ? B : A;
    server.setListing(listings[target.name]);
    let child;
    let killed;
    if (kind === DOUBLE) {
      // At the commit point, or after a random number of the files moved in (the changed tenth).
      const moved = Math.floor(random() * 0.12 * listings.A.length);
      const steps = moved === 0 ? [COMMIT] : [COMMIT, { op: 'renameSync', path: MOVED_IN, n: moved }];
      const killAt = { KILL_AT_ROOT: dir, KILL_AT: JSON.stringify(steps), KILL_AT_SIGNAL: 'SIGINT', KILL_AT_AGAIN_MS: '5' };
      child = tally.start(`kills: ${kind}`, pullArgs, { cwd: dir, env: { ...env, ...killAt }, nodeArgs: ['--import', KILL_AT] });
      const result = await child.done;
      killed = result.code !== 0;
    } else {
      child = tally.start(`kills: ${kind}`, pullArgs, { cwd: dir, env });
      let done = false;
      void child.done.then(() => (done = true));
      // Node runs no handler before its start-up: a graceful signal is sent once it can be heard.
      const minDelay = kind === 'SIGKILL' ? 0 : 400;
      if (random() < 0.5) {
        await until(() => done, minDelay + random() * Math.max(0, 0.9 * runMs - minDelay));
      } else {
        await until(() => done || existsSync(txnDir), runMs * 3);
        await until(() => done, Math.max(minDelay - (Date.now() - child.startedAt), random() * writeMs));
      }
      killed = !done && child.child.kill(kind);
    }
    const result = await child.done;
    if (!killed || result.code === 0) {
      finishedFirst++;
      current = await stateOnDisk(outDir, lockfilePath, states);
      if (current !== target) throw new Error(`a pull that finished left ${current?.name ?? 'a mix'}, not ${target.name}: ${result.stderr}`);
      continue;
    }
    tried[kind]++;
    // A mix: the lockfile and the generated files are neither exactly A nor exactly B. A
    // transaction folder or run lock left for the next command is counted apart.
    const content = await stateOnDisk(outDir, lockfilePath, states, [TXN_DIR, RUN_LOCK_FILE]);
    if (content === undefined) {
      if (existsSync(join(txnDir, 'journal.json'))) pendingAfterKill++;
      mixedOnDisk[kind]++;
    } else {
      if (existsSync(join(outDir, RUN_LOCK_FILE))) lockLeft[kind]++;
      if (existsSync(txnDir)) txnLeft[kind]++;
      if (existsSync(join(txnDir, 'journal.json'))) journalLeft[kind]++;
    }
    let seen;
    try {
      seen = await visibleState(openFolderView, outDir, lockfilePath, states);
    } catch {
      mixedAsSeen[kind]++;
    }
    // The next command finishes (or discards) what the kill left, then writes nothing more.
    await tally.run(`kills: generate after ${kind}`, ['generate', '--out', 'out', '--quiet'], { cwd: dir, env });
    const after = await stateOnDisk(outDir, lockfilePath, states);
    if (after === undefined || (seen !== undefined && after !== seen)) mixedAfterNext[kind]++;
    current = after ?? current;
  }
  const byKind = (counts) => KINDS.map((kind) => `${kind} ${counts[kind]}`).join(', ');
  const sum = (counts) => KINDS.reduce((total, kind) => total + counts[kind], 0);
  console.log(`kills: ${count} tried, ${sum(tried)} landed (${byKind(tried)}; ${finishedFirst} pulls finished before their signal)`);
  console.log(`  mixes on disk right after the exit: ${sum(mixedOnDisk)} (${byKind(mixedOnDisk)}; ${pendingAfterKill} with a committed journal for the next command)`);
  console.log(`  content whole, but left for the next command: a run lock ${sum(lockLeft)} (${byKind(lockLeft)})`);
  console.log(`    a transaction folder ${sum(txnLeft)} (${byKind(txnLeft)}), of which with a committed journal ${sum(journalLeft)} (${byKind(journalLeft)})`);
  console.log(`  mixes as the next command sees the folder: ${sum(mixedAsSeen)} (${byKind(mixedAsSeen)})`);
  console.log(`  mixes on disk after the next command (generate): ${sum(mixedAfterNext)} (${byKind(mixedAfterNext)})`);
}
