/**
 * Secrets: the API key and secret never appear in what the library API throws or returns (its
 * message, hint, stack, own properties such as `issues`, `cause`), on any error path, nor in the
 * lockfile or the generated files, also when the server echoes them back (in error bodies,
 * redirect locations, trailers, element names, or inside a successful listing); and through the
 * CLI with --verbose, not in stdout or stderr either.
 */
import { inspect } from 'node:util';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { check, pull, type PullOptions } from '../../src/index.js';
import { startTestServer, type TestServer } from '../helpers/server/index.js';
import { readTree, removeDir, runBin, tempDir } from '../helpers/cli.js';
import { runCli } from '../helpers/in-process.js';
import { smallListing, wireElement } from '../helpers/listing.js';
import { leaks } from './helpers.js';

const KEY = 'sk-live-KEY-9a8b7c6d';
const SECRET = 'shh-SECRET-1f2e3d';
/** Short credentials are redacted from errors too (listing data is only scrubbed of 6+ characters). */
const SHORT_KEY = 'k3y99';
const LISTING = smallListing(3);

let server: TestServer;
let dir: string;

beforeAll(async () => {
  server = await startTestServer({ listing: LISTING, apiKey: KEY, secret: SECRET });
  dir = await tempDir();
  const first = await pull({ ...options(), retries: 0 });
  expect(JSON.stringify(first)).not.toContain(KEY);
});
afterAll(async () => {
  await server.close();
  await removeDir(dir);
});
beforeEach(() => {
  server.setOptions({ listing: LISTING, apiKey: KEY, secret: SECRET, trailer: false });
  server.setPersistentFault(undefined);
});

function options(extra: Partial<PullOptions> = {}): PullOptions {
  return { cwd: dir, baseUrl: server.url, out: 'out', apiKey: KEY, secret: SECRET, retries: 1, timeout: 5_000, ...extra };
}

/** Every way an error can be looked at: message, hint, stack, own properties, cause chain. */
function everyView(error: unknown): Array<readonly [string, string]> {
  const views: Array<readonly [string, string]> = [];
  let current: unknown = error;
  for (let depth = 0; current !== undefined && depth < 5; depth++) {
    const e = current as Error & { hint?: string };
    views.push(
      [`message(${depth})`, String(e.message)],
      [`hint(${depth})`, String(e.hint ?? '')],
      [`stack(${depth})`, String(e.stack ?? '')],
      [`String(${depth})`, String(e)],
      [`JSON(${depth})`, JSON.stringify(e) ?? ''],
      [`inspect(${depth})`, inspect(e, { depth: 6 })],
    );
    current = e.cause;
  }
  return views;
}

async function thrown(run: () => Promise<unknown>): Promise<unknown> {
  try {
    await run();
  } catch (error) {
    return error;
  }
  throw new Error('expected a failure');
}

const bodyWithSecrets = JSON.stringify({ error: 'nope', echo: { apikey: KEY, secret: SECRET } });

const ERROR_PATHS: Array<[label: string, arrange: () => void, extra?: Partial<PullOptions>]> = [
  ['a wrong key (401 echoing both)', () => server.setOptions({ apiKey: 'other-key-000000' })],
  ['retries exhausted on 503 echoing both', () => server.setPersistentFault({ kind: 'status', status: 503, retryAfter: 0, body: bodyWithSecrets })],
  ['a 400 echoing both', () => server.setPersistentFault({ kind: 'status', status: 400, body: bodyWithSecrets })],
  ['a non-JSON 200 echoing both', () => server.setPersistentFault({ kind: 'status', status: 200, body: `oops ${KEY} ${SECRET}`, contentType: 'text/plain' })],
  ['an HTML page echoing both', () => server.setPersistentFault({ kind: 'html', body: `<html>${KEY} ${SECRET}</html>` })],
  ['a JSON object echoing both', () => server.setPersistentFault({ kind: 'json', body: { apikey: KEY, secret: SECRET } })],
  ['an array of non-objects that are the secrets', () => server.setPersistentFault({ kind: 'json', body: [KEY, SECRET, { x: KEY }] })],
  ['an invalid element named after the key', () => server.setListing([wireElement({ name: `x-${KEY}`, mNum: 'abc', hasCF: SECRET })])],
  ['duplicates named after the secret', () => server.setListing([wireElement({ name: SECRET, mNum: 1 }), wireElement({ name: SECRET, mNum: 2 })])],
  ['a failed trailer echoing both', () => server.setOptions({ trailer: { result: 'Error', detail: `bad apikey ${KEY} / ${SECRET}` } })],
  ['a redirect loop through a Location with both', () => server.setPersistentFault({ kind: 'redirect', location: `/rest/proto?apikey=${KEY}&secret=${SECRET}` })],
  // The body's first piece comes 300 ms after the headers: the request times out waiting for it.
  ['a body slower than the timeout', () => server.setPersistentFault({ kind: 'slowBody', chunkDelayMs: 300, chunks: 3 }), { timeout: 100, retries: 0 }],
  ['a connection refused', () => undefined, { baseUrl: 'http://127.0.0.1:9', retries: 0 }],
  ['a listing cut at the limit', () => server.setOptions({ trailer: {} }), { limit: 3 }],
  ['names that clash, carrying the key', () => server.setListing([...LISTING, wireElement({ name: `a-${KEY}`, mNum: 1 }), wireElement({ name: `a_${KEY}`, mNum: 2 })])],
  ['an empty listing while types are locked', () => server.setListing([])],
];

