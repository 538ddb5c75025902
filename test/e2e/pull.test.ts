import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server/index.js';
import { readTree, removeDir, runBin, tempDir } from '../helpers/cli.js';
import { runCli } from '../helpers/in-process.js';
import { exampleListing, smallListing, wireElement } from '../helpers/listing.js';

/**
 * pull and generate end to end against the reference server: the CLI in this process (see
 * test/helpers/in-process.ts), and the built CLI where the process is part of it (a first pull,
 * standard input, a generate with no server).
 */
let server: TestServer;
let dir: string;

beforeAll(async () => {
  server = await startTestServer({ listing: exampleListing() });
});
afterAll(() => server.close());
beforeEach(async () => {
  dir = await tempDir();
  server.setOptions({ listing: exampleListing(), trailer: false, apiKey: undefined, secret: undefined, headerKey: undefined });
  server.setPersistentFault(undefined);
  server.requests.length = 0;
});
afterEach(() => removeDir(dir));

const pull = (...args: string[]) => runCli(['pull', '--base-url', server.url, '--out', 'out', ...args], { cwd: dir });
const lockPath = () => join(dir, 'schema-sync.lock.json');

describe('pull', () => {
  it('writes the lockfile and one module per type plus index.ts (the built CLI)', async () => {
    const run = await runBin(['pull', '--base-url', server.url, '--out', 'out', '--cmd', 'getmsgtypes'], { cwd: dir });
    expect(run.stderr).toMatch(/Locked 264 types \(no lockfile before\) · \d+ files written in/);
    expect(run.code).toBe(0);
    const lock = JSON.parse(await readFile(lockPath(), 'utf8'));
    expect(lock.lockfileVersion).toBe(1);
    expect(lock.source).toEqual({ baseUrl: server.url, query: { cmd: 'getmsgtypes' } });
    expect(Object.keys(lock.messages)).toHaveLength(264);
    expect(lock.messages.AccountRiskRecordV5).toMatchObject({ mNum: 1000, hasTKey: true, topic: 'clientrisk', pkey: {} });
    const tree = await readTree(join(dir, 'out'));
    expect(tree.has('index.ts')).toBe(true);
    expect(tree.has('messages/AccountRiskRecordV5.ts')).toBe(true);
  });

  it('writes the same lockfile bytes whatever the server order', async () => {
    await pull();
    const first = await readFile(lockPath(), 'utf8');
    server.setListing(exampleListing().reverse());
    const again = await pull();
    expect(again.code).toBe(0);
    expect(await readFile(lockPath(), 'utf8')).toBe(first);
    expect(again.stderr).toContain('no changes · 0 files written');
  });

  it.each([
    ['a non-Ok trailer', () => server.setOptions({ trailer: { result: 'Failed', detail: 'index rebuilding' } }), [], 'QueryResult "Failed": index rebuilding'],
    ['a listing cut at the limit', () => server.setOptions({ trailer: {} }), ['--limit', '100'], 'as many as the limit 100'],
    ['an HTML page with status 200', () => server.setPersistentFault({ kind: 'html' }), [], 'expected a JSON array, got text/html'],
    ['an invalid element', () => server.setListing([...smallListing(2), wireElement({ name: 'Broken', mNum: -4 })]), [], 'element 2 ("Broken"), field message.mNum'],
  ] as const)('fails on %s with exit 2 and leaves lockfile and folder untouched', async (_label, arrange, extra, message) => {
    await pull();
    const before = await readFile(lockPath(), 'utf8');
    const treeBefore = await readTree(join(dir, 'out'));
    arrange();
    const run = await pull(...extra);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(message);
    expect(run.stderr).toMatch(/hint: /);
    expect(await readFile(lockPath(), 'utf8')).toBe(before);
    expect(await readTree(join(dir, 'out'))).toEqual(treeBefore);
  });

  it('explains a wrong key and never prints or stores it, even when the server echoes it', async () => {
    server.setOptions({ apiKey: 'the-right-key' });
    const wrong = await runCli(['pull', '--base-url', server.url, '--out', 'out', '--verbose'], {
      cwd: dir,
      env: { SCHEMA_SYNC_API_KEY: 'sk-wrong-9f8e7d', SCHEMA_SYNC_SECRET: 'shh-secret-123' },
    });
    expect(wrong.code).toBe(2);
    expect(wrong.stderr).toContain('HTTP 401');
    expect(wrong.stderr).toContain('SCHEMA_SYNC_API_KEY');
    expect(server.requests.at(-1)!.query['apikey']).toBe('sk-wrong-9f8e7d');
    for (const text of [wrong.stdout, wrong.stderr]) {
      expect(text).not.toContain('sk-wrong-9f8e7d');
      expect(text).not.toContain('shh-secret-123');
    }
    server.setOptions({ apiKey: 'the-right-key', secret: 'shh-secret-123' });
    const right = await runCli(['pull', '--base-url', server.url, '--out', 'out', '--verbose', '--api-key', 'the-right-key'], {
      cwd: dir,
      env: { SCHEMA_SYNC_SECRET: 'shh-secret-123' },
    });
    expect(right.code).toBe(0);
    expect(right.stderr).toContain('apikey=***');
    const files = await readTree(dir);
    for (const [path, text] of [...files, ['stdout', right.stdout], ['stderr', right.stderr]]) {
      expect(text, path).not.toContain('the-right-key');
      expect(text, path).not.toContain('shh-secret-123');
    }
  });

  it('reads a saved response with --input, from a file and from stdin', async () => {
    await writeFile(join(dir, 'saved.json'), JSON.stringify(smallListing(4)));
    // The built CLI: standard input is the process's.
    const fromFile = await runBin(['pull', '--input', 'saved.json', '--out', 'out'], { cwd: dir });
    expect(fromFile.code).toBe(0);
    const lock = await readFile(lockPath(), 'utf8');
    expect(Object.keys(JSON.parse(lock).messages)).toEqual(['T0000', 'T0001', 'T0002', 'T0003']);
    const fromStdin = await runBin(['pull', '--input', '-', '--out', 'out'], { cwd: dir, input: JSON.stringify(smallListing(4)) });
    expect(fromStdin.code).toBe(0);
    expect(await readFile(lockPath(), 'utf8')).toBe(lock);
    expect(server.requests).toHaveLength(0);
  });

  it('takes query parameters from the config file, flags winning', async () => {
    await writeFile(join(dir, 'schema-sync.config.json'), JSON.stringify({ baseUrl: server.url, cmd: 'getmsgtypes', where: 'mToken:ne:SystemData', out: 'gen' }));
    const run = await runCli(['pull', '--where', 'mToken:eq:ClientRisk'], { cwd: dir });
    expect(run.code).toBe(0);
    expect(server.requests[0]!.query).toEqual({ cmd: 'getmsgtypes', where: 'mToken:eq:ClientRisk' });
    expect((await readTree(join(dir, 'gen'))).has('index.ts')).toBe(true);
  });

  it('refuses a literal key in the config file without echoing it', async () => {
    await writeFile(join(dir, 'schema-sync.config.json'), JSON.stringify({ baseUrl: server.url, apiKey: 'literal-key-42' }));
    const run = await runCli(['pull'], { cwd: dir });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('SCHEMA_SYNC_API_KEY');
    expect(run.stderr).not.toContain('literal-key-42');
  });
});

describe('generate', () => {
  it('rebuilds the folder from the lockfile alone', async () => {
    await pull();
    const tree = await readTree(join(dir, 'out'));
    await removeDir(join(dir, 'out'));
    await server.close().catch(() => undefined);
    const run = await runBin(['generate', '--out', 'out'], { cwd: dir });
    server = await startTestServer({ listing: exampleListing() });
    expect(run.code).toBe(0);
    expect(await readTree(join(dir, 'out'))).toEqual(tree);
  });

  it('fails with exit 2 without a lockfile', async () => {
    const run = await runCli(['generate'], { cwd: dir });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('no lockfile at');
    expect(run.stderr).toContain('schema-sync pull');
  });
});
