import { existsSync, readFileSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rename, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { commitTransaction, readJournal, recoverPending, TXN_DIR } from '../../src/write/journal.js';
import { openFolderView } from '../../src/write/folder-view.js';
import { MANIFEST_FILE, serializeManifest } from '../../src/write/manifest.js';
import { txnFolderIdentity } from '../../src/write/txn-folder.js';
import { hashOf } from '../../src/util/hash.js';
import { messageText } from '../../src/model/message.js';

let out: string;
let lockfilePath: string;
beforeEach(async () => {
  out = await mkdtemp(join(tmpdir(), 'schema-sync-journal-'));
  lockfilePath = join(out, 'schema-sync.lock.json');
});
afterEach(() => rm(out, { recursive: true, force: true }));

/** The hash of a file's bytes now, or null when there is none (as a journal records its base). */
function hashNow(path: string): string | null {
  return existsSync(path) ? hashOf(readFileSync(path)) : null;
}

/** A journal as a run would commit it over the folder and lockfile as they are now, in the transaction folder made already. */
function journalNow(fields: { writes: string[]; deletes?: string[]; lockfile?: string; lockfileSha?: string; manifest?: string }): string {
  return JSON.stringify({ version: 3, folder: existsSync(join(out, TXN_DIR)) ? txnFolderIdentity(join(out, TXN_DIR)) : '0:0', base: { lockfile: hashNow(lockfilePath), manifest: hashNow(join(out, MANIFEST_FILE)) }, deletes: [], ...fields });
}

const writes = [
  { path: 'index.ts', text: 'index\n' },
  { path: 'messages/A.ts', text: 'a\n' },
  { path: 'messages/B.ts', text: 'b\n' },
];

describe('a transaction moves its prepared files in', () => {
  it('places every file and leaves no transaction folder', async () => {
    await commitTransaction(out, { writes, deletes: [], lockfilePath: join(out, 'schema-sync.lock.json') });
    for (const w of writes) expect(await readFile(join(out, w.path), 'utf8')).toBe(w.text);
    expect(existsSync(join(out, TXN_DIR))).toBe(false);
  });

  it('a folder that exists already gets file by file, keeping the files it had', async () => {
    await mkdir(join(out, 'messages'));
    await writeFile(join(out, 'messages/Foreign.ts'), 'mine\n');
    await commitTransaction(out, { writes, deletes: [], lockfilePath: join(out, 'schema-sync.lock.json') });
    expect(await readFile(join(out, 'messages/Foreign.ts'), 'utf8')).toBe('mine\n');
    expect(await readFile(join(out, 'messages/B.ts'), 'utf8')).toBe('b\n');
  });

  it('replaying a journal interrupted part way finishes the rest', async () => {
    // As a run killed after moving some of its files would leave it: committed journal, the rest still prepared.
    const prepared = join(out, TXN_DIR, 'files');
    await mkdir(join(prepared, 'messages'), { recursive: true });
    for (const w of writes) await writeFile(join(prepared, w.path), w.text);
    await writeFile(join(out, TXN_DIR, 'journal.json'), journalNow({ writes: writes.map((w) => w.path) }));
    await mkdir(join(out, 'messages'));
    await rename(join(prepared, 'messages/A.ts'), join(out, 'messages/A.ts'));
    expect(await recoverPending(out, lockfilePath)).toBe('replayed');
    for (const w of writes) expect(await readFile(join(out, w.path), 'utf8')).toBe(w.text);
    expect(existsSync(join(out, TXN_DIR))).toBe(false);
  });

  // Issue 30: a journal that records no state it was made from cannot be told to belong here.
  it('discards, with a warning, a journal that schema-sync 0.1 left under its old folder name', async () => {
    const legacy = join(out, '.schema-sync-staging');
    await mkdir(join(legacy, 'files/messages'), { recursive: true });
    for (const w of writes) await writeFile(join(legacy, 'files', w.path), w.text);
    await writeFile(join(legacy, 'journal.json'), JSON.stringify({ version: 1, writes: writes.map((w) => w.path), deletes: [] }));
    const warnings: string[] = [];
    expect(await recoverPending(out, lockfilePath, (text) => warnings.push(messageText(text)))).toBe('none');
    expect(warnings.join('\n')).toMatch(/schema-sync-staging, left by an interrupted run of schema-sync 0\.1, was discarded, not replayed/);
    for (const w of writes) expect(existsSync(join(out, w.path))).toBe(false);
    expect(existsSync(legacy)).toBe(false);
    expect(existsSync(join(out, TXN_DIR))).toBe(false);
  });
});

/**
 * Issue 30: a transaction folder a repository carries (a `git add -A` after a killed run, or a
 * hostile pull request) never makes recovery read, move or delete anything but what schema-sync
 * generated, nor replay work made from another state of the folder and lockfile. Each case is
 * tried with a journal of the old format and one of the current format made over the folder as
 * it is (what an attacker who can read the repository can write).
 */
describe('a planted or stale transaction folder', () => {
  const planted = (version: 1 | 3, fields: { writes: string[]; deletes?: string[]; lockfile?: string; lockfileSha?: string }) =>
    version === 1 ? JSON.stringify({ version: 1, deletes: [], ...fields }) : journalNow(fields);
  const txn = () => join(out, TXN_DIR);
  const recover = async () => {
    const warnings: string[] = [];
    const outcome = await recoverPending(out, lockfilePath, (text) => warnings.push(messageText(text)));
    return { outcome, warnings: warnings.join('\n') };
  };

  for (const version of [1, 3] as const) {
    it(`v${version}: prepared files behind a symbolic link are never moved in (item 1)`, async () => {
      const home = await mkdtemp(join(tmpdir(), 'schema-sync-home-'));
      try {
        await writeFile(join(home, 'id_ed25519'), 'secret key\n');
        await mkdir(join(home, 'messages'));
        await writeFile(join(home, 'messages/id_rsa'), 'other key\n');
        for (const [link, writes] of [['files', ['id_ed25519']], ['files/messages', ['messages/id_rsa']]] as const) {
          await rm(txn(), { recursive: true, force: true });
          await mkdir(join(txn(), 'files'), { recursive: true });
          if (link === 'files') await rm(join(txn(), 'files'), { recursive: true });
          await symlink(link === 'files' ? home : join(home, 'messages'), join(txn(), link));
          await writeFile(join(txn(), 'journal.json'), planted(version, { writes: [...writes] }));
          await expect(recoverPending(out, lockfilePath)).rejects.toThrow(/is a symbolic link, which schema-sync never makes; it was not read or replayed/);
          expect(readFileSync(join(home, 'id_ed25519'), 'utf8')).toBe('secret key\n');
          expect(readFileSync(join(home, 'messages/id_rsa'), 'utf8')).toBe('other key\n');
          expect(existsSync(join(out, writes[0]!))).toBe(false);
        }
      } finally {
        await rm(home, { recursive: true, force: true });
      }
    });

    it(`v${version}: a transaction folder that is a symbolic link is never read (item 1)`, async () => {
      const elsewhere = await mkdtemp(join(tmpdir(), 'schema-sync-elsewhere-'));
      try {
        await mkdir(join(elsewhere, 'files'));
        await writeFile(join(elsewhere, 'files/stolen.txt'), 'theirs\n');
        await writeFile(join(elsewhere, 'journal.json'), planted(version, { writes: ['stolen.txt'] }));
        await symlink(elsewhere, txn());
        await expect(recoverPending(out, lockfilePath)).rejects.toThrow(/transaction folder .* is a symbolic link/);
        expect(readFileSync(join(elsewhere, 'files/stolen.txt'), 'utf8')).toBe('theirs\n');
        expect(existsSync(join(out, 'stolen.txt'))).toBe(false);
      } finally {
        await rm(elsewhere, { recursive: true, force: true });
      }
    });

    it(`v${version}: a journal deletes only generated files with the bytes schema-sync wrote (items 2, 9)`, async () => {
      await mkdir(join(out, 'messages'));
      const files = { 'messages/A.ts': 'a\n', 'messages/B.ts': 'b\n' };
      for (const [path, text] of Object.entries(files)) await writeFile(join(out, path), text);
      await writeFile(join(out, MANIFEST_FILE), serializeManifest(new Map(Object.entries(files).map(([path, text]) => [path, { input: 'x', sha: hashOf(text) }]))));
      await writeFile(join(out, 'NOTES.md'), 'mine\n');
      await writeFile(join(out, 'messages/helper.ts'), 'mine too\n');
      // B.ts was edited by hand since schema-sync wrote it.
      await writeFile(join(out, 'messages/B.ts'), 'b\n// edited\n');
      await mkdir(join(txn(), 'files'), { recursive: true });
      await writeFile(join(txn(), 'journal.json'), planted(version, { writes: [], deletes: ['NOTES.md', 'messages/helper.ts', 'messages/B.ts', 'messages/A.ts'] }));
      const { warnings } = await recover();
      expect(readFileSync(join(out, 'NOTES.md'), 'utf8')).toBe('mine\n');
      expect(readFileSync(join(out, 'messages/helper.ts'), 'utf8')).toBe('mine too\n');
      expect(readFileSync(join(out, 'messages/B.ts'), 'utf8')).toBe('b\n// edited\n');
      if (version === 3) {
        expect(existsSync(join(out, 'messages/A.ts')), 'a generated file as written is deleted').toBe(false);
        expect(warnings).toMatch(/messages\/B\.ts belonged to a message type that is gone, but was edited by hand: left in place/);
      }
      expect(existsSync(txn())).toBe(false);
    });

    it(`v${version}: a garbage prepared lockfile never replaces the lockfile (item 2)`, async () => {
      await writeFile(lockfilePath, '{"real": true}\n');
      await mkdir(join(txn(), 'files'), { recursive: true });
      await writeFile(join(txn(), 'lockfile'), 'garbage');
      await writeFile(join(txn(), 'journal.json'), planted(version, { writes: [], lockfile: lockfilePath, lockfileSha: hashOf('garbage') }));
      await recover().catch((error: unknown) => expect(String(error)).toMatch(/lockfile is not the lockfile .*journal\.json names; schema-sync will not replay it/));
      expect(readFileSync(lockfilePath, 'utf8')).toBe('{"real": true}\n');
    });

    it(`v${version}: a journal made before a checkout is discarded, never replayed over the new state (item 3)`, async () => {
      // A pull on `feat` killed right after its commit point.
      await writeFile(lockfilePath, '{"source": "main-before-feat"}\n');
      await mkdir(join(txn(), 'files/messages'), { recursive: true });
      await writeFile(join(txn(), 'files/messages/Feat.ts'), 'feat\n');
      await writeFile(join(txn(), 'lockfile'), '{"source": "feat"}\n');
      await writeFile(join(txn(), 'journal.json'), planted(version, { writes: ['messages/Feat.ts'], lockfile: lockfilePath, lockfileSha: hashOf('{"source": "feat"}\n') }));
      // git checkout main: the lockfile (tracked) changes, the transaction folder (untracked) stays.
      await writeFile(lockfilePath, '{"source": "main"}\n');
      const { outcome, warnings } = await recover();
      expect(outcome).toBe('discarded');
      expect(warnings).toMatch(/discarded, not replayed/);
      expect(readFileSync(lockfilePath, 'utf8')).toBe('{"source": "main"}\n');
      expect(existsSync(join(out, 'messages/Feat.ts'))).toBe(false);
      expect(existsSync(txn())).toBe(false);
    });
  }

  it('a journal made over this very state is replayed, lockfile and all', async () => {
    await writeFile(lockfilePath, '{"source": "old"}\n');
    await mkdir(join(txn(), 'files'), { recursive: true });
    await writeFile(join(txn(), 'files/index.ts'), 'index\n');
    await writeFile(join(txn(), 'lockfile'), '{"source": "new"}\n');
    await writeFile(join(txn(), 'journal.json'), journalNow({ writes: ['index.ts'], lockfile: lockfilePath, lockfileSha: hashOf('{"source": "new"}\n') }));
    expect((await recover()).outcome).toBe('replayed');
    expect(readFileSync(lockfilePath, 'utf8')).toBe('{"source": "new"}\n');
    expect(readFileSync(join(out, 'index.ts'), 'utf8')).toBe('index\n');
  });
});

describe('a file of a removed type edited while the run prepares (issue 30, item 9)', () => {
  it('is kept and reported, not deleted', async () => {
    await mkdir(join(out, 'messages'));
    await writeFile(join(out, 'messages/Gone.ts'), 'gone\n');
    await writeFile(join(out, MANIFEST_FILE), serializeManifest(new Map([['messages/Gone.ts', { input: 'x', sha: hashOf('gone\n') }]])));
    // The run planned the delete from the bytes it read; the user saves an edit meanwhile.
    await writeFile(join(out, 'messages/Gone.ts'), 'gone\n// my notes\n');
    const { kept } = await commitTransaction(out, { writes: [{ path: MANIFEST_FILE, text: serializeManifest(new Map()) }], deletes: ['messages/Gone.ts'], lockfilePath });
    expect(kept).toEqual(['messages/Gone.ts']);
    expect(readFileSync(join(out, 'messages/Gone.ts'), 'utf8')).toBe('gone\n// my notes\n');
  });
});

describe('a pending journal over a manifest that cannot be read', () => {
  it('is a WriteError naming the file, not a bug', async () => {
    await mkdir(join(out, MANIFEST_FILE));
    await mkdir(join(out, TXN_DIR, 'files'), { recursive: true });
    await writeFile(join(out, TXN_DIR, 'journal.json'), JSON.stringify({ version: 3, folder: txnFolderIdentity(join(out, TXN_DIR)), base: { lockfile: null, manifest: null }, writes: [], deletes: [] }));
    await expect(recoverPending(out, lockfilePath)).rejects.toMatchObject({ code: 'WRITE', message: expect.stringMatching(/^cannot read .*\.schema-sync-manifest\.json: EISDIR/) });
  });
});

describe('stale output no manifest names', () => {
  it('is deleted while it holds the bytes it was judged stale by, by a run and by a replay; a file edited since stays', async () => {
    await mkdir(join(out, 'messages'));
    await writeFile(join(out, 'messages/Old.ts'), 'old\n');
    await writeFile(join(out, 'messages/Edited.ts'), 'edited since\n');
    await commitTransaction(out, { writes, deletes: [], stale: [{ path: 'messages/Old.ts', sha: hashOf('old\n') }, { path: 'messages/Edited.ts', sha: hashOf('judged\n') }], lockfilePath });
    expect(existsSync(join(out, 'messages/Old.ts'))).toBe(false);
    expect(await readFile(join(out, 'messages/Edited.ts'), 'utf8')).toBe('edited since\n');

    await writeFile(join(out, 'messages/Again.ts'), 'again\n');
    await mkdir(join(out, TXN_DIR, 'files'), { recursive: true });
    await writeFile(join(out, TXN_DIR, 'journal.json'), JSON.stringify({ ...JSON.parse(journalNow({ writes: [] })), stale: [{ path: 'messages/Again.ts', sha: hashOf('again\n') }] }));
    expect(await recoverPending(out, lockfilePath)).toBe('replayed');
    expect(existsSync(join(out, 'messages/Again.ts'))).toBe(false);
  });

  it('a journal naming a stale path outside the folder is damaged', async () => {
    await mkdir(join(out, TXN_DIR, 'files'), { recursive: true });
    await writeFile(join(out, TXN_DIR, 'journal.json'), JSON.stringify({ ...JSON.parse(journalNow({ writes: [] })), stale: [{ path: '../x', sha: 'a' }] }));
    await expect(recoverPending(out, lockfilePath)).rejects.toThrow(/is damaged/);
  });
});
