/**
 * The files a run writes are prepared in its transaction folder as the change set compares them
 * (staging.ts): the change set keeps no bytes, the transaction commits what was prepared, a run
 * with nothing to write makes no transaction folder, and one that stops early removes it.
 */
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { changeSet, openFolderView, openStaging } from '../../src/write/index.js';
import { commitTransaction, TXN_DIR } from '../../src/write/journal.js';

let out: string;
beforeEach(async () => {
  out = await mkdtemp(join(tmpdir(), 'schema-sync-staging-'));
});
afterEach(() => rm(out, { recursive: true, force: true }));

const planned = [
  { path: 'a.ts', input: 'a' },
  { path: 'messages/B.ts', input: 'b' },
  { path: 'same.ts', input: 's' },
];
const texts: Record<string, string> = { 'a.ts': 'export const a = 1; // —\n', 'messages/B.ts': 'export const b = 2;\n', 'same.ts': 'same\n' };

/** The change set of `planned` against a folder holding only `same.ts`, staged in `out`. */
async function stagedChanges() {
  await writeFile(join(out, 'same.ts'), texts['same.ts']!);
  const staging = openStaging(out);
  const changes = await changeSet({
    planned,
    manifest: new Map(),
    view: await openFolderView(out),
    holds: async () => false,
    render: async (stale) => stale.map((file) => ({ path: file.path, text: texts[file.path]! })),
    stage: staging.write,
  });
  return { staging, changes };
}

describe('staging', () => {
  it('prepares each file to write in the transaction folder; the change set keeps only paths', async () => {
    const { staging, changes } = await stagedChanges();
    expect(changes.write).toEqual([
      { path: 'a.ts', found: false },
      { path: 'messages/B.ts', found: false },
    ]);
    expect(staging.paths).toEqual(['a.ts', 'messages/B.ts']);
    expect(await readFile(join(out, TXN_DIR, 'files', 'a.ts'), 'utf8')).toBe(texts['a.ts']);
    expect(existsSync(join(out, TXN_DIR, 'files', 'same.ts'))).toBe(false);
    await commitTransaction(out, { writes: [], staged: staging.paths, deletes: [], lockfilePath: join(out, 'schema-sync.lock.json') });
    expect(await readFile(join(out, 'messages/B.ts'), 'utf8')).toBe(texts['messages/B.ts']);
    expect(existsSync(join(out, TXN_DIR))).toBe(false);
  });

  it('removes what it prepared when the run stops before its commit point', async () => {
    const { staging } = await stagedChanges();
    await staging.discard();
    expect(existsSync(join(out, TXN_DIR))).toBe(false);
    expect(existsSync(join(out, 'a.ts'))).toBe(false);
  });

  it('with nothing to write, never makes or removes a transaction folder', async () => {
    await mkdir(join(out, TXN_DIR));
    const staging = openStaging(out);
    await staging.discard();
    expect(staging.paths).toEqual([]);
    expect(existsSync(join(out, TXN_DIR))).toBe(true);
  });
});