describe('the library API never throws a secret', () => {
  it.each(ERROR_PATHS)('pull: %s', async (_label, arrange, extra) => {
    const before = await readTree(dir);
    arrange();
    const error = await thrown(() => pull(options(extra)));
    expect(error).toBeInstanceOf(Error);
    expect(leaks([KEY, SECRET], everyView(error))).toEqual([]);
    expect(await readTree(dir)).toEqual(before);
  });

  it.each(ERROR_PATHS.filter(([label]) => !label.includes('empty') && !label.includes('clash')))('check: %s', async (_label, arrange, extra) => {
    arrange();
    const error = await thrown(() => check(options(extra)));
    expect(leaks([KEY, SECRET], everyView(error))).toEqual([]);
  });

  it('a short key is redacted from errors as well, issues included', async () => {
    server.setOptions({ apiKey: SHORT_KEY });
    server.setListing([wireElement({ name: `name-${SHORT_KEY}`, mNum: 'abc' })]);
    const error = await thrown(() => pull(options({ apiKey: SHORT_KEY })));
    expect((error as { code?: string }).code).toBe('VALIDATION');
    expect(leaks([SHORT_KEY, SECRET], everyView(error))).toEqual([]);
  });

  it('a lock held by another run: the error names the folder, nothing else', async () => {
    const { writeFile } = await import('node:fs/promises');
    const { hostname } = await import('node:os');
    const { join } = await import('node:path');
    await writeFile(join(dir, 'out', '.schema-sync-run.lock'), `${process.pid}@${hostname()}`);
    try {
      const error = await thrown(() => pull(options({ lockWait: 100 })));
      expect((error as Error).message).toContain('another schema-sync is running on');
      expect(leaks([KEY, SECRET], everyView(error))).toEqual([]);
    } finally {
      await removeDir(join(dir, 'out', '.schema-sync-run.lock'));
    }
  });

  it('a listing that carries the key is stored and generated without it, with a warning', async () => {
    server.setListing([
      ...LISTING,
      wireElement({ name: 'Echo', mNum: 77, desc: `requested with apikey=${KEY}&secret=${SECRET}`, details: { [KEY]: SECRET } }),
    ]);
    const warnings: string[] = [];
    const result = await pull(options({ onWarning: (w) => warnings.push(w) }));
    expect(warnings.join('\n')).toContain('the service echoed the API key or secret in element 3 of the listing');
    const files = await readTree(dir);
    expect(leaks([KEY, SECRET], [...files, ['result', JSON.stringify(result)], ['warnings', warnings.join('\n')]])).toEqual([]);
    expect(files.get('schema-sync.lock.json')).toContain('requested with apikey=***&secret=***');
    const checked = await check(options());
    expect(checked.report.inSync).toBe(true);
    expect(leaks([KEY, SECRET], [['check', JSON.stringify(checked)]])).toEqual([]);
  });
});

describe('the CLI with --verbose never prints or writes a secret', () => {
  it('pull, check and generate (the built CLI), key from the environment and secret from a flag', async () => {
    const cli = await tempDir();
    try {
      const env = { SCHEMA_SYNC_API_KEY: KEY };
      const runs = [
        await runBin(['pull', '--base-url', server.url, '--out', 'out', '--secret', SECRET, '--verbose', '--format', 'json'], { cwd: cli, env }),
        await runBin(['check', '--base-url', server.url, '--out', 'out', '--secret', SECRET, '--verbose', '--format', 'markdown'], { cwd: cli, env }),
        await runBin(['generate', '--out', 'out', '--verbose'], { cwd: cli, env: { ...env, SCHEMA_SYNC_SECRET: SECRET } }),
      ];
      expect(runs.map((r) => r.code)).toEqual([0, 0, 0]);
      expect(runs[0]!.stderr).toContain('apikey=***');
      const texts = runs.flatMap((r, i) => [[`stdout ${i}`, r.stdout], [`stderr ${i}`, r.stderr]] as const);
      expect(leaks([KEY, SECRET], [...texts, ...(await readTree(cli))])).toEqual([]);
    } finally {
      await removeDir(cli);
    }
  });

  it('a listing echoing the key: warned about, stored and generated without it', async () => {
    const cli = await tempDir();
    try {
      server.setListing([...LISTING, wireElement({ name: 'Echo', mNum: 77, desc: `for ${KEY}` })]);
      const run = await runCli(['pull', '--base-url', server.url, '--out', 'out', '--api-key', KEY, '--secret', SECRET, '--verbose'], { cwd: cli });
      expect(run.code, run.stderr).toBe(0);
      expect(run.stderr).toContain('warning: the service echoed the API key or secret in element 3');
      expect(leaks([KEY, SECRET], [['stdout', run.stdout], ['stderr', run.stderr], ...(await readTree(cli))])).toEqual([]);
    } finally {
      await removeDir(cli);
    }
  });
});

