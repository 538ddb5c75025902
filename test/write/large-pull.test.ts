/**
 * A transaction with nothing to do leaves no transaction folder; a pull of over a thousand types
 * (the messages/ folder moved in whole; twice as many files as the write stage handles between
 * two yields to the event loop) writes exactly what the emit stage gives, and a second pull
 * writes nothing.
 */
import { existsSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { emitFiles } from '../../src/emit/index.js';
import { parseListing } from '../../src/fetch/parse-listing.js';
import { commitTransaction, TXN_DIR } from '../../src/write/journal.js';
import { MANIFEST_FILE } from '../../src/write/manifest.js';
import { readTree } from '../helpers/cli.js';
import { runCli } from '../helpers/in-process.js';
import { syntheticListing } from '../hardening/helpers.js';

let out: string;
beforeEach(async () => {
  out = await mkdtemp(join(tmpdir(), 'schema-sync-large-'));
});
afterEach(() => rm(out, { recursive: true, force: true }));

describe('commitTransaction', () => {
  it('with nothing to do, creates no transaction folder', async () => {
    await commitTransaction(out, { writes: [], deletes: [], lockfilePath: join(out, 'schema-sync.lock.json') });
    expect(existsSync(join(out, TXN_DIR))).toBe(false);
  });
});

describe('a pull of 1,100 types', () => {
  it('writes exactly what emitFiles gives, leaves no transaction folder, and a second pull writes nothing', { timeout: 60_000 }, async () => {
    const listing = syntheticListing(1100);
    await writeFile(join(out, 'big.json'), JSON.stringify(listing));
    const first = await runCli(['pull', '--input', 'big.json', '--out', 'gen', '--verbose'], { cwd: out });
    expect(first.code, first.stderr).toBe(0);
    expect(first.stderr).toMatch(/1104 files written/);
    const tree = await readTree(join(out, 'gen'));
    tree.delete(MANIFEST_FILE);
    const expected = await emitFiles({ messages: parseListing(listing, { origin: 'test' }).descriptors, source: { query: {} } });
    expect(tree).toEqual(new Map(expected.map((f) => [f.path, f.text])));
    expect(existsSync(join(out, 'gen', TXN_DIR))).toBe(false);
    const again = await runCli(['pull', '--input', 'big.json', '--out', 'gen', '--verbose'], { cwd: out });
    expect(again.stderr).toMatch(/0 files written|nothing changed/);
  });
});
