/**
 * The readers of the output folder never follow a symbolic link inside it (issue 30): the folder
 * view (a linked file, a linked folder on the way), the stat cache (lstat, and no path through a
 * linked folder) and the change set (a link is recorded as `linked`, never read). Each link here
 * points at a file outside that holds exactly the bytes schema-sync wrote, so reading through it
 * would have been taken for "in sync".
 */
import { mkdir, mkdtemp, rename, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openStatCache } from '../../src/incremental/stat-cache.js';
import { hashOf } from '../../src/util/hash.js';
import { readFileNoFollow } from '../../src/util/read-no-follow.js';
import { changeSet, openFolderView } from '../../src/write/index.js';
import { SymbolicLinkFound } from '../../src/write/symbolic-link-found.js';

const TEXT = 'export const a = 1;\n';
let dir: string;
let out: string;
let outside: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'schema-sync-links-'));
  out = join(dir, 'out');
  outside = join(dir, 'outside');
  await mkdir(join(out, 'messages'), { recursive: true });
  await mkdir(outside);
});
afterEach(() => rm(dir, { recursive: true, force: true }));

/** Moves `path` (relative to the output folder) outside and leaves a link to it in its place. */
async function linkOut(path: string): Promise<void> {
  const there = join(outside, path.replaceAll('/', '-'));
  await rename(join(out, path), there);
  await symlink(there, join(out, path));
}

describe('reading the output folder', () => {
  it('readFileNoFollow reads a file and refuses a link to one (ELOOP), reading nothing', async () => {
    await writeFile(join(out, 'a.ts'), TEXT);
    expect(readFileNoFollow(join(out, 'a.ts')).toString()).toBe(TEXT);
    await linkOut('a.ts');
    expect(() => readFileNoFollow(join(out, 'a.ts'))).toThrow(expect.objectContaining({ code: 'ELOOP' }));
  });

  it.each([
    { name: 'a linked file', link: 'messages/a.ts' },
    { name: 'a linked folder on the way', link: 'messages' },
  ])('the folder view: $name is a SymbolicLinkFound naming the link, and no path on disk', async ({ link }) => {
    await writeFile(join(out, 'messages/a.ts'), TEXT);
    await linkOut(link);
    const view = await openFolderView(out);
    await expect(view.read('messages/a.ts')).rejects.toEqual(expect.objectContaining({ name: 'SymbolicLinkFound', links: [link] }));
    expect(view.pathOnDisk('messages/a.ts')).toBe(link === 'messages' ? undefined : `${out}/messages/a.ts`);
  });

  it('the stat cache vouches for no link, even one to the very bytes it verified', async () => {
    await writeFile(join(out, 'messages/a.ts'), TEXT);
    const cacheFile = join(dir, 'stat.tsv');
    const sha = hashOf(TEXT);
    const cache = openStatCache(cacheFile, () => Date.now() + 1000);
    expect(cache.holds('messages/a.ts', join(out, 'messages/a.ts'), sha)).toBe(true);
    cache.save('m1', new Map([['messages/a.ts', { sha }]]));
    await linkOut('messages/a.ts');
    const again = openStatCache(cacheFile, () => Date.now() + 1000);
    expect(again.unchangedSince('m1', (path) => join(out, path))).toBeUndefined();
    expect(again.holds('messages/a.ts', join(out, 'messages/a.ts'), sha)).toBe(false);
  });

  it('the change set records the links of planned and manifest files, never their bytes', async () => {
    for (const name of ['a', 'b', 'c']) await writeFile(join(out, `messages/${name}.ts`), TEXT);
    await linkOut('messages/a.ts');
    await linkOut('messages/c.ts');
    const changes = await changeSet({
      planned: [{ path: 'messages/a.ts', input: 'i' }, { path: 'messages/b.ts', input: 'i' }],
      // c.ts: a type that is gone; its file would be deleted when it held the bytes written.
      manifest: new Map(['a', 'b', 'c'].map((name) => [`messages/${name}.ts`, { input: 'old', sha: hashOf(TEXT) }])),
      view: await openFolderView(out),
      holds: async () => false,
      render: async (stale) => stale.map((file) => ({ path: file.path, text: TEXT })),
    });
    expect(changes.linked).toEqual(['messages/a.ts', 'messages/c.ts']);
    expect({ write: changes.write, delete: changes.delete, edited: changes.edited, unchanged: changes.unchanged }).toEqual({ write: [], delete: [], edited: [], unchanged: 1 });
    expect(new SymbolicLinkFound(changes.linked, out).message).toBe(
      `${join(out, 'messages/a.ts')}, ${join(out, 'messages/c.ts')} are symbolic links; schema-sync never writes or deletes through one. They were not read either, and nothing was changed.`,
    );
  });
});
