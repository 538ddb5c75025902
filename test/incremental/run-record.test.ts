import { readdirSync } from 'node:fs';
import { mkdtemp, readFile, rm, stat, unlink, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { check, pull } from '../../src/index.js';
import { openIncremental } from '../../src/incremental/index.js';
import { LockfileText, parseLockfile } from '../../src/lock/index.js';
import { LockError } from '../../src/model/errors.js';
import { startTestServer, type TestServer } from '../helpers/server/index.js';
import { smallListing, wireElement, type WireElement } from '../helpers/listing.js';

// A run that finds the service's answer and the folder as the last run left them trusts what
// that run learnt (the memo, in the cache folder). These tests change one thing at a time after
// the memo is in place and check that each change is still seen.

let dir: string;
let server: TestServer;
let listing: WireElement[];
let options: { cwd: string; baseUrl: string; out: string; cacheDir: string; clock: () => number; apiKey?: string; onWarning?: (text: string) => void };

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'schema-sync-memo-'));
  listing = [...smallListing(5), wireElement({ name: 'Odd', mNum: 77, actions: 'SX' })];
  server = await startTestServer({ listing });
  // A clock a second ahead of the file system's: files hashed are clearly older, so the stat cache may vouch.
  options = { cwd: dir, baseUrl: server.url, out: 'out', cacheDir: join(dir, 'cache'), clock: () => Date.now() + 1000 };
  await pull(options);
  await pull(options); // verifies the files, records the memo
});
afterEach(async () => {
  await server.close();
  await rm(dir, { recursive: true, force: true });
});

describe('the run memo', () => {
  it('is kept in the cache folder; a no-op pull and check report as before, warnings included', async () => {
    expect(readdirSync(join(dir, 'cache')).some((name) => name.startsWith('memo-'))).toBe(true);
    const warnings: string[] = [];
    const again = await pull({ ...options, onWarning: (w) => warnings.push(w) });
    expect(again.report.inSync).toBe(true);
    expect(again.messageCount).toBe(6);
    expect(again.write?.written).toEqual([]);
    expect(warnings.join('\n')).toContain('unknown action letter "X"');
    const checked = await check(options);
    expect(checked.report.inSync).toBe(true);
    expect(checked.messageCount).toBe(6);
  });

  it('a changed answer is validated and diffed', async () => {
    listing[2]!.message['schemaHash'] = 'CHANGED';
    server.setListing(listing);
    const checked = await check(options);
    expect(checked.report.changes.map((c) => c.name)).toEqual(['T0002']);
    const pulled = await pull(options);
    expect(pulled.report.changes.map((c) => c.name)).toEqual(['T0002']);
    expect(pulled.write?.written).toEqual(['messages/T0002.ts']);
    expect((await check(options)).report.inSync).toBe(true);
  });

  it('a new mNum rewrites the module and the index (a new hash only the module)', async () => {
    listing[1]!.message['mNum'] = 4242;
    server.setListing(listing);
    const pulled = await pull(options);
    expect(pulled.write?.written.sort()).toEqual(['index.ts', 'messages/T0001.ts']);
    expect(await readFile(join(dir, 'out/index.ts'), 'utf8')).toContain('4242: T0001');
  });

  it('a hand-edited lockfile is diffed against the answer and rewritten', async () => {
    const lockfile = join(dir, 'schema-sync.lock.json');
    const text = await readFile(lockfile, 'utf8');
    await writeFile(lockfile, text.replace('"H3"', '"EDITED"'));
    expect((await check(options)).report.changes.map((c) => c.name)).toEqual(['T0003']);
    const pulled = await pull(options);
    expect(pulled.report.changes.map((c) => c.name)).toEqual(['T0003']);
    expect(await readFile(lockfile, 'utf8')).toBe(text);
  });

  it('a hand-edited or deleted generated file is drift for check and put back by pull', async () => {
    // The first check takes a stat snapshot of the folder, the second trusts it: edits after it must still show.
    expect((await check(options)).report.inSync).toBe(true);
    expect((await check(options)).report.inSync).toBe(true);
    expect(readdirSync(join(dir, 'cache')).some((name) => name.startsWith('stat-'))).toBe(true);
    const file = join(dir, 'out/messages/T0001.ts');
    const before = await stat(file);
    const text = await readFile(file, 'utf8');
    await writeFile(file, text.replace('T0001', 'T000I'));
    await utimes(file, before.atimeMs / 1000, before.mtimeMs / 1000);
    await unlink(join(dir, 'out/messages/T0004.ts'));
    expect((await check(options)).report.staleFiles).toEqual([
      { path: 'messages/T0001.ts', reason: 'modified' },
      { path: 'messages/T0004.ts', reason: 'missing' },
    ]);
    const pulled = await pull(options);
    expect(pulled.write?.written.sort()).toEqual(['messages/T0001.ts', 'messages/T0004.ts']);
    expect(await readFile(file, 'utf8')).toBe(text);
  });

  it('a damaged memo is ignored', async () => {
    const [memo] = readdirSync(join(dir, 'cache')).filter((name) => name.startsWith('memo-'));
    await writeFile(join(dir, 'cache', memo!), '{"answer": {"fingerprint": 1}, "output": []');
    expect((await pull(options)).report.inSync).toBe(true);
    expect((await check(options)).report.inSync).toBe(true);
  });

  it('is not used for an answer that holds the API key: that is scrubbed every time', async () => {
    const key = 'sk-live-0123456789';
    listing[0]!.message['desc'] = `requested with ${key}`;
    server.setListing(listing);
    const withKey = { ...options, apiKey: key };
    await pull(withKey);
    const warnings: string[] = [];
    await pull({ ...withKey, onWarning: (w) => warnings.push(w) });
    expect(warnings.join('\n')).toMatch(/API key|secret/i);
    expect(await readFile(join(dir, 'schema-sync.lock.json'), 'utf8')).not.toContain(key);
    for (const name of readdirSync(join(dir, 'cache'))) expect(await readFile(join(dir, 'cache', name), 'latin1')).not.toContain(key);
  });

  it("keeps the lockfile's head (settings, message count) by its hash, as a full parse gives it; another text is parsed", async () => {
    const lockfilePath = join(dir, 'schema-sync.lock.json');
    const text = await readFile(lockfilePath, 'utf8');
    const cache = openIncremental(join(dir, 'out'), join(dir, 'cache'));
    const head = cache.lockfileHead(new LockfileText(text, lockfilePath).hash);
    const parsed = parseLockfile(text, lockfilePath);
    expect(head).toEqual({ settings: parsed.settings, messageCount: parsed.messages.length });
    const recorded = new LockfileText(text, lockfilePath, (hash) => cache.lockfileHead(hash));
    expect(recorded.head()).toEqual(head);
    // A hand edit gives another hash: its head is the full parse's, its damage an error.
    const edited = new LockfileText(text.replace('"T0001"', '"T0001x"'), lockfilePath, (hash) => cache.lockfileHead(hash));
    expect(edited.messageCount()).toBe(6);
    expect(() => new LockfileText(`${text}x`, lockfilePath, (hash) => cache.lockfileHead(hash)).head()).toThrow(LockError);
    expect(openIncremental(join(dir, 'out'), undefined).lockfileHead(recorded.hash)).toBeUndefined();
  });
});
