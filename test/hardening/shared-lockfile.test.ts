/**
 * Issue 42, item 9: two output folders that share one lockfile. The run lock covers the lockfile
 * too (a second lock beside it, taken after the output folder's), so two pulls into `gen` and
 * `gen2` never both read the lockfile before either wrote it; the one that comes second diffs
 * against what the first wrote, and says that the lockfile is no longer the one its folder was
 * generated from (the folder's manifest records that lockfile by hash). Nothing is left beside
 * the lockfile after a run. Runs beside each other are built CLI processes.
 */
import { existsSync } from 'node:fs';
import { readdir, readFile, writeFile } from 'node:fs/promises';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { acquireLockfileLock, lockfileLockPath, withRunLock } from '../../src/write/index.js';
import { startTestServer, type TestServer } from '../helpers/server/index.js';
import { readTree, removeDir, tempDir } from '../helpers/cli.js';
import { runCli } from '../helpers/in-process.js';
import { startCli, syntheticElement, syntheticListing } from './helpers.js';

const TYPES = 20;
let servers: TestServer[];
let dir: string;
const lockfile = () => join(dir, 'schema-sync.lock.json');
/** The message types a lockfile holds, with their schema hashes. */
const lockedHashes = async () => Object.fromEntries(Object.entries(JSON.parse(await readFile(lockfile(), 'utf8')).messages as Record<string, { schemaHash: string }>).map(([name, m]) => [name, m.schemaHash]));
const hashesOf = (listing: ReturnType<typeof syntheticListing>) => Object.fromEntries(listing.map((e) => [e.message.name as string, e.message.schemaHash as string]));
const listings = [0, 1, 2].map((v) => syntheticListing(TYPES).map((_, i) => syntheticElement(i, v)));

beforeAll(async () => {
  dir = await tempDir('schema-sync-shared-lockfile-');
  servers = await Promise.all(listings.map((listing) => startTestServer({ listing })));
  await Promise.all(listings.map((listing, v) => writeFile(join(dir, `listing${v}.json`), JSON.stringify(listing))));
}, 60_000);
afterAll(async () => {
  await Promise.all((servers ?? []).map((server) => server.close()));
  if (dir) await removeDir(dir);
});

/** Both folders generated from listing 0's lockfile, as a project that generates one lockfile twice has them. */
async function bothFromListing0(): Promise<void> {
  expect((await runCli(['pull', '--base-url', servers[0]!.url, '--out', 'gen', '--quiet'], { cwd: dir })).code).toBe(0);
  expect((await runCli(['generate', '--out', 'gen2', '--quiet'], { cwd: dir })).code).toBe(0);
  expect(await lockedHashes()).toEqual(hashesOf(listings[0]!));
}

/** Nothing of a run beside the lockfile or in the folders: no lock, no transaction folder. */
async function nothingLeftBehind(): Promise<void> {
  expect((await readdir(dir)).filter((name) => name.includes('schema-sync-') || name.endsWith('.lock'))).toEqual([]);
  for (const folder of ['gen', 'gen2']) expect([...(await readTree(join(dir, folder))).keys()].filter((path) => path.startsWith('.schema-sync-') && path !== '.schema-sync-manifest.json')).toEqual([]);
}

