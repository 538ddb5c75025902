import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { commitTransaction, readJournal, recoverPending, TXN_DIR } from '../../src/write/journal.js';
import { openFolderView } from '../../src/write/folder-view.js';

let out: string;
beforeEach(async () => {
  out = await mkdtemp(join(tmpdir(), 'schema-sync-journal-'));
});
afterEach(() => rm(out, { recursive: true, force: true }));

const writes = [
  { path: 'index.ts', text: 'index\n' },
  { path: 'messages/A.ts', text: 'a\n' },
  { path: 'messages/B.ts', text: 'b\n' },
];

describe('a transaction moves its prepared files in', () => {
  it('places every file and leaves no transaction folder', async () => {
    await commitTransaction(out, { writes, deletes: [] });
    for (const w of writes) expect(await readFile(join(out, w.path), 'utf8')).toBe(w.text);
    expect(existsSync(join(out, TXN_DIR))).toBe(false);
  });

  it('a folder that exists already gets file by file, keeping the files it had', async () => {
    await mkdir(join(out, 'messages'));
    await writeFile(join(out, 'messages/Foreign.ts'), 'mine\n');
    await commitTransaction(out, { writes, deletes: [] });
    expect(await readFile(join(out, 'messages/Foreign.ts'), 'utf8')).toBe('mine\n');
    expect(await readFile(join(out, 'messages/B.ts'), 'utf8')).toBe('b\n');
  });

  it('replaying a journal interrupted part way finishes the rest', async () => {
    // As a run killed after moving some of its files would leave it: committed journal, the rest still prepared.
    const prepared = join(out, TXN_DIR, 'files');
    await mkdir(join(prepared, 'messages'), { recursive: true });
    for (const w of writes) await writeFile(join(prepared, w.path), w.text);
    await writeFile(join(out, TXN_DIR, 'journal.json'), JSON.stringify({ version: 1, writes: writes.map((w) => w.path), deletes: [] }));
    await mkdir(join(out, 'messages'));
    await rename(join(prepared, 'messages/A.ts'), join(out, 'messages/A.ts'));
    expect(await recoverPending(out, join(out, 'schema-sync.lock.json'))).toBe('replayed');
    for (const w of writes) expect(await readFile(join(out, w.path), 'utf8')).toBe(w.text);
    expect(existsSync(join(out, TXN_DIR))).toBe(false);
  });

  it('replays a journal that schema-sync 0.1 left under its old folder name', async () => {
    const legacy = join(out, '.schema-sync-staging');
    await mkdir(join(legacy, 'files/messages'), { recursive: true });
    for (const w of writes) await writeFile(join(legacy, 'files', w.path), w.text);
    await writeFile(join(legacy, 'journal.json'), JSON.stringify({ version: 1, writes: writes.map((w) => w.path), deletes: [] }));
    // Read-only views (check, --dry-run) see it as pending, with its prepared files.
    expect((await readJournal(out))?.writes).toEqual(writes.map((w) => w.path));
    const view = await openFolderView(out);
    expect(view.pending).toBe(true);
    expect((await view.read(writes[0]!.path))?.toString('utf8')).toBe(writes[0]!.text);
    expect(await recoverPending(out, join(out, 'schema-sync.lock.json'))).toBe('replayed');
    for (const w of writes) expect(await readFile(join(out, w.path), 'utf8')).toBe(w.text);
    expect(existsSync(legacy)).toBe(false);
    expect(existsSync(join(out, TXN_DIR))).toBe(false);
  });
});
