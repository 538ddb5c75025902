/**
 * Hostile or broken surroundings (issue 18): a project folder or messages/ that cannot be written,
 * files planted in the output folder, a full disk. Each run either does its work or fails with a
 * WRITE error having changed nothing — never half of it, never outside the project.
 *
 * Permissions do not stop root, so the read-only cases run the built CLI as `nobody` when the
 * tests run as root; the full-disk cases mount a small tmpfs, which needs root. Where that cannot
 * be done the test says why and is skipped. The other cases run the CLI in this process (see
 * test/helpers/in-process.ts).
 */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { chmod, chown, mkdir, readdir, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server/index.js';
import { readTree, removeDir, runBin, tempDir, type CliRun } from '../helpers/cli.js';
import { runCli } from '../helpers/in-process.js';
import { syntheticElement, syntheticListing } from './helpers.js';
import { hashOf } from '../../src/util/hash.js';
import { txnFolderIdentity } from '../../src/write/txn-folder.js';

const isRoot = process.getuid?.() === 0;
const nobody = isRoot && spawnSync('runuser', ['-u', 'nobody', '--', process.execPath, '-e', '0']).status === 0;
if (!nobody) console.warn(`hostile-folders: read-only cases skipped: ${isRoot ? 'runuser -u nobody does not work here' : 'they need root to run the CLI as another user'}`);

/** Runs the CLI as `nobody` (no permission is bypassed). */
function runAsNobody(args: string[], cwd: string): Promise<CliRun> {
  return runBin(args, { cwd, env: { HOME: cwd, SCHEMA_SYNC_CACHE_DIR: 'off' }, asUser: 'nobody' });
}

let server: TestServer;
let dir: string;
const changed = () => syntheticListing(40).map((element, i) => (i % 10 === 0 ? syntheticElement(i, 1) : element));
beforeAll(async () => {
  server = await startTestServer({ listing: syntheticListing(40) });
});
afterAll(() => server.close());
beforeEach(async () => {
  server.setListing(syntheticListing(40));
  dir = await tempDir('schema-sync-hostile-');
});
afterEach(async () => {
  await chmod(dir, 0o755).catch(() => undefined);
  await chmod(join(dir, 'out/messages'), 0o755).catch(() => undefined);
  await removeDir(dir);
});

describe.runIf(nobody)('a folder that cannot be written (run as nobody)', () => {
  /** A project owned by nobody, pulled once (by root, then handed over: the set-up, not the case). */
  async function project(): Promise<void> {
    const first = await runCli(['pull', '--base-url', server.url, '--out', 'out'], { cwd: dir, env: { SCHEMA_SYNC_CACHE_DIR: 'off' } });
    expect(first.code, first.stderr).toBe(0);
    await chownTree(dir, 65534);
    server.setListing(changed());
  }

  for (const [what, folder] of [['the project folder (lockfile)', () => dir], ['messages/', () => join(dir, 'out/messages')]] as const) {
    it(`a pull that cannot write ${what} fails before its commit point and changes nothing`, async () => {
      await project();
      const before = await readTree(dir);
      await chmod(folder(), 0o555);
      const failed = await runAsNobody(['pull', '--base-url', server.url, '--out', 'out'], dir);
      expect(failed.code, failed.stderr).toBe(2);
      expect(failed.stderr).toMatch(/error \[WRITE\]: cannot write .*permission denied\. Nothing was changed\./);
      expect(failed.stderr).not.toMatch(/INTERNAL|this is a bug/);
      expect(await readTree(dir)).toEqual(before);
      // check still sees the drift (it is not in sync), and once writable, pull completes. (check
      // only reads, which the folder allows anyone: it runs in-process.)
      const check = () => runCli(['check', '--base-url', server.url, '--out', 'out'], { cwd: dir, env: { SCHEMA_SYNC_CACHE_DIR: 'off' } });
      expect((await check()).code).toBe(1);
      await chmod(folder(), 0o755);
      expect((await runAsNobody(['pull', '--base-url', server.url, '--out', 'out'], dir)).code).toBe(0);
      expect((await check()).code).toBe(0);
    });
  }
});

describe('files planted in the output folder', () => {
  const pull = (...extra: string[]) => runCli(['pull', '--base-url', server.url, '--out', 'out', ...extra], { cwd: dir, env: { SCHEMA_SYNC_CACHE_DIR: 'off' } });

  it('a planted journal that names a lockfile outside the project is never replayed', async () => {
    expect((await pull()).code).toBe(0);
    const outside = join(dir, 'outside.txt');
    await writeFile(outside, 'precious\n');
    await mkdir(join(dir, 'out/.schema-sync-txn/files'), { recursive: true });
    await writeFile(join(dir, 'out/.schema-sync-txn/lockfile'), 'overwritten\n');
    const base = { lockfile: hashOf(await readFile(join(dir, 'schema-sync.lock.json'))), manifest: hashOf(await readFile(join(dir, 'out/.schema-sync-manifest.json'))) };
    const journal = { version: 3, folder: txnFolderIdentity(join(dir, 'out/.schema-sync-txn')), base, writes: [], deletes: [], lockfile: outside, lockfileSha: hashOf('overwritten\n') };
    await writeFile(join(dir, 'out/.schema-sync-txn/journal.json'), JSON.stringify(journal));
    const run = await runCli(['generate', '--out', 'out'], { cwd: dir, env: { SCHEMA_SYNC_CACHE_DIR: 'off' } });
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/error \[WRITE\]: .*journal\.json names the lockfile .*outside\.txt, not this project's/);
    expect(await readFile(outside, 'utf8')).toBe('precious\n');
  });

  it('messages/ replaced by a symbolic link is never written through', async () => {
    expect((await pull()).code).toBe(0);
    const elsewhere = join(dir, 'elsewhere');
    await mkdir(elsewhere);
    await writeFile(join(elsewhere, 'keep.txt'), 'mine\n');
    await rm(join(dir, 'out/messages'), { recursive: true });
    await symlink(elsewhere, join(dir, 'out/messages'));
    server.setListing(changed());
    const run = await pull();
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/error \[WRITE\]: .*out\/messages is a symbolic link; schema-sync never writes or deletes through one\./);
    expect(await readdir(elsewhere)).toEqual(['keep.txt']);
    expect(existsSync(join(dir, 'out/.schema-sync-txn'))).toBe(false);
  });

  it('a generated file edited since is not deleted when its type goes away, and says so', async () => {
    expect((await pull()).code).toBe(0);
    const edited = join(dir, 'out/messages/Type00039.ts');
    await writeFile(edited, `${await readFile(edited, 'utf8')}// my notes\n`);
    server.setListing(syntheticListing(38));
    const run = await pull();
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).toMatch(/messages\/Type00039\.ts belonged to a message type that is gone, but was edited by hand: left in place/);
    expect(existsSync(edited)).toBe(true);
    expect(existsSync(join(dir, 'out/messages/Type00038.ts'))).toBe(false);
  });
});

