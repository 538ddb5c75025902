/**
 * The cache folder (issue 42, items 1 and 3): it holds code V8 runs (the CLI's code cache) and
 * facts that let a run skip work, so it is used only when no one else could have written it. A
 * folder another user made (the per-user folder in the OS temp folder, planted first), a link at
 * `node_modules/.cache/schema-sync` or at `.cache`, are not used: nothing is read from them,
 * nothing written or deleted there, and `--verbose` says why. Pruning deletes only files
 * schema-sync names, of this user's.
 */
import { spawnSync } from 'node:child_process';
import { chmodSync, chownSync, lstatSync, mkdirSync, readdirSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cacheDirRefusal, writeCacheFile } from '../../src/incremental/cache-dir.js';
import { pruneCodeCache, pruneRecords } from '../../src/incremental/prune-cache.js';
import { removeDir, runBin, tempDir } from '../helpers/cli.js';
import { syntheticListing } from './helpers.js';

const isRoot = process.getuid?.() === 0;
const nobody = isRoot && spawnSync('runuser', ['-u', 'nobody', '--', process.execPath, '-e', '0']).status === 0;
const NOBODY = 65534;

let dir: string;
beforeAll(async () => {
  dir = await tempDir('schema-sync-cache-folder-');
  chmodSync(dir, 0o755);
  writeFileSync(join(dir, 'listing.json'), JSON.stringify(syntheticListing(3)));
});
afterAll(() => removeDir(dir));

/** Every file under `folder`, with its owner. */
function filesIn(folder: string): string[] {
  return readdirSync(folder, { recursive: true, withFileTypes: true }).map((entry) => {
    const path = join(entry.parentPath, entry.name);
    return `${path.slice(folder.length + 1)} (uid ${lstatSync(path).uid})`;
  }).sort();
}

describe.runIf(nobody)('a cache folder in the temp folder that another user made first (two users)', () => {
  it('is not used by the victim: nothing read or written there, --verbose says why', () => {
    // The attacker (root here) makes the victim's (nobody's) per-user folder first, open to all,
    // with a code-cache folder and a record in it.
    const tmp = join(dir, 'tmp');
    mkdirSync(tmp, { mode: 0o1777 });
    chmodSync(tmp, 0o1777);
    const planted = join(tmp, `schema-sync-cache-${NOBODY}`);
    mkdirSync(join(planted, `v8-${process.version}-${process.arch}`), { recursive: true });
    chmodSync(planted, 0o777);
    chmodSync(join(planted, `v8-${process.version}-${process.arch}`), 0o777);
    writeFileSync(join(planted, 'notes'), 'planted');
    const before = filesIn(planted);
    // The victim works in a scratch folder outside any project (no node_modules above it).
    const project = join(dir, 'victim');
    mkdirSync(project);
    writeFileSync(join(project, 'listing.json'), JSON.stringify(syntheticListing(3)));
    chownSync(project, NOBODY, NOBODY);
    chownSync(join(project, 'listing.json'), NOBODY, NOBODY);
    return runBin(['pull', '--input', 'listing.json', '--out', 'out', '--verbose'], { cwd: project, env: { HOME: project, TMPDIR: tmp, SCHEMA_SYNC_CACHE_DIR: undefined }, asUser: 'nobody' }).then((run) => {
      expect(run.code, run.stderr).toBe(0);
      expect(run.stderr).toContain(`cache: not used (neither the code cache nor the run records): ${planted} belongs to another user (uid 0)`);
      expect(filesIn(planted)).toEqual(before);
    });
  });
});

