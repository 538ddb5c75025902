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
  const keyed = await startTestServer({ listing: [wireElement({ name: 'Kept', mNum: 1 })], apiKey: 'k9z-given-key' });
  const cwd = await tempDir();
  try {
    const made = createRedactor(['k9z-given-key']);
    const texts: string[] = [];
    const redact = Object.assign((text: string) => (texts.push(text), made(text)), { data: made.data });
    const urls: string[] = [];
    await pull({ cwd, baseUrl: keyed.url, out: 'out', apiKey: 'k9z-given-key', redact, onFetchEvent: (event) => event.type === 'request' && urls.push(event.url) });
    // The fetch stage shows its URL through the run's redactor, not one of its own.
    expect(texts.some((text) => text.includes('apikey=k9z-given-key'))).toBe(true);
    expect(urls).toEqual([expect.stringContaining('apikey=***')]);
  } finally {
    await keyed.close();
    await removeDir(cwd);
  }
});
