import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { pull } from '../../src/index.js';
import { startTestServer, type TestServer } from '../helpers/server/index.js';
import { removeDir, runBin, tempDir } from '../helpers/cli.js';
import { runCli } from '../helpers/in-process.js';
import { wireElement } from '../helpers/listing.js';
import { createRedactor } from '../../src/model/redact.js';

let server: TestServer;
let dir: string;

beforeAll(async () => {
  // Two names that map to one identifier: the emit stage fails and names both. Both contain
  // the (short) API key, which the listing scrubber leaves alone below six characters.
  server = await startTestServer({ listing: [wireElement({ name: 'a-k9z', mNum: 1 }), wireElement({ name: 'a.k9z', mNum: 2 })], apiKey: 'k9z' });
  dir = await tempDir();
});
afterAll(async () => {
  await server.close();
  await removeDir(dir);
});

it('errors raised after the fetch stage carry no key either', async () => {
  const error = await pull({ cwd: dir, baseUrl: server.url, out: 'out', apiKey: 'k9z' }).then(
    () => undefined,
    (e: unknown) => e as Error & { hint?: string; code?: string },
  );
  if (!error) throw new Error('expected the pull to fail');
  expect(error.code).toBe('EMIT');
  expect(`${error.message}\n${error.hint}\n${error.stack}`).not.toContain('k9z');
  expect(error.message).toContain('a-***');
});

it('--lock-wait bounds how long a second run waits for the first', async () => {
  const { acquireRunLock } = await import('../../src/write/index.js');
  const { join } = await import('node:path');
  const release = await acquireRunLock(join(dir, 'locked'));
  try {
    const run = await runBin(['generate', '--out', 'locked', '--lock-wait', '300'], { cwd: dir });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('another schema-sync is running on');
  } finally {
    await release();
  }
});

it('a one-letter key is masked where it stands alone, never inside ordinary words', async () => {
  const keyed = await startTestServer({ listing: [wireElement({ name: 'Kept', mNum: 1 }), wireElement({ name: 'Broken', mNum: 2 })], apiKey: 'k' });
  try {
    const cwd = await tempDir();
    const env = { SCHEMA_SYNC_API_KEY: 'k', SCHEMA_SYNC_CACHE_DIR: 'off' };
    expect((await runCli(['pull', '--base-url', keyed.url, '--out', 'out'], { cwd, env })).code).toBe(0);
    keyed.setListing([wireElement({ name: 'Kept', mNum: 1 })]);
    const run = await runCli(['check', '--base-url', keyed.url, '--out', 'out', '--verbose'], { cwd, env });
    expect(run.code).toBe(1);
    const output = run.stdout + run.stderr;
    expect(output).toMatch(/breaking/i);
    expect(output).toContain('removed Broken');
    expect(output).not.toMatch(/\*\*\*[a-z]|[a-z]\*\*\*/i);
    expect(output).toContain('apikey=***');
    expect(output).not.toMatch(/apikey=k\b/);
    await removeDir(cwd);
  } finally {
    await keyed.close();
  }
});

it('one redactor per run: the one given is the one every stage masks with', async () => {
  // A word the given redactor masks besides the key: only that redactor knows it.
  const listing = [wireElement({ name: 'Kept', mNum: 1, desc: 'see given-only-word' }), wireElement({ name: 'given-only-word', mNum: 2 })];
  const keyed = await startTestServer({ listing, apiKey: 'k9z-given-key' });
  const cwd = await tempDir();
  try {
    const warnings: string[] = [];
    const redact = createRedactor(['k9z-given-key', 'given-only-word']);
    const result = await pull({ cwd, baseUrl: keyed.url, out: 'out', apiKey: 'k9z-given-key', redact, onWarning: (text) => warnings.push(text) });
    // The fetch stage scrubbed the listing with it, the report and the warnings are masked by it.
    expect(await readFile(join(cwd, 'schema-sync.lock.json'), 'utf8')).toContain('"desc": "see ***"');
    expect(result.report.changes.map((change) => change.name)).toEqual(['***', 'Kept']);
    expect(warnings).toEqual([expect.stringContaining('the service echoed the API key or secret in elements 0, 1')]);
  } finally {
    await keyed.close();
    await removeDir(cwd);
  }
});

it("a key that is an ordinary word masks only what came from outside, never the program's own text", async () => {
  const listing = (desc: string) => [wireElement({ name: 'Order', mNum: 1, desc }), wireElement({ name: 'Item', mNum: 2 })];
  const keyed = await startTestServer({ listing: listing('all types of order'), apiKey: 'types' });
  const cwd = await tempDir();
  try {
    const env = { SCHEMA_SYNC_API_KEY: 'types', SCHEMA_SYNC_CACHE_DIR: 'off' };
    const pulled = await runCli(['pull', '--base-url', keyed.url, '--out', 'out', '--verbose', '--format', 'markdown'], { cwd, env });
    expect(pulled.code, pulled.stderr).toBe(0);
    keyed.setListing(listing('now types of orders'));
    const checked = await runCli(['check', '--base-url', keyed.url, '--out', 'out', '--verbose'], { cwd, env });
    expect(checked.code).toBe(1);
    // The program's own words stay: the summary, the report's wording, the request line.
    expect(pulled.stderr).toContain('Locked 2 types (no lockfile before) · 6 files written');
    expect(pulled.stdout).toContain('Changed: 2 message types (0 breaking, 0 dangerous, 2 safe)');
    // What came from outside is masked: the key in the URL, the word in the server's desc.
    expect(checked.stdout).toContain('desc: "all *** of order" → "now *** of orders"');
    for (const run of [pulled, checked]) expect(run.stderr).toContain('?apikey=*** (try 1)');
    expect([pulled, checked].flatMap((run) => [run.stdout, run.stderr]).join('\n').match(/\*\*\*/g)).toHaveLength(4);
  } finally {
    await keyed.close();
    await removeDir(cwd);
  }
});