/** Mounts a tmpfs of `size` at `at`; false where this process may not mount. */
function mountTmpfs(at: string, size: string): boolean {
  return isRoot && spawnSync('mount', ['-t', 'tmpfs', '-o', `size=${size}`, 'tmpfs', at]).status === 0;
}

describe('a full disk', () => {
  let mounted = false;
  beforeEach(async () => {
    await mkdir(join(dir, 'out'));
    mounted = mountTmpfs(join(dir, 'out'), '48k');
    if (!mounted) console.warn('hostile-folders: full-disk cases skipped: cannot mount a tmpfs here (needs root)');
  });
  afterEach(() => {
    if (mounted) spawnSync('umount', [join(dir, 'out')]);
  });

  it('a pull that runs out of space fails with a WRITE error and leaves nothing behind', async ({ skip }) => {
    if (!mounted) skip();
    const run = await runCli(['pull', '--base-url', server.url, '--out', 'out'], { cwd: dir, env: { SCHEMA_SYNC_CACHE_DIR: 'off' } });
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/error \[WRITE\]: the disk is full: .*Nothing was changed\./);
    expect(await readdir(join(dir, 'out'))).toEqual([]);
    expect(existsSync(join(dir, 'schema-sync.lock.json'))).toBe(false);
  });

  it('no space for the run lock: a WRITE error, and no empty lock left to wait for', async ({ skip }) => {
    if (!mounted) skip();
    await writeFile(join(dir, 'out/filler'), Buffer.alloc(48 * 1024)).catch(() => undefined);
    const run = await runCli(['generate', '--out', 'out'], { cwd: dir, env: { SCHEMA_SYNC_CACHE_DIR: 'off' } });
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/error \[WRITE\]: the disk is full/);
    expect((await readdir(join(dir, 'out'))).filter((name) => name.startsWith('.schema-sync'))).toEqual([]);
  });
});

