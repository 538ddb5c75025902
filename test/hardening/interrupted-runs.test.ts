/**
 * Interrupted runs: real `schema-sync pull` processes moving a 10,000-type folder from listing A
 * to listing B (or back) are killed with SIGKILL, SIGINT and SIGTERM at random moments. After
 * every kill, the folder as the next command sees it (read only, honouring a pending journal)
 * is exactly A's or exactly B's, lockfile included; once the pending run is finished or
 * discarded, the files on disk are byte for byte that state, with no lock or transaction folder left.
 *
 * The loop runs HARDENING_KILL_ROUNDS rounds (9: three per signal), and more only until each
 * signal has had a kill that landed. Kill moments and modes come from a seeded PRNG with a fixed
 * default seed; SCHEMA_SYNC_TEST_SEED chooses another, and a failure prints the seed to replay.
 * The moments are fractions of the pull's measured duration, so a slower machine gets the same
 * choices, later. The figures are printed at the end.
 */
import { existsSync, readFileSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it, onTestFailed } from 'vitest';
import { startReferenceServer, type ReferenceServer } from '../../src/server/index.js';
import { openFolderView, readJournal, RUN_LOCK_FILE, TXN_DIR, withRunLock } from '../../src/write/index.js';
import { readTree, removeDir, runBin } from '../helpers/cli.js';
import type { WireElement } from '../helpers/listing.js';
import { seededRandom, testSeed } from '../helpers/random.js';
import {
  movedListing,
  roomyTempDir,
  startCli,
  syntheticListing,
  treeDifference,
  visibleState,
  type FolderState,
} from './helpers.js';

const TYPES = 10_000;
const ROUNDS = Number(process.env['HARDENING_KILL_ROUNDS'] ?? 9);
/** Past ROUNDS only while some signal has no kill that landed; this many rounds at most. */
const MAX_ROUNDS = Math.max(ROUNDS, 60);
const SIGNALS = ['SIGKILL', 'SIGINT', 'SIGTERM'] as const;
type KillSignal = (typeof SIGNALS)[number];
const EXIT_CODE: Record<Exclude<KillSignal, 'SIGKILL'>, number> = { SIGINT: 130, SIGTERM: 143 };

let server: ReferenceServer;
let dir: string;
let outDir: string;
let lockfilePath: string;
let stateA: FolderState;
let stateB: FolderState;
const listings = new Map<string, WireElement[]>();
/** How long a pull A→B runs until its commit point, and how long it prepares files before that. */
let runMs = 0;
let writePhaseMs = 0;
/** Whether `check` and `generate` through the CLI met a committed, unapplied journal. */
let cliMetPendingJournal = false;

const pullArgs = () => ['pull', '--base-url', server.url, '--out', 'out', '--quiet'];
const txnDir = () => join(outDir, TXN_DIR);
const journal = () => join(outDir, TXN_DIR, 'journal.json');

async function until(condition: () => boolean, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition() && Date.now() < deadline) await sleep(1);
}

beforeAll(async () => {
  dir = await roomyTempDir('schema-sync-kill-');
  outDir = join(dir, 'out');
  lockfilePath = join(dir, 'schema-sync.lock.json');
  listings.set('A', syntheticListing(TYPES));
  // Listing B: 1,000 schema hashes changed, 100 types removed, 100 added, the rest as in A.
  listings.set('B', movedListing(TYPES));
  await writeFile(join(dir, 'a.json'), JSON.stringify(listings.get('A')));
  await writeFile(join(dir, 'b.json'), JSON.stringify(listings.get('B')));
  server = await startReferenceServer({ listing: listings.get('A')! });

  // 10,000 types are accepted: the folder holds A's output and lockfile.
  const first = await runBin(pullArgs(), { cwd: dir, timeoutMs: 120_000 });
  expect(first.stderr).toBe('');
  expect(first.code).toBe(0);
  stateA = { name: 'A', tree: await readTree(outDir), lockfile: await readFile(lockfilePath, 'utf8') };
  expect([...stateA.tree.keys()].filter((p) => p.startsWith('messages/'))).toHaveLength(TYPES);
  expect(Object.keys(JSON.parse(stateA.lockfile).messages)).toHaveLength(TYPES);

  // A pull A→B killed the moment it commits: `check` refuses (exit 2, the journal stays), and
  // `generate` finishes the move without writing anything else.
  // That is also where B's expected output comes from, and how long a pull takes.
  server.setListing(listings.get('B')!);
  for (let attempt = 0; attempt < 3 && !cliMetPendingJournal; attempt++) {
    const run = startCli(pullArgs(), { cwd: dir });
    let exited = false;
    void run.done.then(() => (exited = true));
    await until(() => exited || existsSync(txnDir()), 120_000);
    const txnSeenAt = Date.now();
    await until(() => exited || existsSync(journal()), 120_000);
    if (!exited) run.child.kill('SIGKILL');
    const result = await run.done;
    runMs = Date.now() - run.startedAt;
    writePhaseMs = Math.max(50, Date.now() - txnSeenAt);
    if (result.signal !== 'SIGKILL' || !existsSync(journal())) {
      // Missed the window (the move was already done): bring the folder back to A and retry.
      server.setListing(listings.get('A')!);
      expect((await runBin(pullArgs(), { cwd: dir, timeoutMs: 120_000 })).code).toBe(0);
      server.setListing(listings.get('B')!);
      continue;
    }
    cliMetPendingJournal = true;
    // check never calls a folder with a pending run in sync, and writes nothing.
    const checkB = await runBin(['check', '--input', 'b.json', '--out', 'out', '--quiet'], { cwd: dir, timeoutMs: 120_000 });
    expect(checkB.code, checkB.stdout + checkB.stderr).toBe(2);
    expect(checkB.stderr).toContain('an interrupted run is pending');
    expect(existsSync(journal()), 'check writes nothing').toBe(true);
    // The folder as the view shows it (the pending run finished): after `generate`, exactly that is on disk.
    const pending = await readJournal(outDir);
    const view = await openFolderView(outDir);
    const approved = new Map<string, string>();
    for (const path of [...new Set([...stateA.tree.keys(), ...(pending?.writes ?? [])])].sort()) {
      const bytes = await view.read(path);
      if (bytes !== undefined) approved.set(path, bytes.toString('utf8'));
    }
    const generated = await runBin(['generate', '--out', 'out', '--quiet'], { cwd: dir, timeoutMs: 120_000 });
    expect(generated.code, generated.stderr).toBe(0);
    expect(treeDifference(await readTree(outDir), approved)).toBeUndefined();
  }
  expect(cliMetPendingJournal).toBe(true);
  stateB = { name: 'B', tree: await readTree(outDir), lockfile: await readFile(lockfilePath, 'utf8') };
  expect(treeDifference(stateB.tree, stateA.tree)).toBeDefined();
  expect([...stateB.tree.keys()].some((p) => p.includes(TXN_DIR) || p.includes(RUN_LOCK_FILE))).toBe(false);
}, 240_000);

