/**
 * Parallel runs on one output folder never interleave their writes: the second waits for the
 * run lock (30 s by default) or stops with "another schema-sync is running on DIR"; a lock left
 * by a killed run is taken over, also when several runs find it at the same moment. Runs that
 * run beside each other are built CLI processes; set-up runs and runs alone run the CLI in this
 * process (see test/helpers/in-process.ts).
 */
import { cp, mkdir, readFile, stat, utimes, writeFile } from 'node:fs/promises';
import { hostname } from 'node:os';
import { dirname, join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { pull } from '../../src/index.js';
import { inspectFolder } from '../../src/run/check.js';
import { openRun, openRunCache } from '../../src/run/run-context.js';
import { startTestServer, type TestServer } from '../helpers/server/index.js';
import { JOURNAL, pendingFilePath, pendingLockfilePath } from '../../src/write/journal.js';
import { txnFolderIdentity } from '../../src/write/txn-folder.js';
import { MANIFEST_FILE } from '../../src/write/manifest.js';
import { hashOf } from '../../src/util/hash.js';
import { acquireRunLock, openFolderView, recoverPending, RUN_LOCK_FILE, TXN_DIR, type FolderView } from '../../src/write/index.js';
import { readTree, removeDir, runBin, tempDir } from '../helpers/cli.js';
import { runCli } from '../helpers/in-process.js';
import { exampleListing, type WireElement } from '../helpers/listing.js';
import { startCli, syntheticElement, syntheticListing, treeDifference } from './helpers.js';

/** Three listings that differ in most files, so an interleaving could not go unnoticed. */
function variant(version: number): WireElement[] {
  return exampleListing().map((element, i) => ({
    header: element.header,
    message: { ...element.message, schemaHash: `${version}${String(element.message['schemaHash']).slice(1)}`, desc: `v${version} of type ${i}` },
  }));
}

const KILL_AT = fileURLToPath(new URL('./kill-at.mjs', import.meta.url));

let servers: TestServer[];
let dir: string;
/** A run of `out` in `dir` and its cache, off: what `inspectFolder` takes. */
const plainRun = () => {
  const run = openRun({ cwd: dir, out: 'out', cacheDir: false });
  return [run, openRunCache(run, { cacheDir: false })] as const;
};
const expected = new Map<number, Map<string, string>>();
/** A folder where listing 0 alone was pulled: a copy is a folder after a finished pull. */
let pulled0: string;

beforeAll(async () => {
  servers = await Promise.all([0, 1, 2].map((v) => startTestServer({ listing: variant(v) })));
  // What each listing alone produces, lockfile included.
  await Promise.all(
    [0, 1, 2].map(async (v) => {
      const alone = await tempDir();
      const run = await runCli(['pull', '--base-url', servers[v]!.url, '--out', 'out', '--quiet'], { cwd: alone });
      expect(run.code, run.stderr).toBe(0);
      expected.set(v, await snapshot(alone));
      if (v === 0) pulled0 = alone;
      else await removeDir(alone);
    }),
  );
});
afterAll(async () => {
  await Promise.all(servers.map((s) => s.close()));
  if (pulled0) await removeDir(pulled0);
});
beforeEach(async () => {
  dir = await tempDir();
});
afterEach(() => removeDir(dir));

/** The output folder and lockfile; the base URL differs per server, so it is normalised away. */
async function snapshot(root: string): Promise<Map<string, string>> {
  const tree = await readTree(join(root, 'out'));
  tree.set('schema-sync.lock.json', await readFile(join(root, 'schema-sync.lock.json'), 'utf8'));
  return new Map([...tree].map(([path, text]) => [path, text.replace(/http:\/\/127\.0\.0\.1:\d+/g, 'BASE')]));
}

function matchingVariant(tree: Map<string, string>): number | undefined {
  for (const [v, want] of expected) {
    if (want.size === tree.size && [...want].every(([path, text]) => tree.get(path) === text)) return v;
  }
  return undefined;
}

describe('two pulls on the same folder at once', () => {
  it('never interleave: three at once, each waits for the lock, and the folder is wholly one run', async () => {
    const runs = await Promise.all(
      [0, 1, 2].map((v) => runBin(['pull', '--base-url', servers[v]!.url, '--out', 'out', '--quiet'], { cwd: dir, timeoutMs: 60_000 })),
    );
    for (const run of runs) {
      expect(run.code, run.stderr).toBe(0);
      expect(run.stderr).toBe('');
    }
    const tree = await snapshot(dir);
    expect([...tree.keys()].filter((p) => p.includes('.schema-sync-run') || p.includes('.schema-sync-txn'))).toEqual([]);
    expect(matchingVariant(tree), "the folder and lockfile are exactly one listing's output").toBeDefined();
  });

  it('a second run waits while a live process holds the lock, then goes ahead', async () => {
    const out = join(dir, 'out');
    await mkdir(out, { recursive: true });
    // This test process is alive: its lock is not stale.
    await writeFile(join(out, RUN_LOCK_FILE), `${process.pid}@${hostname()}`);
    // The run says when it has found the lock held three times (test/hardening/kill-at.mjs): it
    // is waiting, not failing or going ahead.
    const steps = [{ op: 'readFile', path: 'run\\.lock$', n: 3 }];
    const running = startCli(['pull', '--base-url', servers[0]!.url, '--out', 'out', '--quiet'], {
      cwd: dir,
      nodeArgs: ['--import', KILL_AT],
      env: { KILL_AT_ROOT: dir, KILL_AT: JSON.stringify(steps), KILL_AT_SIGNAL: 'none' },
    });
    let exited = false;
    void running.done.then(() => (exited = true));
    await new Promise<void>((resolve) => {
      running.child.stderr!.on('data', (d: Buffer) => d.toString().includes('kill-at: reached') && resolve());
      void running.done.then(() => resolve());
    });
    expect(exited, 'still waiting while the lock is held').toBe(false);
    expect(await readTree(out)).toEqual(new Map([[RUN_LOCK_FILE, `${process.pid}@${hostname()}`]]));
    await removeDir(join(out, RUN_LOCK_FILE));
    const run = await running.done;
    expect(run.code, run.stderr).toBe(0);
    expect(matchingVariant(await snapshot(dir))).toBe(0);
  });

  it('stops with "another schema-sync is running on DIR" when the wait runs out, writing nothing', async () => {
    const out = join(dir, 'out');
    await cp(pulled0, dir, { recursive: true });
    const before = await snapshot(dir);
    expect(matchingVariant(before)).toBe(0);
    await writeFile(join(out, RUN_LOCK_FILE), `${process.pid}@${hostname()}`);
    const error = await pull({ cwd: dir, baseUrl: servers[1]!.url, out: 'out', lockWait: 300 }).then(
      () => undefined,
      (e: unknown) => e as Error & { code?: string; hint?: string },
    );
    expect(error?.code).toBe('WRITE');
    expect(error?.message).toContain(`another schema-sync is running on ${out} (process ${process.pid}@${hostname()})`);
    expect(error?.hint).toContain(`delete ${join(out, RUN_LOCK_FILE)}`);
    const after = await snapshot(dir);
    after.delete(RUN_LOCK_FILE);
    expect(after).toEqual(before);
  });

  it('does not take over a lock held on another host (it cannot tell whether that run is alive)', async () => {
    const out = join(dir, 'out');
    await mkdir(out, { recursive: true });
    await writeFile(join(out, RUN_LOCK_FILE), `4242@build-agent-7.example`);
    await expect(acquireRunLock(out, { waitMs: 200 })).rejects.toThrow(/another schema-sync is running on .* \(process 4242@build-agent-7\.example\)/);
  });
});

describe('a lock left by a killed run', () => {
  it('is taken over at once when its process is gone, and removed afterwards', async () => {
    const out = join(dir, 'out');
    await mkdir(out, { recursive: true });
    // pid_max is at most 4194304 on Linux: 999999 is usually free, but make sure.
    const deadPid = findDeadPid();
    await writeFile(join(out, RUN_LOCK_FILE), `${deadPid}@${hostname()}`);
    // No wait allowed: only a lock taken over at once lets this run go ahead.
    const run = await runCli(['pull', '--base-url', servers[2]!.url, '--out', 'out', '--quiet', '--lock-wait', '0'], { cwd: dir });
    expect(run.code, run.stderr).toBe(0);
    expect(matchingVariant(await snapshot(dir))).toBe(2);
  });

  it('is taken over when it stayed empty for seconds (killed between creating and filling it), not while fresh', async () => {
    const out = join(dir, 'out');
    await mkdir(out, { recursive: true });
    const lock = join(out, RUN_LOCK_FILE);
    await writeFile(lock, '');
    await expect(acquireRunLock(out, { waitMs: 200 })).rejects.toThrow(/another schema-sync is running/);
    const old = new Date(Date.now() - 60_000);
    await utimes(lock, old, old);
    const release = await acquireRunLock(out, { waitMs: 200 });
    expect(await readFile(lock, 'utf8')).toBe(`${process.pid}@${hostname()}`);
    await release();
    await expect(stat(lock)).rejects.toThrow(/ENOENT/);
  });

  it('is taken over by exactly one of several runs that find it at the same moment', async () => {
    let overlaps = 0;
    let acquired = 0;
    // Ten folders side by side, each with its own stale lock and four runs finding it at once.
    await Promise.all(
      Array.from({ length: 10 }, async (_, round) => {
        const out = join(dir, `round${round}`);
        await mkdir(out);
        await writeFile(join(out, RUN_LOCK_FILE), `${findDeadPid()}@${hostname()}`);
        let inside = 0;
        await Promise.all(
          Array.from({ length: 4 }, async () => {
            const release = await acquireRunLock(out, { waitMs: 5_000 });
            acquired++;
            inside++;
            if (inside > 1) overlaps++;
            await sleep(3);
            inside--;
            await release();
          }),
        );
      }),
    );
    expect(acquired).toBe(40);
    expect(overlaps).toBe(0);
  });

  it('a release never removes a lock another run holds', async () => {
    const out = join(dir, 'out');
    const release = await acquireRunLock(out, { waitMs: 200 });
    // Someone (wrongly) replaced it: our release must leave theirs alone.
    await writeFile(join(out, RUN_LOCK_FILE), `1@${hostname()}`);
    await release();
    expect(await readFile(join(out, RUN_LOCK_FILE), 'utf8')).toBe(`1@${hostname()}`);
  });
});

describe('parallel runs with a 500-type listing in the folder', () => {
  it('generate and pull at once: one waits, the folder ends wholly in one state', async () => {
    const big = syntheticListing(500);
    await writeFile(join(dir, 'big.json'), JSON.stringify(big));
    const first = await runCli(['pull', '--input', 'big.json', '--out', 'out', '--quiet'], { cwd: dir });
    expect(first.code, first.stderr).toBe(0);
    const before = await readTree(join(dir, 'out'));
    const [generated, pulled] = await Promise.all([
      runBin(['generate', '--out', 'out', '--quiet'], { cwd: dir, timeoutMs: 60_000 }),
      runBin(['pull', '--input', 'big.json', '--out', 'out', '--quiet'], { cwd: dir, timeoutMs: 60_000 }),
    ]);
    expect(generated.code, generated.stderr).toBe(0);
    expect(pulled.code, pulled.stderr).toBe(0);
    expect(await readTree(join(dir, 'out'))).toEqual(before);
  });
});

describe('check while a pull commits', () => {
  /** Listing B: of A's 60 types, 12 with a new schema hash, 3 removed, and 3 added. */
  const listingA = syntheticListing(60);
  const listingB = [...listingA.map((e, i) => (i % 5 === 1 ? syntheticElement(i, 1) : e)).filter((_, i) => i % 20 !== 7), ...[60, 61, 62].map((i) => syntheticElement(i))];

  /**
   * `check`'s inspection of the folder (the plain path: every file read), with a view whose reads
   * hand over, at the given moment, to a real `pull` of listing B that commits before the read
   * goes on. It must report one state: the folder as before the pull or as after it, never a mix
   * (B's files judged against A's lockfile are "stale" files that do not exist).
   */
  it.each([
    ['right after it read the lockfile', 'lockfile', 1],
    ['right after it read the manifest', 'file', 1],
    ['midway through the files', 'file', 30],
  ] as const)('a pull that commits %s: check sees one state, with no phantom stale files', async (_, kind, nth) => {
    await writeFile(join(dir, 'a.json'), JSON.stringify(listingA));
    await writeFile(join(dir, 'b.json'), JSON.stringify(listingB));
    await pull({ cwd: dir, input: 'a.json', out: 'out', cacheDir: false });
    const lockfileBefore = await readFile(join(dir, 'schema-sync.lock.json'), 'utf8');

    const reads = { lockfile: 0, file: 0 };
    let pulled = false;
    const pullAt = async (which: 'lockfile' | 'file') => {
      if (++reads[which] !== nth || which !== kind) return;
      const result = await pull({ cwd: dir, input: 'b.json', out: 'out', cacheDir: false });
      expect(result.write?.written.length).toBeGreaterThan(0);
      pulled = true;
    };
    const interleaved = async (outDir: string): Promise<FolderView> => {
      const view = await openFolderView(outDir);
      return {
        ...view,
        readLockfile: async (path) => {
          const text = await view.readLockfile(path);
          await pullAt('lockfile');
          return text;
        },
        read: async (path) => {
          const bytes = await view.read(path);
          await pullAt('file');
          return bytes;
        },
      };
    };
    const seen = await inspectFolder(...plainRun(), interleaved);

    expect(pulled, 'the pull ran in the middle of the inspection').toBe(true);
    const lockfileAfter = await readFile(join(dir, 'schema-sync.lock.json'), 'utf8');
    expect(lockfileAfter).not.toBe(lockfileBefore);
    expect([lockfileBefore, lockfileAfter]).toContain(seen.lockfile.text);
    expect(seen.staleFiles).toEqual([]);
    // And what it saw is what a check of the folder at rest sees.
    const atRest = await inspectFolder(...plainRun());
    expect(atRest.staleFiles).toEqual([]);
  });

  /**
   * A live run that has committed (its journal is in place) and is still rolling forward holds
   * the run lock: check waits for it and reports the folder it leaves, rather than calling it an
   * interrupted run. The pending journal is laid out by hand (B's files and lockfile prepared over
   * A's folder, as a pull A→B commits them) under a lock this test holds; the roll-forward runs
   * once check has seen the journal.
   */
  it('a pull between its commit point and the end of its roll-forward: check waits for it, never "interrupted"', async () => {
    const out = join(dir, 'out');
    const lockfilePath = join(dir, 'schema-sync.lock.json');
    await writeFile(join(dir, 'b.json'), JSON.stringify(listingB));
    await pull({ cwd: dir, input: 'b.json', out: 'out', cacheDir: false });
    const stateB = { tree: await readTree(out), lockfile: await readFile(lockfilePath, 'utf8') };
    await writeFile(join(dir, 'a.json'), JSON.stringify(listingA));
    await pull({ cwd: dir, input: 'a.json', out: 'out', cacheDir: false });
    const stateA = await readTree(out);

    const release = await acquireRunLock(out);
    const writes = [...stateB.tree.keys()].filter((path) => stateA.get(path) !== stateB.tree.get(path));
    for (const path of writes) {
      await mkdir(dirname(pendingFilePath(out, path)), { recursive: true });
      await writeFile(pendingFilePath(out, path), stateB.tree.get(path)!);
    }
    await writeFile(pendingLockfilePath(out), stateB.lockfile);
    const deletes = [...stateA.keys()].filter((path) => !stateB.tree.has(path) && path !== RUN_LOCK_FILE);
    const base = { lockfile: hashOf(await readFile(lockfilePath)), manifest: hashOf(stateA.get(MANIFEST_FILE)!) };
    const journal = { version: 3, folder: txnFolderIdentity(join(out, TXN_DIR)), base, writes, deletes, manifest: hashOf(stateB.tree.get(MANIFEST_FILE)!), lockfile: lockfilePath, lockfileSha: hashOf(stateB.lockfile) };
    await writeFile(join(out, TXN_DIR, JOURNAL), JSON.stringify(journal));

    let sawPending = false;
    let rolledForward: Promise<void> | undefined;
    const seen = await inspectFolder(...plainRun(), async (outDir) => {
      const view = await openFolderView(outDir);
      if (view.pending && rolledForward === undefined) {
        sawPending = true;
        // The run finishes what it committed, and lets the lock go, while check waits.
        rolledForward = recoverPending(out, lockfilePath).then(release).then(() => undefined);
      }
      return view;
    });
    await rolledForward;
    expect(sawPending).toBe(true);
    expect(seen.lockfile.text).toBe(stateB.lockfile);
    expect(seen.staleFiles).toEqual([]);
    expect(treeDifference(await readTree(out), stateB.tree)).toBeUndefined();
  });
});

/** A pid no process has right now. */
function findDeadPid(): number {
  for (let pid = 999_999; pid > 1_000; pid -= 7_919) {
    try {
      process.kill(pid, 0);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ESRCH') return pid;
    }
  }
  throw new Error('no free pid found');
}
