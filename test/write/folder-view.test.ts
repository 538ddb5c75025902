/**
 * A folder known to hold none of the output (it does not exist yet, or holds only a run's lock)
 * is not read file by file: a cold pull needs no read to know that no file is there.
 */
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openFolderView, RUN_LOCK_FILE, TXN_DIR } from '../../src/write/index.js';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'folder-view-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('openFolderView', () => {
  const rows: { name: string; files: string[]; empty: boolean }[] = [
    { name: 'a folder that does not exist', files: [], empty: true },
    { name: 'a folder with only the run lock', files: [RUN_LOCK_FILE], empty: true },
    { name: 'a folder with the run lock and a transaction folder being prepared', files: [RUN_LOCK_FILE, `${TXN_DIR}/files/x.ts`], empty: true },
    { name: 'a folder with a file of its own', files: [RUN_LOCK_FILE, 'notes.txt'], empty: false },
  ];
  it.each(rows)('$name: empty is $empty', async ({ name, files, empty }) => {
    const outDir = join(dir, name.replaceAll(' ', '-'));
    for (const file of files) {
      await mkdir(join(outDir, file, '..'), { recursive: true });
      await writeFile(join(outDir, file), 'x');
    }
    const view = await openFolderView(outDir);
    expect(view.empty).toBe(empty);
    expect(await view.read('notes.txt')).toEqual(empty ? undefined : Buffer.from('x'));
  });
});
