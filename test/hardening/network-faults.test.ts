/**
 * Network faults through the CLI, each against the reference server: `pull --verbose` with a key
 * (environment) and a secret (flag) the server requires and echoes back in error bodies. Every
 * fault either succeeds after retries or fails with exit 2 and a message that says what
 * happened; a failure leaves the lockfile and folder byte for byte as they were, and the key
 * and secret appear nowhere: not in stdout, stderr, the lockfile or the generated files. What a
 * retry cannot mend is not retried; a body that never ends or a gzip bomb stops at --max-bytes
 * with the process's peak memory bounded (measured in the child itself); values nested thousands
 * deep and bytes that are not UTF-8 are errors naming where, never INTERNAL.
 *
 * Library-level behaviour (exact retry counts, backoff) is in test/fetch; this is the whole
 * product, one fresh server and folder per fault, run concurrently: the CLI runs in this process
 * (see test/helpers/in-process.ts), and as the built CLI where its memory is measured. In this
 * process the waits between tries take no time (test/helpers/instant-timers.ts): each test checks
 * the waits asked for, as `--verbose` tells them and as the timers were given them.
 */
import { cp, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type Fault, type TestServer } from '../helpers/server/index.js';
import { readTree, removeDir, runBin, tempDir, type CliRun } from '../helpers/cli.js';
import { runCli } from '../helpers/in-process.js';
import { instantTimers } from '../helpers/instant-timers.js';
import { smallListing, wireElement } from '../helpers/listing.js';
import { leaks } from './helpers.js';

const KEY = 'sk-live-KEY-5f3a9c';
const SECRET = 'shh-SECRET-77e1';
const LISTING = smallListing(5);

let template: string;
const cleanup: Array<() => Promise<unknown>> = [];

beforeAll(async () => {
  // The folder every case starts from: a pulled lockfile and output.
  const server = await startTestServer({ listing: LISTING, apiKey: KEY, secret: SECRET });
  template = await tempDir();
  const run = await runCli(['pull', '--base-url', server.url, '--out', 'out', '--secret', SECRET, '--quiet'], {
    cwd: template,
    env: { SCHEMA_SYNC_API_KEY: KEY },
  });
  await server.close();
  expect(run.code, run.stderr).toBe(0);
});
afterAll(async () => {
  await Promise.all(cleanup.map((f) => f()));
  await removeDir(template);
});

interface Outcome {
  run: CliRun;
  server: TestServer;
  /** The whole folder (lockfile, output) before and after. */
  before: Map<string, string>;
  after: Map<string, string>;
  /** With `measureRss`: the built CLI's peak resident set size in KiB, measured in the child. */
  rssKiB?: number;
  /** The waits between tries, in ms, the run in this process asked its timers for. */
  slept: number[];
}

/**
 * A fresh server and a copy of the template folder; arrange the fault, run pull --verbose (the
 * built CLI when `measureRss`).
 */
async function pullWith(arrange: (server: TestServer) => void, extra: string[] = [], baseUrl?: string, measureRss = false): Promise<Outcome> {
  const server = await startTestServer({ listing: LISTING, apiKey: KEY, secret: SECRET });
  const dir = await tempDir();
  cleanup.push(() => server.close(), () => removeDir(dir));
  await cp(template, dir, { recursive: true });
  const before = await readTree(dir);
  arrange(server);
  const args = ['pull', '--base-url', baseUrl ?? server.url, '--out', 'out', '--secret', SECRET, '--verbose', ...extra];
  const env = { SCHEMA_SYNC_API_KEY: KEY };
  let run: CliRun;
  let rssKiB: number | undefined;
  const timers = instantTimers();
  if (measureRss) {
    const rssDir = await tempDir();
    cleanup.push(() => removeDir(rssDir));
    run = await runBin(args, { cwd: dir, env, timeoutMs: 60_000, rssFile: join(rssDir, 'max-rss') });
    rssKiB = Number(await readFile(join(rssDir, 'max-rss'), 'utf8'));
  } else {
    run = await runCli(args, { cwd: dir, env, timers });
  }
  const after = await readTree(dir);
  const found = leaks([KEY, SECRET], [['stdout', run.stdout], ['stderr', run.stderr], ...[...after].map(([p, t]) => [p, t] as const)]);
  expect(found).toEqual([]);
  return { run, server, before, after, slept: timers.slept, ...(rssKiB === undefined ? {} : { rssKiB }) };
}