describe('a link at the cache folder', () => {
  for (const [what, link] of [['node_modules/.cache/schema-sync', ['node_modules', '.cache', 'schema-sync']], ['node_modules/.cache', ['node_modules', '.cache']]] as const) {
    it(`${what} pointing elsewhere: a pull neither writes nor prunes there`, async () => {
      const project = await tempDir('schema-sync-cache-link-');
      const elsewhere = join(project, 'elsewhere');
      mkdirSync(elsewhere);
      // A file a pruning would take for a write left behind, two days old.
      const old = join(elsewhere, 'memo-0a.json.1.tmp');
      writeFileSync(old, 'keep me');
      utimesSync(old, 1_000_000, 1_000_000);
      writeFileSync(join(elsewhere, 'keep.tmp'), 'keep me');
      utimesSync(join(elsewhere, 'keep.tmp'), 1_000_000, 1_000_000);
      mkdirSync(join(project, ...link.slice(0, -1)), { recursive: true });
      symlinkSync(elsewhere, join(project, ...link));
      writeFileSync(join(project, 'listing.json'), JSON.stringify(syntheticListing(3)));
      try {
        const run = await runBin(['pull', '--input', 'listing.json', '--out', 'out', '--verbose'], { cwd: project, env: { SCHEMA_SYNC_CACHE_DIR: undefined } });
        expect(run.code, run.stderr).toBe(0);
        expect(run.stderr).toContain('is a symbolic link, which a cache folder is never used through');
        expect(readdirSync(elsewhere).sort()).toEqual(['keep.tmp', 'memo-0a.json.1.tmp']);
      } finally {
        await removeDir(project);
      }
    });
  }
});

describe('the cache folder rule', () => {
  it('takes a folder of ones own that no one else can write, and makes it private', () => {
    const own = join(dir, 'own');
    mkdirSync(own, { mode: 0o755 });
    chmodSync(own, 0o755);
    expect(cacheDirRefusal(own)).toBeUndefined();
    expect(lstatSync(own).mode & 0o777).toBe(0o700);
    expect(cacheDirRefusal(join(dir, 'not-yet'))).toBeUndefined();
    expect(writeCacheFile(join(dir, 'not-yet', 'memo-1.json'), '{}')).toBe(true);
    expect(lstatSync(join(dir, 'not-yet')).mode & 0o777).toBe(0o700);
    const open = join(dir, 'open');
    mkdirSync(open);
    chmodSync(open, 0o777);
    expect(cacheDirRefusal(open)).toBe(`others can write ${open} (mode 777)`);
    expect(writeCacheFile(join(open, 'memo-1.json'), '{}')).toBe(false);
    expect(readdirSync(open)).toEqual([]);
  });

  it.runIf(isRoot)('prunes only files schema-sync names and this user wrote', () => {
    const cache = join(dir, 'prune');
    mkdirSync(join(cache, `v8-${process.version}-${process.arch}`), { recursive: true });
    const put = (name: string, uid = 0) => {
      writeFileSync(join(cache, name), '');
      chownSync(join(cache, name), uid, uid);
      utimesSync(join(cache, name), 1_000_000, 1_000_000);
    };
    put('memo-0a.json.7.tmp');
    put('stat-0b.tsv.8.tmp', NOBODY);
    put('notes.tmp');
    put('stat-0c.tsv', NOBODY);
    const code = `v8-${process.version}-${process.arch}`;
    for (let i = 0; i < 9; i++) put(`${code}/${String(i).repeat(24)}`, i === 0 ? NOBODY : 0);
    put(`${code}/readme`);
    pruneRecords(cache, Date.UTC(2030, 0, 1));
    pruneCodeCache(cache, new Set(), Date.UTC(2030, 0, 1));
    expect(readdirSync(cache).sort()).toEqual(['notes.tmp', 'pruned-code', 'pruned-records', 'stat-0b.tsv.8.tmp', 'stat-0c.tsv', code]);
    // Of the eight of this user's entries, the newest six stay (all equally old here); the other user's and a name of no entry stay.
    const left = readdirSync(join(cache, code));
    expect(left).toContain('0'.repeat(24));
    expect(left).toContain('readme');
    expect(left).toHaveLength(8);
  });
});