describe('a failed generate', () => {
  it('leaves no output folder behind when it made one for nothing', async () => {
    const run = await runCli(['generate', '--out', 'out'], { cwd: dir, env: { SCHEMA_SYNC_CACHE_DIR: 'off' } });
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/error \[LOCK\]: no lockfile/);
    expect(existsSync(join(dir, 'out'))).toBe(false);
  });
});

describe('a pending interrupted run', () => {
  it('is never reported in sync by check: exit 2 until generate finishes it', async () => {
    const env = { SCHEMA_SYNC_CACHE_DIR: 'off' };
    expect((await runCli(['pull', '--base-url', server.url, '--out', 'out'], { cwd: dir, env })).code).toBe(0);
    // As a run killed right after its commit point leaves it: a journal and a prepared file.
    const txnDir = join(dir, 'out/.schema-sync-txn');
    await mkdir(join(txnDir, 'files/messages'), { recursive: true });
    const file = 'messages/Type00001.ts';
    const text = await readFile(join(dir, 'out', file), 'utf8');
    await writeFile(join(txnDir, 'files', file), text);
    const base = { lockfile: hashOf(await readFile(join(dir, 'schema-sync.lock.json'))), manifest: hashOf(await readFile(join(dir, 'out/.schema-sync-manifest.json'))) };
    await writeFile(join(txnDir, 'journal.json'), JSON.stringify({ version: 3, folder: txnFolderIdentity(txnDir), base, writes: [file], deletes: [] }));
    const checked = await runCli(['check', '--base-url', server.url, '--out', 'out'], { cwd: dir, env });
    expect(checked.code).toBe(2);
    expect(checked.stderr).toMatch(/error \[WRITE\]: an interrupted run is pending in .*\nhint: Run `schema-sync generate` to finish it, then check again\./);
    expect(existsSync(join(txnDir, 'journal.json')), 'check writes nothing').toBe(true);
    expect((await runCli(['generate', '--out', 'out'], { cwd: dir, env })).code).toBe(0);
    expect((await runCli(['check', '--base-url', server.url, '--out', 'out'], { cwd: dir, env })).code).toBe(0);
  });

  it('with a damaged journal: check, pull --dry-run and generate exit 2 saying so, and change nothing', async () => {
    const env = { SCHEMA_SYNC_CACHE_DIR: 'off' };
    expect((await runCli(['pull', '--base-url', server.url, '--out', 'out'], { cwd: dir, env })).code).toBe(0);
    const txnDir = join(dir, 'out/.schema-sync-txn');
    await mkdir(txnDir, { recursive: true });
    const before = await readTree(dir);
    for (const damaged of ['{"version": 1, "writes": [', 'null', JSON.stringify({ version: 1, writes: 'messages/A.ts', deletes: [] })]) {
      await writeFile(join(txnDir, 'journal.json'), damaged);
      for (const args of [['check', '--base-url', server.url], ['pull', '--dry-run', '--base-url', server.url], ['generate']]) {
        const run = await runCli([...args, '--out', 'out'], { cwd: dir, env });
        expect(run.code, `${args[0]} with ${damaged}: ${run.stderr}`).toBe(2);
        expect(run.stderr).toMatch(/error \[WRITE\]: .*journal\.json is damaged\.\nhint: Delete .*\.schema-sync-txn and run schema-sync generate/);
      }
      expect(await readTree(dir)).toEqual(new Map([...before, ['out/.schema-sync-txn/journal.json', damaged]]));
    }
  });
});

/** Gives `dir` and everything below it to the user `uid` (and its group of the same number). */
async function chownTree(dir: string, uid: number): Promise<void> {
  await chown(dir, uid, uid);
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) await chownTree(path, uid);
    else await chown(path, uid, uid);
  }
}