afterAll(async () => {
  await server?.close();
  if (dir) await removeDir(dir);
});

describe('a pull killed at a random moment', () => {
  it('leaves the folder and lockfile wholly as before or wholly as after, as the next command sees them', async () => {
    const seed = testSeed();
    const random = seededRandom(seed);
    const states = [stateA, stateB];
    const survived: Record<KillSignal, number> = { SIGKILL: 0, SIGINT: 0, SIGTERM: 0 };
    const landed: Record<string, number> = {};
    const endedAs: Record<string, number> = { A: 0, B: 0 };
    let finishedBeforeKill = 0;
    let maxSignalLatencyMs = 0;
    let recoveredInProcess = 0;
    let leftForNextPull = 0;
    let current = stateB;
    const log: string[] = [];
    onTestFailed(() => console.error(['kills before the failure:', ...log].join('\n  ')));

    for (let round = 0; round < MAX_ROUNDS; round++) {
      // Past ROUNDS, go on only while some signal has no kill that landed (every pull it was sent
      // to had already finished): three kills of one kind prove nothing about the other two.
      if (round >= ROUNDS && SIGNALS.every((s) => survived[s] > 0)) break;
      const signal = SIGNALS[round % SIGNALS.length]!;
      const target = current === stateA ? stateB : stateA;
      server.setListing(listings.get(target.name)!);
      const pending = existsSync(txnDir());
      const journalBefore = readJournalText();
      const mode = pending ? 'recovery' : random() < 0.5 ? 'uniform' : 'write-phase';

      const run = startCli(pullArgs(), { cwd: dir });
      let exited = false;
      void run.done.then(() => (exited = true));
      // Node needs a moment before any JavaScript (and so any handler) runs; SIGKILL needs none.
      const minDelay = signal === 'SIGKILL' ? 0 : 400;
      const atLeast = (ms: number) => Math.max(minDelay - (Date.now() - run.startedAt), ms);
      if (mode === 'uniform') {
        await until(() => exited, minDelay + random() * Math.max(0, 0.9 * runMs - minDelay));
      } else if (mode === 'write-phase') {
        await until(() => exited || existsSync(txnDir()), runMs * 3);
        await until(() => exited, atLeast(random() * writePhaseMs));
      } else {
        // What an earlier kill left is finished or discarded right after the lock is taken.
        const owner = `${run.child.pid}@${hostname()}`;
        await until(() => exited || readLock() === owner, runMs * 3);
        await until(() => exited, atLeast(random() * 200));
      }
      const sentAt = Date.now();
      const killed = !exited && run.child.kill(signal);
      const result = await run.done;
      if (!killed || result.code === 0) {
        // Finished before the kill: a complete run, not an interrupted one.
        expect(result.code, result.stderr).toBe(0);
        finishedBeforeKill++;
        log.push(`${signal} (${mode}; seed ${seed}, round ${round}): the pull had finished`);
        current = await visibleState(outDir, lockfilePath, states);
        expect(current.name).toBe(target.name);
        continue;
      }

      const lockLeft = existsSync(join(outDir, RUN_LOCK_FILE));
      const txnLeft = existsSync(txnDir());
      const journalLeft = existsSync(journal());
      if (signal === 'SIGKILL') {
        expect(result.signal).toBe('SIGKILL');
      } else if (result.code === EXIT_CODE[signal]) {
        // Ctrl-C / SIGTERM: promptly, with exactly one line.
        const lines = result.stderr.trimEnd().split('\n');
        expect(lines, result.stderr).toHaveLength(1);
        expect(lines[0]).toMatch(new RegExp(`^schema-sync: interrupted \\(${signal}\\); the lockfile and output folder are as before`));
        maxSignalLatencyMs = Math.max(maxSignalLatencyMs, result.exitedAt - sentAt);
      } else {
        // Only a process already past its work (lock released) may end by the signal itself.
        expect({ signal: result.signal, lockLeft, stderr: result.stderr }).toEqual({ signal, lockLeft: false, stderr: '' });
      }

      const phase = journalLeft ? 'committed, not yet applied' : txnLeft ? 'preparing or cleaning up' : lockLeft ? 'holding the lock' : 'before the lock or after the run';
      landed[phase] = (landed[phase] ?? 0) + 1;
      const where = `after ${signal} (${mode}, ${phase}, ${sentAt - run.startedAt} ms; seed ${seed}, round ${round})`;

      // As `check` sees it: exactly one of the two states, never a mix.
      let seen: FolderState;
      try {
        seen = await visibleState(outDir, lockfilePath, states);
      } catch (error) {
        throw new Error(`${where}: ${(error as Error).message}`);
      }
      expect([current.name, target.name], where).toContain(seen.name);
      // A journal this pull committed means the new state; one an earlier kill left, untouched, the old.
      const journalAfter = readJournalText();
      if (journalAfter !== undefined) {
        expect(seen.name, `${where}: the pending journal decides`).toBe(journalAfter === journalBefore ? current.name : target.name);
      }
      if (signal !== 'SIGKILL') {
        // A graceful signal: the run rolled back, or finished its commit, before the process
        // ended; so the disk itself holds one state, with no lock and (unless an earlier kill
        // left one for this run to recover before it took the lock) no transaction folder.
        expect(lockLeft, where).toBe(false);
        if (!pending) {
          expect(txnLeft, where).toBe(false);
          expect(treeDifference(await readTree(outDir), seen.tree), where).toBeUndefined();
          expect(await readFile(lockfilePath, 'utf8'), where).toBe(seen.lockfile);
        }
      }
      survived[signal]++;
      endedAs[seen.name]!++;
      log.push(`${where} → ${seen.name}`);
      current = seen;

      // Half the time the next (killed) pull finishes or discards what is left; otherwise the
      // recovery every pull and generate runs first, and then the files are exactly that state.
      if ((txnLeft || lockLeft) && random() < 0.5) {
        leftForNextPull++;
        continue;
      }
      await withRunLock(outDir, async () => undefined, { lockfilePath, waitMs: 10_000 });
      recoveredInProcess++;
      expect(treeDifference(await readTree(outDir), seen.tree), where).toBeUndefined();
      expect(await readFile(lockfilePath, 'utf8'), where).toBe(seen.lockfile);
    }
    if (existsSync(txnDir()) || existsSync(join(outDir, RUN_LOCK_FILE))) {
      await withRunLock(outDir, async () => undefined, { lockfilePath, waitMs: 10_000 });
      recoveredInProcess++;
    }
    expect(treeDifference(await readTree(outDir), current.tree)).toBeUndefined();

    const total = survived.SIGKILL + survived.SIGINT + survived.SIGTERM;
    console.log(
      [
        `interrupted pulls over ${TYPES} types (seed ${seed}): ${total} kills survived ` +
          `(SIGKILL ${survived.SIGKILL}, SIGINT ${survived.SIGINT}, SIGTERM ${survived.SIGTERM}) plus 1 at the commit point; ` +
          `${finishedBeforeKill} pulls finished before their kill`,
        `  pull to commit ${runMs} ms, of which preparing ${writePhaseMs} ms; slowest exit after SIGINT/SIGTERM ${maxSignalLatencyMs} ms`,
        `  landed: ${JSON.stringify(landed)}; seen afterwards as ${JSON.stringify(endedAs)}`,
        `  left for the next pull ${leftForNextPull}, recovered in process ${recoveredInProcess}; CLI check/generate met a pending journal: ${cliMetPendingJournal}`,
        ...(process.env['HARDENING_VERBOSE'] ? log.map((line) => `  ${line}`) : []),
      ].join('\n'),
    );
    expect(survived.SIGKILL).toBeGreaterThan(0);
    expect(survived.SIGINT).toBeGreaterThan(0);
    expect(survived.SIGTERM).toBeGreaterThan(0);
  }, 300_000);
});

function readJournalText(): string | undefined {
  try {
    return readFileSync(journal(), 'utf8');
  } catch {
    return undefined;
  }
}

function readLock(): string | undefined {
  try {
    return readFileSync(join(outDir, RUN_LOCK_FILE), 'utf8');
  } catch {
    return undefined;
  }
}
