/**
 * Staging ahead: files written into the staging folder by a worker while the rest are printed.
 * It is only a head start, so the folder must end exactly as without it, and a failed run must
 * leave no staging behind (nor remove a committed journal).
 */
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { emitFiles } from '../../src/emit/index.js';
import { parseListing } from '../../src/fetch/parse-listing.js';
import { hashBytes } from '../../src/write/freshness.js';
import { commitTransaction, STAGING_DIR } from '../../src/write/journal.js';
import { MANIFEST_FILE } from '../../src/write/manifest.js';
import { StageAhead } from '../../src/write/stage-ahead.js';
import { readTree, runBin } from '../helpers/cli.js';
import { syntheticListing } from '../hardening/helpers.js';

let out: string;
beforeEach(async () => {
  out = await mkdtemp(join(tmpdir(), 'schema-sync-stage-'));
});
afterEach(() => rm(out, { recursive: true, force: true }));

describe('StageAhead', () => {
  it('hands commitTransaction what it staged; staged files the transaction does not write never land', async () => {
    const stage = new StageAhead(out);
    stage.add([
      { path: 'messages/A.ts', text: 'a\n' },
      { path: 'messages/Same.ts', text: 'same\n' },
    ]);
    stage.add([{ path: 'index.ts', text: 'old index\n' }]);
    const staged = await stage.finish();
    expect([...staged.keys()]).toEqual(['messages/A.ts', 'messages/Same.ts', 'index.ts']);
    // Hashed on the staging thread exactly as the manifest hashes.
    expect(staged.get('messages/A.ts')).toEqual({ text: 'a\n', sha: hashBytes('a\n') });
    // Same.ts turned out unchanged (not written); index.ts is written with other text; B.ts was never staged.
    await commitTransaction(
      out,
      {
        writes: [
          { path: 'index.ts', text: 'new index\n' },
          { path: 'messages/A.ts', text: 'a\n' },
          { path: 'messages/B.ts', text: 'b\n' },
        ],
        deletes: [],
      },
      staged,
    );
    expect(await readTree(out)).toEqual(
      new Map([
        ['index.ts', 'new index\n'],
        ['messages/A.ts', 'a\n'],
        ['messages/B.ts', 'b\n'],
      ]),
    );
  });

  it('a transaction with nothing to do removes what was staged', async () => {
    const stage = new StageAhead(out);
    stage.add([{ path: 'index.ts', text: 'x\n' }]);
    await commitTransaction(out, { writes: [], deletes: [] }, await stage.finish());
    expect(existsSync(join(out, STAGING_DIR))).toBe(false);
  });

  it('discard removes an uncommitted staging folder but never a committed journal', async () => {
    const first = new StageAhead(out);
    first.add([{ path: 'index.ts', text: 'x\n' }]);
    await first.discard();
    expect(existsSync(join(out, STAGING_DIR))).toBe(false);

    const second = new StageAhead(out);
    await writeFile(join(out, STAGING_DIR, 'journal.json'), JSON.stringify({ version: 1, writes: [], deletes: [] }));
    await second.discard();
    expect(existsSync(join(out, STAGING_DIR, 'journal.json'))).toBe(true);
  });

  it('a worker that cannot write counts as having staged nothing', async () => {
    const stage = new StageAhead(out);
    // A file where the worker needs a folder: its mkdir fails.
    await writeFile(join(out, STAGING_DIR, 'files', 'messages'), 'in the way');
    stage.add([{ path: 'messages/A.ts', text: 'a\n' }]);
    expect((await stage.finish()).size).toBe(0);
    await mkdir(join(out, 'unrelated'));
    await commitTransaction(out, { writes: [{ path: 'messages/A.ts', text: 'a\n' }], deletes: [] }, new Map());
    expect(await readFile(join(out, 'messages/A.ts'), 'utf8')).toBe('a\n');
  });
});

describe('a pull that stages ahead (2,100 types)', () => {
  it('writes exactly what emitFiles gives, leaves no staging, and a second pull writes nothing', { timeout: 60_000 }, async () => {
    const listing = syntheticListing(2100);
    await writeFile(join(out, 'big.json'), JSON.stringify(listing));
    const first = await runBin(['pull', '--input', 'big.json', '--out', 'gen', '--verbose'], { cwd: out, timeoutMs: 60_000 });
    expect(first.code, first.stderr).toBe(0);
    expect(first.stderr).toMatch(/2102 files written/);
    const tree = await readTree(join(out, 'gen'));
    tree.delete(MANIFEST_FILE);
    const expected = await emitFiles({ messages: parseListing(listing, { origin: 'test' }).descriptors, source: { query: {} } });
    expect(tree).toEqual(new Map(expected.map((f) => [f.path, f.text])));
    expect(existsSync(join(out, 'gen', STAGING_DIR))).toBe(false);
    const again = await runBin(['pull', '--input', 'big.json', '--out', 'gen', '--verbose'], { cwd: out, timeoutMs: 60_000 });
    expect(again.stderr).toMatch(/0 files written|nothing changed/);
  });
});