describe('a run lock that schema-sync did not make (issue 30, item 4)', () => {
  const lock = () => join(dir, 'out/.schema-sync-run.lock');
  const pullOnce = async () => {
    const first = await runCli(['pull', '--base-url', server.url, '--out', 'out'], { cwd: dir, env: { SCHEMA_SYNC_CACHE_DIR: 'off' } });
    expect(first.code, first.stderr).toBe(0);
  };

  it('a symbolic link as the run lock is a LOCK error at once, not a loop that outlives --lock-wait', async () => {
    await pullOnce();
    await symlink(join(dir, 'nowhere'), lock());
    // Before: the run read the dangling link as an empty, stale lock, could not remove it, and
    // tried again without pause until killed (runBin kills it after 20 s here).
    const run = await runBin(['generate', '--out', 'out', '--lock-wait', '60000'], { cwd: dir, env: { SCHEMA_SYNC_CACHE_DIR: 'off' }, timeoutMs: 20_000 });
    expect(run.code, run.stderr).toBe(2);
    expect(run.stderr).toContain(`error [LOCK]: the run lock ${lock()} is a symbolic link, which schema-sync never makes`);
    expect(run.stderr).toContain(`delete it: rm ${lock()}`);
  });

  it.runIf(nobody)('a run lock another user left (root, 0600) is a LOCK error for a run as nobody', async () => {
    await pullOnce();
    await chownTree(dir, 65534);
    await writeFile(lock(), '1@elsewhere', { mode: 0o600 });
    const run = await runAsNobody(['generate', '--out', 'out', '--lock-wait', '60000'], dir);
    expect(run.code, run.stderr).toBe(2);
    expect(run.stderr).toContain(`error [LOCK]: cannot read the run lock ${lock()} (EACCES): it belongs to another user, e.g. a run under sudo.`);
    expect(run.stderr).toContain(`sudo rm ${lock()}`);
  });
});

describe('a transaction folder schema-sync could not have made (issue 30, item 8)', () => {
  const env = { SCHEMA_SYNC_CACHE_DIR: 'off' };
  const txnDir = () => join(dir, 'out/.schema-sync-txn');
  const pullOnce = async () => {
    const first = await runCli(['pull', '--base-url', server.url, '--out', 'out'], { cwd: dir, env });
    expect(first.code, first.stderr).toBe(0);
  };
  const cases: Array<[string, () => Promise<unknown>, RegExp]> = [
    ['a file where the transaction folder should be', () => writeFile(txnDir(), 'not a folder\n'), /the transaction folder .*\.schema-sync-txn is a file where schema-sync keeps a folder\.\nhint: schema-sync did not make it: move it away or delete it \(rm -r .*\.schema-sync-txn\)/],
    ['a folder named journal.json', () => mkdir(join(txnDir(), 'journal.json'), { recursive: true }), /the journal .*journal\.json is a folder where schema-sync keeps a file\.\nhint: schema-sync did not make it/],
  ];
  for (const [what, plant, message] of cases) {
    it(`${what}: generate, check and pull say so (WRITE), never INTERNAL, and change nothing`, async () => {
      await pullOnce();
      await plant();
      const before = await readTree(dir);
      for (const args of [['generate'], ['check', '--base-url', server.url], ['pull', '--base-url', server.url]]) {
        const run = await runCli([...args, '--out', 'out'], { cwd: dir, env });
        expect(run.code, `${args[0]}: ${run.stderr}`).toBe(2);
        expect(run.stderr).toMatch(new RegExp(`error \\[WRITE\\]: ${message.source}`));
        expect(run.stderr).not.toMatch(/INTERNAL|this is a bug/);
      }
      expect(await readTree(dir)).toEqual(before);
    });
  }

  it.runIf(nobody)('a transaction folder root left (a run under sudo): a WRITE error for a run as nobody, never INTERNAL', async () => {
    await pullOnce();
    await chownTree(dir, 65534);
    await mkdir(join(txnDir(), 'files'), { recursive: true });
    const run = await runAsNobody(['generate', '--out', 'out'], dir);
    expect(run.code, run.stderr).toBe(2);
    expect(run.stderr).toContain(`error [WRITE]: the transaction folder ${txnDir()} belongs to another user (uid 0), e.g. a run under sudo; it was not read or replayed.`);
    expect(run.stderr).toContain(`sudo rm -r ${txnDir()}`);
    expect(run.stderr).not.toMatch(/INTERNAL|this is a bug/);
    expect(existsSync(join(txnDir(), 'files'))).toBe(true);
  });
});

describe('a --lockfile that names a file schema-sync writes in the output folder (issue 30, item 9)', () => {
  for (const lockfile of ['out/index.ts', 'out/messages/Type00001.ts', 'out/.schema-sync-manifest.json']) {
    it(`--lockfile ${lockfile} is refused, and nothing is written`, async () => {
      const run = await runCli(['pull', '--base-url', server.url, '--out', 'out', '--lockfile', lockfile], { cwd: dir, env: { SCHEMA_SYNC_CACHE_DIR: 'off' } });
      expect(run.code, run.stderr).toBe(2);
      expect(run.stderr).toMatch(/error \[CONFIG\]: the lockfile .* is .* in the output folder .*, a file schema-sync writes there: the two would overwrite each other\. Nothing was changed\.\nhint: Pass a --lockfile outside the output folder/);
      expect(existsSync(join(dir, lockfile))).toBe(false);
    });
  }

  it('a lockfile of its own name kept in the output folder (as the demo does) is fine', async () => {
    const run = await runCli(['pull', '--base-url', server.url, '--out', 'out', '--lockfile', 'out/schema-sync.lock.json'], { cwd: dir, env: { SCHEMA_SYNC_CACHE_DIR: 'off' } });
    expect(run.code, run.stderr).toBe(0);
    expect(existsSync(join(dir, 'out/schema-sync.lock.json'))).toBe(true);
  });
});

