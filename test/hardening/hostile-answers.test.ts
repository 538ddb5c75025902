/**
 * Hostile answers through the built CLI: a body that never ends and a gzip bomb stop at
 * `--max-bytes` with a RESPONSE error, and the process's peak memory stays bounded (measured in
 * the child itself); values nested thousands deep and bytes that are not UTF-8 are errors naming
 * where, never INTERNAL. Every failure leaves the folder as it was.
 *
 * The library-level cases (exact limits, every fault, files and standard input) are in
 * test/fetch/refused-answers.test.ts.
 */
import { cp, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startReferenceServer, type Fault, type ReferenceServer } from '../../src/server/index.js';
import { readTree, removeDir, runBin, tempDir, type CliRun } from '../helpers/cli.js';
import { smallListing, wireElement } from '../helpers/listing.js';

const LISTING = smallListing(5);
/**
 * Peak RSS allowed to a run that refuses a hostile body at a 2 MB limit. A run that buffered the
 * body would grow by the gigabytes these faults send (issue 18 saw 6.4 GB); schema-sync itself
 * needs well under half of this.
 */
const RSS_BOUND_KIB = 200 * 1024;

let template: string;
const cleanup: Array<() => Promise<unknown>> = [];

beforeAll(async () => {
  const server = await startReferenceServer({ listing: LISTING });
  template = await tempDir();
  const run = await runBin(['pull', '--base-url', server.url, '--out', 'out', '--quiet'], { cwd: template });
  await server.close();
  expect(run.code, run.stderr).toBe(0);
});
afterAll(async () => {
  await Promise.all(cleanup.map((f) => f()));
  await removeDir(template);
});

interface Outcome {
  run: CliRun;
  server: ReferenceServer;
  /** The child's peak resident set size, KiB. */
  rssKiB: number;
  unchanged: boolean;
}

/** `pull` against a fresh server answering with `fault`, in a copy of the pulled folder. */
async function pullAgainst(fault: Fault, extra: string[] = []): Promise<Outcome> {
  const server = await startReferenceServer({ listing: LISTING });
  server.setPersistentFault(fault);
  const dir = await tempDir();
  cleanup.push(() => server.close(), () => removeDir(dir));
  await cp(template, dir, { recursive: true });
  const before = await readTree(dir);
  const rssFile = join(dir, '..', `${dir.split('/').pop()}.rss`);
  cleanup.push(() => removeDir(rssFile));
  const run = await runBin(['pull', '--base-url', server.url, '--out', 'out', '--timeout', '60000', ...extra], { cwd: dir, rssFile, timeoutMs: 90_000 });
  const after = await readTree(dir);
  return { run, server, rssKiB: Number(await readFile(rssFile, 'utf8')), unchanged: JSON.stringify([...after]) === JSON.stringify([...before]) };
}

function expectError(outcome: Outcome, code: string, message: string): void {
  expect(outcome.run.code, outcome.run.stderr).toBe(2);
  expect(outcome.run.stderr).toContain(`error [${code}]: `);
  expect(outcome.run.stderr).toContain(message);
  expect(outcome.run.stderr).not.toMatch(/INTERNAL|RangeError/);
  expect(outcome.unchanged).toBe(true);
}

describe.concurrent('hostile answers through the CLI', () => {
  it('a body that never ends: RESPONSE naming --max-bytes, one request, peak RSS bounded', async () => {
    const outcome = await pullAgainst({ kind: 'endless' }, ['--max-bytes', '2000000']);
    expectError(outcome, 'RESPONSE', 'the answer is larger than the limit of 2000000 bytes (--max-bytes); schema-sync stopped reading it.');
    expect(outcome.run.stderr).toContain('raise --max-bytes');
    expect(outcome.server.requests).toHaveLength(1);
    expect(outcome.rssKiB).toBeGreaterThan(0);
    expect(outcome.rssKiB).toBeLessThan(RSS_BOUND_KIB);
  });

  it('a gzip bomb (2 GiB from 2 MB): RESPONSE once the inflated bytes pass the limit, peak RSS bounded', async () => {
    const outcome = await pullAgainst({ kind: 'gzipBomb' }, ['--max-bytes', '2000000']);
    expectError(outcome, 'RESPONSE', 'the answer, once decompressed (gzip), is larger than the limit of 2000000 bytes (--max-bytes)');
    expect(outcome.server.requests).toHaveLength(1);
    expect(outcome.rssKiB).toBeLessThan(RSS_BOUND_KIB);
  });

  it('maxBytes from the config file applies to --input', async () => {
    const dir = await tempDir();
    cleanup.push(() => removeDir(dir));
    await writeFile(join(dir, 'schema-sync.config.json'), JSON.stringify({ maxBytes: 1000 }));
    await writeFile(join(dir, 'listing.json'), JSON.stringify(smallListing(20)));
    const run = await runBin(['pull', '--input', 'listing.json', '--out', 'out'], { cwd: dir });
    expect(run.code, run.stderr).toBe(2);
    expect(run.stderr).toContain('listing.json: the input is larger than the limit of 1000 bytes (--max-bytes)');
    // A flag overrides the file.
    expect((await runBin(['pull', '--input', 'listing.json', '--out', 'out', '--max-bytes', '100000', '--quiet'], { cwd: dir })).code).toBe(0);
  });

  it('an unknown field nested 100,000 deep: VALIDATION naming the element, not a RangeError', async () => {
    const head = JSON.stringify(wireElement({ name: 'Deep', mNum: 99 })).slice(0, -2);
    const body = `[${JSON.stringify(LISTING[0])},${head},"deep":${'['.repeat(100_000)}${']'.repeat(100_000)}}}]`;
    const outcome = await pullAgainst({ kind: 'bytes', body: Buffer.from(body) });
    expectError(outcome, 'VALIDATION', 'element 1 ("Deep"), field message.deep.0.0.…: nested more than 64 levels deep');
  });

  it('a body that is not UTF-8: RESPONSE naming the byte offset', async () => {
    const text = JSON.stringify([wireElement({ name: 'AccountRouteConfig' })]);
    const at = text.indexOf('Config');
    const body = Buffer.concat([Buffer.from(text.slice(0, at)), Buffer.from([0xff, 0xfe]), Buffer.from(text.slice(at))]);
    const outcome = await pullAgainst({ kind: 'bytes', body });
    expectError(outcome, 'RESPONSE', `the answer is not valid UTF-8: at byte ${at} (0xFF 0xFE`);
  });
});
