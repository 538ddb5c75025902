/**
 * Issue 42, items 14 and 15: what a repository carries in the output folder is not trusted as
 * schema-sync's own. A journal is replayed only in the transaction folder the run made (a copy or
 * a checkout of one, with correct hashes, is discarded); a file the manifest names is deleted only
 * when it carries schema-sync's banner; a refused delete of a file schema-sync did not generate
 * says so in its own words.
 */
import { cp, mkdir, readFile, writeFile } from 'node:fs/promises';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { generate } from '../../src/run/generate.js';
import { pull } from '../../src/run/pull.js';
import { hashOf } from '../../src/util/hash.js';
import { messageText } from '../../src/model/message.js';
import { recoverPending, TXN_DIR } from '../../src/write/journal.js';
import { MANIFEST_FILE, parseManifest, serializeManifest } from '../../src/write/manifest.js';
import { txnFolderIdentity } from '../../src/write/txn-folder.js';
import { removeDir, tempDir } from '../helpers/cli.js';
import { smallListing } from '../helpers/listing.js';

let dir: string;
let out: string;
let lockfilePath: string;
beforeEach(async () => {
  dir = await tempDir();
  out = join(dir, 'gen');
  lockfilePath = join(dir, 'schema-sync.lock.json');
});
afterEach(() => removeDir(dir));

const hashNow = (path: string) => (existsSync(path) ? hashOf(readFileSync(path)) : null);

/** Recovery as a run does it, with the warnings it gives. */
async function recover(): Promise<{ outcome: string; warnings: string }> {
  const warnings: string[] = [];
  const outcome = await recoverPending(out, lockfilePath, (text) => warnings.push(messageText(text)));
  return { outcome, warnings: warnings.join('\n') };
}

/**
 * A transaction folder that replaces the lockfile, with a journal whose hashes are all correct
 * (what anyone who can read the repository can write), made in `where`.
 */
async function plantTransaction(where: string, journal: (txnDir: string) => Record<string, unknown>): Promise<void> {
  const txnDir = join(where, TXN_DIR);
  await mkdir(join(txnDir, 'files'), { recursive: true });
  await writeFile(join(txnDir, 'lockfile'), '{"planted": true}\n');
  await writeFile(join(txnDir, 'journal.json'), JSON.stringify(journal(txnDir)));
}

const replacesLockfile = () => ({
  base: { lockfile: hashNow(lockfilePath), manifest: hashNow(join(out, MANIFEST_FILE)) },
  writes: [],
  deletes: [],
  lockfile: lockfilePath,
  lockfileSha: hashOf('{"planted": true}\n'),
});

describe('a journal is replayed only in the transaction folder the run made (item 14)', () => {
  beforeEach(async () => {
    await mkdir(out, { recursive: true });
    await writeFile(lockfilePath, '{"real": true}\n');
  });

  it('a journal of the format before this check (no folder recorded) is discarded, not replayed', async () => {
    await plantTransaction(out, () => ({ version: 2, ...replacesLockfile() }));
    const { outcome, warnings } = await recover();
    expect(outcome).toBe('discarded');
    expect(warnings).toMatch(/journal\.json was written by an older schema-sync and cannot be told to belong here: discarded, not replayed/);
    expect(await readFile(lockfilePath, 'utf8')).toBe('{"real": true}\n');
    expect(existsSync(join(out, TXN_DIR))).toBe(false);
  });

  it('a copy of a committed transaction folder (a checkout, cp -r) is discarded with a warning that says so', async () => {
    // Made where a run would make it, elsewhere, with that folder's identity: then copied in.
    const elsewhere = join(dir, 'elsewhere');
    await plantTransaction(elsewhere, (txnDir) => ({ version: 3, folder: txnFolderIdentity(txnDir), ...replacesLockfile() }));
    await cp(join(elsewhere, TXN_DIR), join(out, TXN_DIR), { recursive: true });
    const { outcome, warnings } = await recover();
    expect(outcome).toBe('discarded');
    expect(warnings).toMatch(
      /journal\.json was not made in this transaction folder \(a copy or a checkout brought it: a run records the folder it made\): discarded, not replayed\./,
    );
    expect(await readFile(lockfilePath, 'utf8')).toBe('{"real": true}\n');
    expect(existsSync(join(out, TXN_DIR))).toBe(false);
  });

  it('the journal of the folder the run made is replayed', async () => {
    await plantTransaction(out, (txnDir) => ({ version: 3, folder: txnFolderIdentity(txnDir), ...replacesLockfile() }));
    expect((await recover()).outcome).toBe('replayed');
    expect(await readFile(lockfilePath, 'utf8')).toBe('{"planted": true}\n');
  });
});

