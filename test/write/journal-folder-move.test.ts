import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { commitTransaction, recoverPending, STAGING_DIR } from '../../src/write/journal.js';

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

describe('a first run moves a new folder in whole', () => {
  it('places every file and leaves no staging', async () => {
    await commitTransaction(out, { writes, deletes: [] });
    for (const w of writes) expect(await readFile(join(out, w.path), 'utf8')).toBe(w.text);
    expect(existsSync(join(out, STAGING_DIR))).toBe(false);
  });

  it('a folder that exists already gets file by file, keeping the files it had', async () => {
    await mkdir(join(out, 'messages'));
    await writeFile(join(out, 'messages/Foreign.ts'), 'mine\n');
    await commitTransaction(out, { writes, deletes: [] });
    expect(await readFile(join(out, 'messages/Foreign.ts'), 'utf8')).toBe('mine\n');
    expect(await readFile(join(out, 'messages/B.ts'), 'utf8')).toBe('b\n');
  });

  it('replaying a journal interrupted after the folder moved finishes the rest', async () => {
    // As a run killed right after moving messages/ would leave it: committed journal, index.ts still staged.
    const staged = join(out, STAGING_DIR, 'files');
    await mkdir(join(staged, 'messages'), { recursive: true });
    for (const w of writes) await writeFile(join(staged, w.path), w.text);
    await writeFile(join(out, STAGING_DIR, 'journal.json'), JSON.stringify({ version: 1, writes: writes.map((w) => w.path), deletes: [] }));
    await rename(join(staged, 'messages'), join(out, 'messages'));
    expect(await recoverPending(out, join(out, 'schema-sync.lock.json'))).toBe('replayed');
    for (const w of writes) expect(await readFile(join(out, w.path), 'utf8')).toBe(w.text);
    expect(existsSync(join(out, STAGING_DIR))).toBe(false);
  });
});