/** Issue 42 item 5: the key written in encodings that escape every character, or inside a longer base64 text. */
describe('secrets in every encoding, decoded before matching', () => {
  const every = (text: string, one: (code: number) => string) => [...text].map((char) => one(char.codePointAt(0)!)).join('');
  const b64 = (text: string) => Buffer.from(text).toString('base64');
  const ENCODINGS: Array<[string, string]> = [
    ['%XX for every byte', every(KEY, (c) => `%${c.toString(16).toUpperCase()}`)],
    ['&#NN; for every character', every(KEY, (c) => `&#${c};`)],
    ['&#xNN; for every character', every(KEY, (c) => `&#x${c.toString(16)};`)],
    ['\\uXXXX for every character', every(KEY, (c) => `\\u${c.toString(16).padStart(4, '0')}`)],
    ['HTTP Basic key:secret', `Basic ${b64(`${KEY}:${SECRET}`)}`],
    ['HTTP Basic user:key', `Basic ${b64(`user:${KEY}`)}`],
    ['base64 of a JSON holding it', b64(JSON.stringify({ apikey: KEY }))],
  ];

  /** Whether `text` shows the key or secret once its escapes are decoded, or inside any base64 run at any alignment. */
  function reveals(text: string): boolean {
    const decoded = text
      .replace(/%([0-9A-Fa-f]{2})/g, (_m, hex: string) => String.fromCharCode(parseInt(hex, 16)))
      .replace(/&#[xX]([0-9A-Fa-f]+);/g, (_m, hex: string) => String.fromCodePoint(parseInt(hex, 16)))
      .replace(/&#(\d+);/g, (_m, dec: string) => String.fromCodePoint(Number(dec)))
      .replace(/\\\\?u([0-9A-Fa-f]{4})/g, (_m, hex: string) => String.fromCharCode(parseInt(hex, 16)));
    if ([KEY, SECRET].some((secret) => decoded.includes(secret))) return true;
    for (const run of text.match(/[A-Za-z0-9+/_-]{8,}/g) ?? []) {
      for (let cut = 0; cut < 4; cut++) {
        for (const alphabet of ['base64', 'base64url'] as const) {
          const bytes = Buffer.from(run.slice(cut), alphabet).toString('latin1');
          if ([KEY, SECRET].some((secret) => bytes.includes(secret))) return true;
        }
      }
    }
    return false;
  }

  it('in a listing desc: not in the lockfile, the generated code or the warnings', async () => {
    server.setListing([...LISTING, ...ENCODINGS.map(([what, echo], i) => wireElement({ name: `Echo${i}`, mNum: 80 + i, desc: `${what}: ${echo}` }))]);
    const warnings: string[] = [];
    const out = await tempDir();
    try {
      await pull({ ...options(), cwd: out, onWarning: (w) => warnings.push(w) });
      const files = await readTree(out);
      const revealed = [...files, ['warnings', warnings.join('\n')] as const].filter(([, text]) => reveals(text)).map(([name]) => name);
      expect(revealed).toEqual([]);
      expect(files.get('schema-sync.lock.json')).toContain('%XX for every byte: ***');
    } finally {
      await removeDir(out);
    }
  });

  it('in an error body: not in the error, stderr or the step summary', async () => {
    server.setPersistentFault({ kind: 'status', status: 400, body: ENCODINGS.map(([what, echo]) => `${what}: ${echo}`).join('\n'), contentType: 'text/plain' });
    const error = await thrown(() => pull(options({ retries: 0 })));
    expect(everyView(error).filter(([, text]) => reveals(text)).map(([name]) => name)).toEqual([]);
    const cli = await tempDir();
    try {
      const summary = `${cli}/summary.md`;
      const run = await runCli(['check', '--base-url', server.url, '--out', `${dir}/out`, '--lockfile', `${dir}/schema-sync.lock.json`, '--secret', SECRET, '--retries', '0'], {
        cwd: cli,
        env: { SCHEMA_SYNC_API_KEY: KEY, GITHUB_ACTIONS: 'true', GITHUB_STEP_SUMMARY: summary, GITHUB_WORKSPACE: cli, SCHEMA_SYNC_CACHE_DIR: 'off' },
      });
      expect(run.code).toBe(2);
      const texts = [['stdout', run.stdout], ['stderr', run.stderr], ...(await readTree(cli))] as const;
      expect(texts.find(([name]) => name === 'summary.md')?.[1]).toContain('***');
      expect(texts.filter(([, text]) => reveals(text)).map(([name]) => name)).toEqual([]);
    } finally {
      await removeDir(cli);
    }
  });
});
