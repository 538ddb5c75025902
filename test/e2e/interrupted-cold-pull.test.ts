/**
 * Ctrl-C during a cold pull (no output folder, no lockfile yet) leaves nothing behind: not the
 * output folder the run made, nor its parent the run made, nor its transaction folder or run
 * lock; and it says so. The Ctrl-C comes right after the run has created its lock in the folder
 * it made (test/hardening/kill-at.mjs), so it always lands mid-run, before the commit point.
 *
 * A cold pull moves its `messages/` folder in by one rename, not file by file; killed (SIGKILL)
 * at fixed points around that rename and after operations drawn at random (seeded), it leaves,
 * as the next command sees it, no output or the whole new one.
 */
import { readFileSync, readdirSync, rmSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { readTree, removeDir, tempDir } from '../helpers/cli.js';
import { seededRandom, testSeed } from '../helpers/random.js';
import { startCli, syntheticListing, visibleState, type FolderState } from '../hardening/helpers.js';

const KILL_AT = fileURLToPath(new URL('../hardening/kill-at.mjs', import.meta.url));

let dir: string;
beforeAll(async () => {
  dir = await tempDir('schema-sync-cold-');
  await writeFile(join(dir, 'listing.json'), JSON.stringify(syntheticListing(200)));
});
afterAll(() => removeDir(dir));

it('Ctrl-C during a cold pull removes the output folder it made, its transaction folder and its run lock', async () => {
  const atLock = [{ op: 'open', path: '^out/generated/\\.schema-sync-run\\.lock$', n: 1 }];
  const run = startCli(['pull', '--input', 'listing.json', '--out', 'out/generated'], {
    cwd: dir,
    nodeArgs: ['--import', KILL_AT],
    env: { SCHEMA_SYNC_CACHE_DIR: 'off', KILL_AT_ROOT: dir, KILL_AT: JSON.stringify(atLock), KILL_AT_SIGNAL: 'SIGINT' },
  });
  const result = await run.done;
  expect(result.code, result.stderr).toBe(130);
  expect(result.stderr).toBe('schema-sync: interrupted (SIGINT) before any change: nothing was written.\n');
  expect(readdirSync(dir)).toEqual(['listing.json']);
}, 60_000);

it('a cold pull moves messages/ in by one rename; SIGKILL at any point leaves, as the next command sees it, no output or the whole new one', async () => {
  const out = join(dir, 'out/generated');
  const lockfile = join(dir, 'schema-sync.lock.json');
  const clean = () => {
    rmSync(join(dir, 'out'), { recursive: true, force: true });
    rmSync(lockfile, { force: true });
  };
  const args = ['pull', '--input', 'listing.json', '--out', 'out/generated', '--lockfile', 'schema-sync.lock.json'];
  const env = { SCHEMA_SYNC_CACHE_DIR: 'off', KILL_AT_ROOT: dir };
  // The whole run, its file operations logged: the new state, and the operations a kill may follow.
  // Outside KILL_AT_ROOT: the log's own writes are not operations to log.
  const log = `${dir}.operations.log`;
  const whole = await startCli(args, { cwd: dir, nodeArgs: ['--import', KILL_AT], env: { ...env, KILL_AT_LOG: log, KILL_AT: '[]', KILL_AT_SIGNAL: 'none' } }).done;
  expect(whole.code, whole.stderr).toBe(0);
  const operations = readFileSync(log, 'utf8').split('\n').filter((line) => /\tout\//.test(line) && !line.startsWith('readFile') && !line.startsWith('readdir'));
  rmSync(log);
  const renamesIntoMessages = operations.filter((line) => line.startsWith('renameSync') && / -> out\/generated\/messages/.test(line));
  expect(renamesIntoMessages).toEqual(['renameSync\tout/generated/.schema-sync-txn/files/messages -> out/generated/messages']);
  const after: FolderState = { name: 'after', tree: await readTree(out), lockfile: await readFile(lockfile, 'utf8') };
  expect([...after.tree.keys()].filter((path) => path.startsWith('messages/'))).toHaveLength(200);
  const none: FolderState = { name: 'none', tree: new Map(), lockfile: undefined as unknown as string };

  const random = seededRandom(testSeed());
  const fixed = [
    { op: 'renameSync', path: 'journal\\.json\\.tmp -> ', n: 1 },
    { op: 'renameSync', path: '/files/messages -> ', n: 1 },
    { op: 'renameSync', path: 'lockfile -> ', n: 1 },
  ];
  const drawn = Array.from({ length: 3 }, () => ({ op: '*', path: '^out/', n: 1 + Math.floor(random() * operations.length) }));
  const seen: string[] = [];
  for (const step of [...fixed, ...drawn]) {
    clean();
    const killed = await startCli(args, { cwd: dir, nodeArgs: ['--import', KILL_AT], env: { ...env, KILL_AT: JSON.stringify([step]), KILL_AT_SIGNAL: 'SIGKILL' } }).done;
    expect(killed.signal, `${JSON.stringify(step)}: ${killed.stderr}`).toBe('SIGKILL');
    seen.push((await visibleState(out, lockfile, [none, after])).name);
  }
  // The kills around the rename land after the commit point: the next command sees the whole new output.
  expect(seen.slice(0, fixed.length)).toEqual(['after', 'after', 'after']);
  clean();
}, 120_000);