/** A failure: exit 2, an error line and a hint, nothing written. */
function expectRefused(outcome: Outcome, message: RegExp | string): void {
  const { run } = outcome;
  expect(run.code, run.stderr).toBe(2);
  if (typeof message === 'string') expect(run.stderr).toContain(message);
  else expect(run.stderr).toMatch(message);
  expect(run.stderr).toMatch(/^error \[[A-Z]+\]: /m);
  expect(run.stderr).toMatch(/^hint: /m);
  expect(outcome.after).toEqual(outcome.before);
}

function expectPulled(outcome: Outcome): void {
  expect(outcome.run.code, outcome.run.stderr).toBe(0);
  expect(outcome.after.get('schema-sync.lock.json')).toContain('"T0004"');
}

/**
 * Peak RSS allowed to a run that refuses a hostile body at a 2 MB limit. A run that buffered the
 * body would grow by the gigabytes these faults send (issue 18 saw 6.4 GB); schema-sync itself
 * needs well under half of this.
 */
const RSS_BOUND_KIB = 200 * 1024;

/** The `retrying in N ms after …` lines of --verbose. */
function retries(run: CliRun): Array<{ ms: number; reason: string }> {
  return [...run.stderr.matchAll(/retrying in (\d+) ms after (.*)$/gm)].map((m) => ({ ms: Number(m[1]), reason: m[2]! }));
}

const FAULT_BODY_WITH_KEY = JSON.stringify({ error: 'overloaded', request: `apikey=${KEY}&secret=${SECRET}` });