describe('two pulls into two output folders that share one lockfile', () => {
  it('at once: the lockfile holds the last writer\'s listing, its folder matches it, and the last writer says the lockfile moved under its folder', async () => {
    await bothFromListing0();
    const pulls = [
      startCli(['pull', '--base-url', servers[1]!.url, '--out', 'gen'], { cwd: dir }),
      startCli(['pull', '--base-url', servers[2]!.url, '--out', 'gen2'], { cwd: dir }),
    ];
    const [gen, gen2] = await Promise.all(pulls.map((run) => run.done));
    expect(gen!.code, gen!.stderr).toBe(0);
    expect(gen2!.code, gen2!.stderr).toBe(0);
    const locked = await lockedHashes();
    const last = [hashesOf(listings[1]!), hashesOf(listings[2]!)].findIndex((hashes) => JSON.stringify(hashes) === JSON.stringify(locked));
    expect(last, 'the lockfile holds one of the two listings whole').toBeGreaterThanOrEqual(0);
    const [lastFolder, firstFolder] = last === 0 ? ['gen', 'gen2'] : ['gen2', 'gen'];
    const [lastRun, firstRun] = last === 0 ? [gen!, gen2!] : [gen2!, gen!];
    // The folder whose run wrote last is what the lockfile generates, and in step with its listing.
    const inSync = await runCli(['check', '--input', `listing${last + 1}.json`, '--out', lastFolder, '--quiet'], { cwd: dir });
    expect(inSync.code, inSync.stdout + inSync.stderr).toBe(0);
    // The run that wrote second read the lockfile the first one wrote (it waited for it): it says
    // so, and its report is the change from the first run's listing, not from listing 0.
    expect(lastRun.stderr).toContain(`schema-sync.lock.json is not the lockfile ${join(dir, lastFolder)} was last generated from`);
    expect(firstRun.stderr).not.toContain('is not the lockfile');
    // The other folder is behind the lockfile now, as the warning says: check reports it.
    const behind = await runCli(['check', '--input', `listing${last + 1}.json`, '--out', firstFolder, '--quiet'], { cwd: dir });
    expect(behind.code, behind.stdout).toBe(1);
    await nothingLeftBehind();
  }, 60_000);

  it('while another run holds the lockfile: a pull into the other folder waits for it (--lock-wait), or stops and changes nothing', async () => {
    await bothFromListing0();
    const before = { lockfile: await readFile(lockfile(), 'utf8'), gen2: await readTree(join(dir, 'gen2')) };
    const release = await acquireLockfileLock(lockfile());
    try {
      const refused = await runCli(['pull', '--base-url', servers[1]!.url, '--out', 'gen2', '--lock-wait', '200'], { cwd: dir });
      expect(refused.code).toBe(2);
      expect(refused.stderr).toContain(`another schema-sync run is writing the lockfile ${lockfile()} (process ${process.pid}@`);
      expect(await readFile(lockfile(), 'utf8')).toBe(before.lockfile);
      expect(await readTree(join(dir, 'gen2'))).toEqual(before.gen2);
      // One that may wait does, holding its folder's lock meanwhile, and runs once the lockfile is free.
      const waiting = startCli(['pull', '--base-url', servers[1]!.url, '--out', 'gen2', '--quiet'], { cwd: dir });
      while (!existsSync(join(dir, 'gen2', '.schema-sync-run.lock'))) await sleep(20);
      expect(await readFile(lockfile(), 'utf8')).toBe(before.lockfile);
      await release();
      const done = await waiting.done;
      expect(done.code, done.stderr).toBe(0);
    } finally {
      await release();
    }
    expect(await lockedHashes()).toEqual(hashesOf(listings[1]!));
    expect(existsSync(lockfileLockPath(lockfile()))).toBe(false);
    await nothingLeftBehind();
  }, 60_000);
});

describe('the lockfile lock after an interrupt', () => {
  /** Calls the SIGINT handler withRunLock installed (the last one added), as a Ctrl-C would. */
  const ctrlC = () => (process.listeners('SIGINT').at(-1) as (signal: NodeJS.Signals) => void)('SIGINT');

  it('is gone after a Ctrl-C, as the folder lock is, and a run killed holding it leaves one the next run takes over', async () => {
    await bothFromListing0();
    const run = withRunLock(
      join(dir, 'gen3'),
      async (_view, interrupt) => {
        expect(existsSync(lockfileLockPath(lockfile()))).toBe(true);
        ctrlC();
        interrupt.throwIfAborted();
      },
      { lockfilePath: lockfile() },
    );
    await expect(run).rejects.toMatchObject({ name: 'Interrupted', completed: false });
    expect(existsSync(lockfileLockPath(lockfile()))).toBe(false);
    expect(existsSync(join(dir, 'gen3'))).toBe(false);
    // A SIGKILL leaves the lock of a process that is gone: taken over at once.
    await writeFile(lockfileLockPath(lockfile()), `999999999@${hostname()}`);
    const generated = await runCli(['generate', '--out', 'gen3', '--quiet', '--lock-wait', '0'], { cwd: dir });
    expect(generated.code, generated.stderr).toBe(0);
    expect(existsSync(lockfileLockPath(lockfile()))).toBe(false);
  });
});