describe("a journal's refused delete of a file schema-sync did not generate (item 15)", () => {
  it('says so in its own words, not that it belonged to a message type', async () => {
    await mkdir(join(out, 'messages'), { recursive: true });
    await writeFile(join(out, 'NOTES.md'), 'mine\n');
    await writeFile(join(out, 'messages/Gen.ts'), 'generated\n');
    await writeFile(join(out, MANIFEST_FILE), serializeManifest(new Map([['messages/Gen.ts', { input: 'x', sha: hashOf('generated\n') }]])));
    await writeFile(join(out, 'messages/Gen.ts'), 'generated\n// edited\n');
    await plantTransaction(out, (txnDir) => ({
      version: 3,
      folder: txnFolderIdentity(txnDir),
      base: { lockfile: hashNow(lockfilePath), manifest: hashNow(join(out, MANIFEST_FILE)) },
      writes: [],
      deletes: ['NOTES.md', 'messages/Gen.ts'],
    }));
    const { outcome, warnings } = await recover();
    expect(outcome).toBe('replayed');
    expect(readFileSync(join(out, 'NOTES.md'), 'utf8')).toBe('mine\n');
    expect(warnings).toContain('NOTES.md is not a file schema-sync generated (the folder\'s manifest does not name it): the delete was refused, and it was left in place.');
    expect(warnings).not.toMatch(/NOTES\.md belonged to a message type/);
    // A generated file edited by hand keeps its words.
    expect(warnings).toContain('messages/Gen.ts belonged to a message type that is gone, but was edited by hand: left in place, no longer managed by schema-sync.');
  });
});

describe('a manifest entry naming a file without the banner (item 14)', () => {
  it('does not get that file deleted: kept, with a warning', async () => {
    const listing = (n: number) => writeFile(join(dir, 'listing.json'), JSON.stringify(smallListing(n)));
    await listing(2);
    const options = { cwd: dir, input: 'listing.json', out: 'gen', cacheDir: false as const };
    await pull(options);
    // The user's own file in the output folder, named by a planted manifest entry with its hash (the
    // hash of a committed file is no secret), as the file of a type the next pull removes.
    const mine = '// my helpers, not generated\nexport const x = 1;\n';
    await writeFile(join(out, 'messages/T0001.ts'), mine);
    const manifest = parseManifest(await readFile(join(out, MANIFEST_FILE), 'utf8'), out);
    manifest.set('messages/T0001.ts', { input: manifest.get('messages/T0001.ts')!.input, sha: hashOf(mine) });
    // And a hand file of another kind, named as one more file schema-sync wrote.
    await writeFile(join(out, 'NOTES.md'), 'mine\n');
    manifest.set('NOTES.md', { input: 'x', sha: hashOf('mine\n') });
    await writeFile(join(out, MANIFEST_FILE), serializeManifest(manifest));
    await listing(1);
    const warnings: string[] = [];
    const result = await pull({ ...options, onWarning: (text) => warnings.push(text) });
    expect(readFileSync(join(out, 'messages/T0001.ts'), 'utf8')).toBe(mine);
    expect(result.write?.deleted).toEqual([]);
    expect(readFileSync(join(out, 'NOTES.md'), 'utf8')).toBe('mine\n');
    expect(warnings.join('\n')).toContain(
      "messages/T0001.ts is named by the folder's manifest, but is not a file schema-sync generated (it does not begin with its banner): left in place, and no longer in the manifest.",
    );
    expect(warnings.join('\n')).toContain(
      "NOTES.md is named by the folder's manifest, but is not a file schema-sync generated (schema-sync writes no file of that name): left in place, and no longer in the manifest.",
    );
    expect(parseManifest(await readFile(join(out, MANIFEST_FILE), 'utf8'), out).has('messages/T0001.ts')).toBe(false);
    // A generated file of a removed type is still deleted.
    await generate({ cwd: dir, out: 'gen', cacheDir: false });
    await listing(0);
    await pull({ ...options, allowEmpty: true, force: true });
    expect(existsSync(join(out, 'messages/T0000.ts'))).toBe(false);
    expect(readFileSync(join(out, 'messages/T0001.ts'), 'utf8')).toBe(mine);
  });
});