describe.concurrent('network faults through the CLI', () => {
  it('connection refused: says so, after the configured tries', async () => {
    const closed = await startTestServer({ listing: [] });
    const url = closed.url;
    await closed.close();
    const outcome = await pullWith(() => undefined, ['--retries', '1'], url);
    expectRefused(outcome, 'after 2 tries: connection refused (ECONNREFUSED)');
  });

  it('connection reset mid-body, every time: exit 2, nothing written', async () => {
    const outcome = await pullWith((s) => s.setPersistentFault({ kind: 'reset', afterBytes: 40 }), ['--retries', '1']);
    expectRefused(outcome, /after 2 tries: /);
    expect(outcome.server.requests).toHaveLength(2);
  });

  it('connection reset mid-body once: retried, then pulled', async () => {
    const outcome = await pullWith((s) => s.queueFaults({ kind: 'reset', afterBytes: 40 }));
    expectPulled(outcome);
    expect(retries(outcome.run)).toHaveLength(1);
  });

  it('a body slower than --timeout: timed out, says which flag', async () => {
    const outcome = await pullWith((s) => s.setPersistentFault({ kind: 'slowBody', chunkDelayMs: 400, chunks: 4 }), ['--timeout', '500', '--retries', '0']);
    expectRefused(outcome, 'after 1 try: timed out after 500 ms (--timeout)');
  });

  it('429 with Retry-After in seconds, then success: waits what the server asks', async () => {
    const outcome = await pullWith((s) => s.queueFaults({ kind: 'status', status: 429, retryAfter: 1, body: FAULT_BODY_WITH_KEY }));
    expectPulled(outcome);
    expect(retries(outcome.run)).toEqual([{ ms: 1000, reason: 'status 429' }]);
    expect(outcome.slept).toEqual([1000]);
    expect(outcome.server.requests).toHaveLength(2);
  });

  it('a Retry-After longer than schema-sync waits: fails at once instead of hanging', async () => {
    const outcome = await pullWith((s) => s.queueFaults({ kind: 'status', status: 503, retryAfter: 3600 }));
    expectRefused(outcome, 'it asks to retry after 3600 s, longer than the 120 s schema-sync waits');
    expect(outcome.server.requests).toHaveLength(1);
    expect(retries(outcome.run)).toEqual([]);
  });

  it('502, 503, 504, then success', async () => {
    const outcome = await pullWith((s) =>
      s.queueFaults(
        { kind: 'status', status: 502, retryAfter: 0, body: FAULT_BODY_WITH_KEY },
        { kind: 'status', status: 503, retryAfter: 0 },
        { kind: 'status', status: 504, retryAfter: 0, body: '<html><body>Gateway Timeout</body></html>', contentType: 'text/html' },
      ),
    );
    expectPulled(outcome);
    expect(retries(outcome.run).map((r) => r.reason)).toEqual(['status 502', 'status 503', 'status 504']);
    expect(outcome.server.requests).toHaveLength(4);
  });

  it('504 without Retry-After: exponential backoff with jitter (0.25–0.5 s first), then success', async () => {
    const outcome = await pullWith((s) => s.queueFaults({ kind: 'status', status: 504 }));
    expectPulled(outcome);
    const [retry] = retries(outcome.run);
    expect(retry!.ms).toBeGreaterThanOrEqual(250);
    expect(retry!.ms).toBeLessThanOrEqual(500);
    expect(outcome.slept).toEqual([retry!.ms]);
  });

  it('retries exhausted: says how many tries and the last answer, with the echoed key redacted', async () => {
    const outcome = await pullWith((s) => s.setPersistentFault({ kind: 'status', status: 503, retryAfter: 0, body: FAULT_BODY_WITH_KEY }), ['--retries', '2']);
    expectRefused(outcome, /gave up after 3 tries; last answer: .* answered HTTP 503: \{"error":"overloaded","request":"apikey=\*\*\*&secret=\*\*\*"\}/);
    expect(outcome.server.requests).toHaveLength(3);
  });

  it('a redirect is followed (the Location carrying the key stays unprinted)', async () => {
    const outcome = await pullWith((s) =>
      s.queueFaults({ kind: 'redirect', status: 307, location: `/rest/proto?apikey=${KEY}&secret=${SECRET}&moved=1` }),
    );
    expectPulled(outcome);
    expect(outcome.server.requests.map((r) => r.query['moved'])).toEqual([undefined, '1']);
  });

  it('a redirect loop: named as such, not retried, exit 2', async () => {
    const outcome = await pullWith((s) => s.setPersistentFault({ kind: 'redirect', location: `/rest/proto?secret=${SECRET}&apikey=${KEY}` }));
    expectRefused(outcome, /the service redirected in a loop, back to .*\/rest\/proto\?secret=\*\*\*&apikey=\*\*\*, where it had already sent schema-sync/);
    expect(outcome.server.requests).toHaveLength(2);
    expect(retries(outcome.run)).toEqual([]);
  });

  it('more than 5 redirects: "too many redirects", not "answered HTTP 302", not retried', async () => {
    const outcome = await pullWith((s) => s.queueFaults(...Array.from({ length: 6 }, (_, i) => ({ kind: 'redirect' as const, location: `/rest/proto?hop=${i}` }))));
    expectRefused(outcome, /too many redirects \(more than 5\) starting at http:\/\/127\.0\.0\.1:\d+\/rest\/proto\?apikey=\*\*\*&secret=\*\*\*\./);
    expect(outcome.run.stderr).not.toContain('HTTP 302');
    expect(outcome.server.requests).toHaveLength(6);
    expect(retries(outcome.run)).toEqual([]);
  });

  it.each<[string, Fault, string]>([
    ['a redirect to file:', { kind: 'redirect', location: 'file:///etc/passwd' }, 'schema-sync follows only http: and https: redirects'],
    ['a gzip body that does not decode', { kind: 'undecodable' }, 'says Content-Encoding: gzip, but its body cannot be decompressed'],
    ['a gzip body cut short', { kind: 'gzip', cutAt: 30 }, 'but its body ends before the compressed data does'],
    ['a TLS port spoken to with http://', { kind: 'tls' }, 'it looks like a TLS (https://) port reached with http://'],
  ])('%s: said so, one request, no retry, exit 2', async (_, fault, message) => {
    const outcome = await pullWith((s) => s.setPersistentFault(fault));
    expectRefused(outcome, message);
    expect(outcome.server.requests).toHaveLength(1);
    expect(retries(outcome.run)).toEqual([]);
  });

  it('https:// to a plain HTTP port: the server does not speak TLS, no retry, exit 2', async () => {
    const server = await startTestServer({ listing: LISTING });
    cleanup.push(() => server.close());
    const outcome = await pullWith(() => undefined, [], server.url.replace('http:', 'https:'));
    expectRefused(outcome, 'the server does not speak TLS');
    expect(retries(outcome.run)).toEqual([]);
  });

  it('a gzip body is decoded (deflate and br: test/fetch)', async () => {
    expectPulled(await pullWith((s) => s.queueFaults({ kind: 'gzip' })));
  });

  it('a 200 body that is not JSON (echoing the key): exit 2, excerpt redacted', async () => {
    const outcome = await pullWith((s) =>
      s.setPersistentFault({ kind: 'status', status: 200, body: `internal error for apikey=${KEY}; try later`, contentType: 'text/plain' }),
    );
    expectRefused(outcome, /expected a JSON array, got text\/plain that is not JSON .*apikey=\*\*\*; try later/);
  });

  it('a JSON object instead of an array: exit 2', async () => {
    const outcome = await pullWith((s) => s.setPersistentFault({ kind: 'json', body: { messages: LISTING, apikey: KEY } }));
    expectRefused(outcome, 'expected a JSON array of descriptors, got a JSON object');
  });

  it('an array of non-objects: exit 2, each element named', async () => {
    const outcome = await pullWith((s) => s.setPersistentFault({ kind: 'json', body: [1, 'two', null, [3], true] }));
    expectRefused(outcome, '5 invalid fields in the listing');
    for (const [index, got] of [[0, '1'], [1, '"two"'], [2, 'null'], [3, '[3]'], [4, 'true']] as const) {
      expect(outcome.run.stderr).toContain(`element ${index}, field (element): expected an object { header, message }, got ${got}`);
    }
  });

  it('a body that never ends: RESPONSE naming --max-bytes, one request, peak RSS bounded', async () => {
    const outcome = await pullWith((s) => s.setPersistentFault({ kind: 'endless' }), ['--max-bytes', '2000000'], undefined, true);
    expectRefused(outcome, 'error [RESPONSE]: ');
    expect(outcome.run.stderr).toContain('the answer is larger than the limit of 2000000 bytes (--max-bytes); schema-sync stopped reading it.');
    expect(outcome.run.stderr).toContain('raise --max-bytes');
    expect(outcome.server.requests).toHaveLength(1);
    expect(outcome.rssKiB).toBeGreaterThan(0);
    expect(outcome.rssKiB).toBeLessThan(RSS_BOUND_KIB);
  });

  it('a gzip bomb (2 GiB from 2 MB): RESPONSE once the inflated bytes pass the limit, peak RSS bounded', async () => {
    const outcome = await pullWith((s) => s.setPersistentFault({ kind: 'gzipBomb' }), ['--max-bytes', '2000000'], undefined, true);
    expectRefused(outcome, 'error [RESPONSE]: ');
    expect(outcome.run.stderr).toContain('the answer, once decompressed (gzip), is larger than the limit of 2000000 bytes (--max-bytes)');
    expect(outcome.server.requests).toHaveLength(1);
    expect(outcome.rssKiB).toBeLessThan(RSS_BOUND_KIB);
  });

  it('an unknown field nested 100,000 deep: VALIDATION naming the element, not a RangeError', async () => {
    const head = JSON.stringify(wireElement({ name: 'Deep', mNum: 99 })).slice(0, -2);
    const body = `[${JSON.stringify(LISTING[0])},${head},"deep":${'['.repeat(100_000)}${']'.repeat(100_000)}}}]`;
    const outcome = await pullWith((s) => s.setPersistentFault({ kind: 'bytes', body: Buffer.from(body) }));
    expectRefused(outcome, 'error [VALIDATION]: ');
    expect(outcome.run.stderr).toContain('element 1 ("Deep"), field message.deep.0.0.…: nested more than 64 levels deep');
    expect(outcome.run.stderr).not.toMatch(/INTERNAL|RangeError/);
  });

  it('a body that is not UTF-8: RESPONSE naming the byte offset', async () => {
    const text = JSON.stringify([wireElement({ name: 'AccountRouteConfig' })]);
    const at = text.indexOf('Config');
    const body = Buffer.concat([Buffer.from(text.slice(0, at)), Buffer.from([0xff, 0xfe]), Buffer.from(text.slice(at))]);
    const outcome = await pullWith((s) => s.setPersistentFault({ kind: 'bytes', body }));
    expectRefused(outcome, `error [RESPONSE]: `);
    expect(outcome.run.stderr).toContain(`the answer is not valid UTF-8: at byte ${at} (0xFF 0xFE`);
  });

  it('maxBytes from the config file applies to --input; a flag overrides it', async () => {
    const dir = await tempDir();
    cleanup.push(() => removeDir(dir));
    await writeFile(join(dir, 'schema-sync.config.json'), JSON.stringify({ maxBytes: 1000 }));
    await writeFile(join(dir, 'listing.json'), JSON.stringify(smallListing(20)));
    const run = await runCli(['pull', '--input', 'listing.json', '--out', 'out'], { cwd: dir });
    expect(run.code, run.stderr).toBe(2);
    expect(run.stderr).toContain('listing.json: the input is larger than the limit of 1000 bytes (--max-bytes)');
    expect((await runCli(['pull', '--input', 'listing.json', '--out', 'out', '--max-bytes', '100000', '--quiet'], { cwd: dir })).code).toBe(0);
  });
});