describe('a manifest that cannot be read (issue 30, item 9)', () => {
  const env = { SCHEMA_SYNC_CACHE_DIR: 'off' };
  const manifest = () => join(dir, 'out/.schema-sync-manifest.json');
  const removed = () => join(dir, 'out/messages/Type00039.ts');
  const pullOnce = async () => {
    const first = await runCli(['pull', '--base-url', server.url, '--out', 'out'], { cwd: dir, env });
    expect(first.code, first.stderr).toBe(0);
  };

  it('a folder where the manifest should be: check and pull are errors, not "no manifest"', async () => {
    await pullOnce();
    await rm(manifest());
    await mkdir(manifest());
    server.setListing(syntheticListing(39));
    for (const args of [['check'], ['pull']]) {
      const run = await runCli([...args, '--base-url', server.url, '--out', 'out'], { cwd: dir, env });
      expect(run.code, `${args[0]}: ${run.stderr}`).toBe(2);
      expect(run.stderr).toContain(`error [WRITE]: cannot read ${manifest()}: it is a folder.`);
    }
    expect(existsSync(removed())).toBe(true);
  });

  it.runIf(nobody)('a manifest root left unreadable (0600): check and pull as nobody are errors, and the removed type is not left unmanaged', async () => {
    await pullOnce();
    await chownTree(dir, 65534);
    await chown(manifest(), 0, 0);
    await chmod(manifest(), 0o600);
    server.setListing(syntheticListing(39));
    for (const args of [['check'], ['pull']]) {
      const run = await runAsNobody([...args, '--base-url', server.url, '--out', 'out'], dir);
      expect(run.code, `${args[0]}: ${run.stderr}`).toBe(2);
      expect(run.stderr).toContain(`error [WRITE]: cannot read ${manifest()}: permission denied.`);
      expect(run.stderr).not.toMatch(/INTERNAL|this is a bug/);
    }
    expect(existsSync(removed())).toBe(true);
  });
});

describe('a lockfile on another, full file system (issue 30, item 9)', () => {
  let mounted = false;
  const lockDir = () => join(dir, 'lock');
  beforeEach(async () => {
    await mkdir(lockDir());
    mounted = mountTmpfs(lockDir(), '64k');
    if (!mounted) console.warn('hostile-folders: cross-device lockfile case skipped: cannot mount a tmpfs here (needs root)');
  });
  afterEach(() => {
    if (mounted) spawnSync('umount', [lockDir()]);
  });

  it('a pull fails before its commit point, changing nothing, and the next pull once there is space completes', async ({ skip }) => {
    if (!mounted) skip();
    const env = { SCHEMA_SYNC_CACHE_DIR: 'off' };
    const pull = () => runCli(['pull', '--base-url', server.url, '--out', 'out', '--lockfile', 'lock/schema-sync.lock.json'], { cwd: dir, env });
    const first = await pull();
    expect(first.code, first.stderr).toBe(0);
    await writeFile(join(lockDir(), 'filler'), Buffer.alloc(64 * 1024)).catch(() => undefined);
    server.setListing(changed());
    const before = await readTree(dir);
    const run = await pull();
    expect(run.code, run.stderr).toBe(2);
    expect(run.stderr).toMatch(/error \[WRITE\]: the disk is full: .*Nothing was changed\./);
    expect(run.stderr).not.toMatch(/INTERNAL|this is a bug/);
    expect(await readTree(dir)).toEqual(before);
    await rm(join(lockDir(), 'filler'));
    // Where the lockfile is prepared, a planted link to a file outside is removed, never written through.
    await writeFile(join(dir, 'outside.txt'), 'precious\n');
    await symlink(join(dir, 'outside.txt'), join(lockDir(), '.schema-sync.lock.json.schema-sync-txn'));
    const after = await pull();
    expect(after.code, after.stderr).toBe(0);
    expect((await readdir(lockDir())).sort()).toEqual(['schema-sync.lock.json']);
    expect(await readFile(join(dir, 'outside.txt'), 'utf8')).toBe('precious\n');
  });
});
