/**
 * Answers that no retry can mend, refused at once with a message that says what happened (each
 * asserts how many requests the server saw: one try, no retries), and answers too large, too deep
 * or not UTF-8, refused before they can take the memory or the stack. Against the reference
 * server's fault switches, and for `--input` files and standard input alike.
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import fc from 'fast-check';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { fetchDescriptors, fetchSchemas, readListingInput, type FetchEvent, type FetchOptions } from '../../src/fetch/index.js';
import { notUtf8Error } from '../../src/fetch/utf8.js';
import { startTestServer, type Fault, type TestServer } from '../helpers/server/index.js';
import { removeDir, tempDir } from '../helpers/cli.js';
import { smallListing, wireElement } from '../helpers/listing.js';

let server: TestServer;
let dir: string;
const KEY = 'key-7a1c9e';

beforeAll(async () => {
  server = await startTestServer({ listing: smallListing(3) });
  dir = await tempDir();
});
afterAll(async () => {
  await server.close();
  await removeDir(dir);
});
beforeEach(() => {
  server.setListing(smallListing(3));
  server.setPersistentFault(undefined);
  server.requests.length = 0;
});

type Failure = Error & { code?: string; hint?: string };

/** The error of a fetch allowed three retries, each try counted from the events. */
async function failure(options: Partial<FetchOptions> = {}): Promise<{ error: Failure; tries: number }> {
  let tries = 0;
  const onEvent = (event: FetchEvent) => void (event.type === 'request' && tries++);
  try {
    await fetchDescriptors({ baseUrl: server.url, backoff: { baseDelayMs: 1, maxDelayMs: 1 }, retries: 3, timeout: 10_000, onEvent, ...options });
  } catch (error) {
    return { error: error as Failure, tries };
  }
  throw new Error('expected the fetch to fail');
}

/** The error of reading `input` (a file, or `-` with `stdin`). */
async function inputFailure(options: Parameters<typeof readListingInput>[0]): Promise<Failure> {
  try {
    (await readListingInput(options)).parse();
  } catch (error) {
    return error as Failure;
  }
  throw new Error('expected the input to be refused');
}

describe('what a retry cannot mend is not retried', () => {
  it.each<[string, Fault, string]>([
    ['a body that is not gzip at all', { kind: 'undecodable' }, 'says Content-Encoding: gzip, but its body cannot be decompressed (incorrect header check)'],
    ['a br body that is not br', { kind: 'undecodable', encoding: 'br' }, 'says Content-Encoding: br, but its body cannot be decompressed'],
    ['a gzip body cut short, though every announced byte came', { kind: 'gzip', cutAt: 40 }, 'says Content-Encoding: gzip, but its body ends before the compressed data does (unexpected end of file)'],
    ['a deflate body cut short', { kind: 'deflate', cutAt: 10 }, 'says Content-Encoding: deflate, but its body ends before the compressed data does'],
    ['a redirect to file:', { kind: 'redirect', location: 'file:///etc/passwd' }, 'the service redirected to file: (file:///etc/passwd); schema-sync follows only http: and https: redirects'],
    ['a redirect to ftp:', { kind: 'redirect', location: 'ftp://127.0.0.1/rest/proto', status: 301 }, 'redirected to ftp:'],
    ['a TLS port spoken to in plain HTTP', { kind: 'tls' }, "the server's answer is not HTTP (Response does not match the HTTP/1.1 protocol"],
  ])('%s: one request, RESPONSE/NETWORK error saying so', async (_, fault, message) => {
    server.setPersistentFault(fault);
    const { error, tries } = await failure();
    expect(error.message).toContain(message);
    expect(['RESPONSE', 'NETWORK']).toContain(error.code);
    expect(error.hint).toBeTruthy();
    expect(tries).toBe(1);
    expect(server.requests).toHaveLength(1);
  });

  it('a redirect loop: named as such, after the one pass round it', async () => {
    server.queueFaults({ kind: 'redirect', location: '/rest/proto?hop=1' }, { kind: 'redirect', location: `/rest/proto?apikey=${KEY}` });
    const { error, tries } = await failure({ apiKey: KEY });
    expect(error.code).toBe('NETWORK');
    expect(error.message).toBe(`${server.url}/rest/proto?apikey=***: the service redirected in a loop, back to ${server.url}/rest/proto?apikey=***, where it had already sent schema-sync.`);
    expect([tries, server.requests.length]).toEqual([1, 2]);
  });

  it('five redirects are followed; the sixth is "too many redirects (more than 5) starting at <url>", secrets hidden', async () => {
    const hops = (n: number): Fault[] => Array.from({ length: n }, (_, i) => ({ kind: 'redirect', location: `/rest/proto?hop=${i + 1}` }));
    server.queueFaults(...hops(5));
    expect((await fetchDescriptors({ baseUrl: server.url })).descriptors).toHaveLength(3);
    expect(server.requests.map((r) => r.query['hop'])).toEqual([undefined, '1', '2', '3', '4', '5']);

    server.requests.length = 0;
    server.queueFaults(...hops(6));
    const { error, tries } = await failure({ apiKey: KEY });
    expect(error.code).toBe('NETWORK');
    expect(error.message).toBe(`too many redirects (more than 5) starting at ${server.url}/rest/proto?apikey=***.`);
    expect(error.message).not.toContain('HTTP 302');
    expect([tries, server.requests.length]).toEqual([1, 6]);
  });

  it('https:// to a plain HTTP port: says the server does not speak TLS, one try', async () => {
    const { error, tries } = await failure({ baseUrl: server.url.replace('http:', 'https:') });
    expect(error.code).toBe('NETWORK');
    expect(error.message).toContain('the server does not speak TLS (ERR_SSL_');
    expect(error.hint).toContain('use http://');
    expect(tries).toBe(1);
  });

  it('a redirect from http: to https: on a plain HTTP port: the same, and the server saw one request', async () => {
    const { port } = new URL(server.url);
    server.queueFaults({ kind: 'redirect', location: `https://127.0.0.1:${port}/rest/proto` });
    const { error, tries } = await failure();
    expect(error.message).toContain('the server does not speak TLS');
    expect([tries, server.requests.length]).toEqual([1, 1]);
  });

  it('a cut connection is still retried (it may go through next time)', async () => {
    server.queueFaults({ kind: 'reset', afterBytes: 20 }, { kind: 'gzip' });
    const { descriptors } = await fetchDescriptors({ baseUrl: server.url, backoff: { baseDelayMs: 1, maxDelayMs: 1 } });
    expect(descriptors).toHaveLength(3);
    expect(server.requests).toHaveLength(2);
  });
});

describe('--max-bytes: the decoded body is counted as it streams in', () => {
  it('an endless body: stopped past the limit, RESPONSE naming it and --max-bytes, not retried', async () => {
    server.setPersistentFault({ kind: 'endless' });
    const { error, tries } = await failure({ maxBytes: 100_000 });
    expect(error.code).toBe('RESPONSE');
    expect(error.message).toBe(`${server.url}/rest/proto: the answer is larger than the limit of 100000 bytes (--max-bytes); schema-sync stopped reading it.`);
    expect(error.hint).toContain('raise --max-bytes (config "maxBytes")');
    expect([tries, server.requests.length]).toEqual([1, 1]);
  });

  it('a gzip bomb: stopped once the inflated bytes pass the limit', async () => {
    server.setPersistentFault({ kind: 'gzipBomb', inflatedBytes: 64 * 1024 ** 2 });
    const { error, tries } = await failure({ maxBytes: 1024 ** 2 });
    expect(error.code).toBe('RESPONSE');
    expect(error.message).toContain('the answer, once decompressed (gzip), is larger than the limit of 1048576 bytes (1 MiB, --max-bytes)');
    expect(tries).toBe(1);
  });

  it('a body of exactly the limit is read; one byte less is refused', async () => {
    const size = Buffer.byteLength(JSON.stringify(smallListing(3)));
    expect((await fetchDescriptors({ baseUrl: server.url, maxBytes: size })).descriptors).toHaveLength(3);
    server.queueFaults({ kind: 'gzip' });
    expect((await fetchDescriptors({ baseUrl: server.url, maxBytes: size })).descriptors).toHaveLength(3);
    const { error } = await failure({ maxBytes: size - 1 });
    expect(error.message).toContain(`larger than the limit of ${size - 1} bytes`);
  });

  it('a body gzipped twice (Content-Encoding: gzip, gzip) is decoded twice, not refused as not UTF-8 (issue 42 item 16)', async () => {
    server.queueFaults({ kind: 'gzipTwice' });
    expect((await fetchDescriptors({ baseUrl: server.url })).descriptors).toHaveLength(3);
  });

  it.each([0, -1, 1.5, Number.NaN])('refuses --max-bytes %s before any request', async (maxBytes) => {
    const { error, tries } = await failure({ maxBytes });
    expect(error.code).toBe('CONFIG');
    expect(error.message).toContain('--max-bytes must be a whole number of bytes greater than 0');
    expect(tries).toBe(0);
  });

  it('applies to --input files and standard input', async () => {
    const file = join(dir, 'big.json');
    await writeFile(file, JSON.stringify(smallListing(50)));
    const fromFile = await inputFailure({ input: file, maxBytes: 1000 });
    expect(fromFile.code).toBe('RESPONSE');
    expect(fromFile.message).toBe(`${file}: the input is larger than the limit of 1000 bytes (--max-bytes); schema-sync stopped reading it.`);
    // An endless standard input is stopped too.
    const endless = Readable.from((function* () {
      for (;;) yield Buffer.alloc(64 * 1024, ' ');
    })());
    const fromStdin = await inputFailure({ input: '-', stdin: endless, maxBytes: 1024 ** 2 });
    // Text chunks are counted as their UTF-8 bytes, like a file's.
    const text = JSON.stringify(smallListing(2));
    expect((await readListingInput({ input: '-', stdin: Readable.from([text]), maxBytes: Buffer.byteLength(text) })).parse().descriptors).toHaveLength(2);
    expect(fromStdin.message).toContain('standard input: the input is larger than the limit of 1048576 bytes (1 MiB, --max-bytes)');
    expect(endless.destroyed).toBe(true);
  });
});

/** A wire element whose unknown field `deep` nests `depth` objects. */
function deepElement(name: string, mNum: number, depth: number): string {
  const head = JSON.stringify(wireElement({ name, mNum })).slice(0, -2);
  return `${head},"deep":${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}}}`;
}

describe('--input given something that is not a saved answer', () => {
  // No URL was asked: the hints say what --input reads, not "check --base-url".
  it.each([
    ['text that is not JSON', 'garbage'],
    ['an HTML page', '<html><body>Sign in</body></html>'],
    ['nothing', ''],
    ['a JSON object', '{"error":"x"}'],
  ])('%s on standard input: the hint says what --input reads', async (_label, text) => {
    const error = await inputFailure({ input: '-', stdin: Readable.from([text]) });
    expect(error.message).toMatch(/^standard input: expected a JSON array/);
    expect(error.hint).toBe('--input reads an answer saved from GET {base_url}/rest/proto (a JSON array of descriptors): check what was given to --input (here standard input), or fetch with --base-url instead.');
  });
});

describe('deep nesting: refused before anything recursive meets it', () => {
  it.each([2_500, 100_000])('an unknown field %i deep: VALIDATION naming the element (index and name) and the limit', async (depth) => {
    const body = `[${JSON.stringify(wireElement({ name: 'Flat', mNum: 1 }))},${deepElement('Deep', 2, depth)}]`;
    server.setPersistentFault({ kind: 'bytes', body: Buffer.from(body) });
    const { error, tries } = await failure();
    expect(error.code).toBe('VALIDATION');
    expect(error.message).toContain('element 1 ("Deep"), field message.deep.a.a.…: nested more than 64 levels deep (the most schema-sync keeps)');
    expect(error.message).not.toMatch(/RangeError|call stack/);
    expect(tries).toBe(1);

    const file = join(dir, `deep-${depth}.json`);
    await writeFile(file, body);
    const fromFile = await inputFailure({ input: file });
    expect(fromFile.code).toBe('VALIDATION');
    expect(fromFile.message).toContain('element 1 ("Deep"), field message.deep.a.a.…: nested more than 64 levels deep');
  });

  it('64 levels are kept: an element with a field 62 deep is read', async () => {
    server.setPersistentFault({ kind: 'bytes', body: Buffer.from(`[${deepElement('Deep', 2, 62)}]`) });
    const { descriptors } = await fetchDescriptors({ baseUrl: server.url });
    expect(descriptors[0]!.extra['deep']).toBeDefined();
    server.setPersistentFault({ kind: 'bytes', body: Buffer.from(`[${deepElement('Deep', 2, 63)}]`) });
    expect((await failure()).error.code).toBe('VALIDATION');
  });

  it('a body that is not an array: named for that, and for its depth when too deep', async () => {
    server.setPersistentFault({ kind: 'bytes', body: Buffer.from(`${'{"a":'.repeat(50_000)}1${'}'.repeat(50_000)}`) });
    const { error } = await failure();
    expect(error.code).toBe('RESPONSE');
    expect(error.message).toContain('expected a JSON array, got a JSON value nested more than 64 levels deep');
    server.setPersistentFault({ kind: 'bytes', body: Buffer.from(`${'{"a":'.repeat(10)}1${'}'.repeat(10)}`) });
    expect((await failure()).error.message).toContain('expected a JSON array of descriptors, got a JSON object');
  });
});

describe('a body that is not UTF-8', () => {
  const bad = (text: string, at: number, bytes: number[]) => {
    const valid = Buffer.from(text);
    return Buffer.concat([valid.subarray(0, at), Buffer.from(bytes), valid.subarray(at)]);
  };

  it('is a RESPONSE error naming the byte offset, from the service and from --input', async () => {
    const text = JSON.stringify([wireElement({ name: 'AccountRouteConfig', mNum: 7 })]);
    const at = text.indexOf('RouteConfig') + 'Route'.length;
    const body = bad(text, at, [0xc3, 0x28]);
    server.setPersistentFault({ kind: 'bytes', body });
    const { error, tries } = await failure();
    expect(error.code).toBe('RESPONSE');
    expect(error.message).toContain(`the answer is not valid UTF-8: at byte ${at} (0xC3 0x28 0x43 0x6F), after "`);
    expect(error.message).toContain('AccountRoute"');
    expect(tries).toBe(1);

    const file = join(dir, 'latin1.json');
    await writeFile(file, body);
    const fromFile = await inputFailure({ input: file });
    expect(fromFile.code).toBe('RESPONSE');
    expect(fromFile.message).toContain(`${file}: the answer is not valid UTF-8: at byte ${at}`);
  });

  it('valid UTF-8 of every length (and a byte order mark) is read as before', async () => {
    const names = ['Café', 'Ωmega', '日本', 'Emoji😀'];
    const body = `\uFEFF${JSON.stringify(names.map((name, i) => wireElement({ name, mNum: i })))}`;
    server.setPersistentFault({ kind: 'bytes', body: Buffer.from(body) });
    const { descriptors } = await fetchDescriptors({ baseUrl: server.url });
    expect(descriptors.map((d) => d.name).sort()).toEqual([...names].sort());
  });

  it('the offset named is where the valid prefix ends', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 40 }), (bytes) => {
        const buffer = Buffer.from(bytes);
        if (isValid(buffer)) return;
        const at = Number(/at byte (\d+)/.exec(notUtf8Error(buffer, 'x', (text) => text).message)![1]);
        expect(isValid(buffer.subarray(0, at))).toBe(true);
        expect(isValid(buffer.subarray(0, at + 1))).toBe(false);
      }),
      { seed: 18, numRuns: 2_000 },
    );
  });
});

describe('a Content-Encoding schema-sync does not know', () => {
  it('is read as it is, also when it is named like a property of every object (constructor, toString, __proto__)', async () => {
    for (const contentEncoding of ['identity', 'constructor', 'toString', '__proto__']) {
      server.setPersistentFault({ kind: 'bytes', body: Buffer.from(JSON.stringify(smallListing(2))), contentEncoding });
      const { descriptors } = await fetchDescriptors({ baseUrl: server.url, retries: 0 });
      expect(descriptors, contentEncoding).toHaveLength(2);
    }
  });
});

describe('an answer that echoes the key where it cannot be read', () => {
  const key = 'k3yABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';
  /** No six characters of the key in a row, anywhere in the error or its hint. */
  const expectNoPartOfKey = (error: Failure) => {
    for (let at = 0; at + 6 <= key.length; at++) expect(`${error.message}\n${error.hint}`).not.toContain(key.slice(at, at + 6));
  };

  it('a body that is not JSON and starts with the key: the error says where JSON failed, not what JSON.parse quoted', async () => {
    server.setPersistentFault({ kind: 'bytes', body: Buffer.from(`${key} is not a valid key`) });
    const { error } = await failure({ apiKey: key });
    expect(error.message).toMatch(/that is not JSON \(invalid\): \*\*\* is not a valid key/);
    expectNoPartOfKey(error);
  });

  it('a body that is not UTF-8 shortly after the key: the context before the bad byte is redacted, then cut', async () => {
    // The 40 characters shown before the bad byte hold the key whole, its end, or none of it.
    for (const after of ['', ' and then twenty more', ' and then more than forty characters of text']) {
      server.setPersistentFault({ kind: 'bytes', body: Buffer.concat([Buffer.from(`[{"message":{"desc":"echo ${key}${after}`), Buffer.from([0xff]), Buffer.from('"}}]')]) });
      const { error } = await failure({ apiKey: key });
      expect(error.message).toMatch(/not valid UTF-8: at byte \d+ \(0xFF.*\), after "/);
      expectNoPartOfKey(error);
    }
  });
});

describe('getschema answers (--fields) are read through the same checks', () => {
  it.each<[string, Fault, string, string]>([
    ['a body that never ends', { kind: 'endless' }, 'RESPONSE', 'the answer is larger than the limit of 100000 bytes (--max-bytes)'],
    ['a body that is not UTF-8', { kind: 'bytes', body: Uint8Array.from([0x5b, 0xc3, 0x5d]) }, 'RESPONSE', 'the answer is not valid UTF-8: at byte 1'],
    ['a field nested 2,500 deep', { kind: 'bytes', body: Buffer.from(`[{"header":{"msgType":"FieldDesc"},"message":{"name":"f","x":${'['.repeat(2_500)}${']'.repeat(2_500)}}}]`) }, 'VALIDATION', 'element 0 ("f"), field message.x.0.0.…: nested more than 64 levels deep'],
    ['a redirect loop', { kind: 'redirect', location: '/rest/proto?cmd=getschema&msgType=T0000' }, 'NETWORK', 'the service redirected in a loop'],
  ])('%s', async (_, fault, code, message) => {
    server.setPersistentFault(fault);
    const error = await fetchSchemas({ baseUrl: server.url, names: ['T0000'], maxBytes: 100_000, backoff: { baseDelayMs: 1, maxDelayMs: 1 } }).then(
      () => undefined,
      (e: unknown) => e as Failure,
    );
    expect(error?.code).toBe(code);
    expect(error?.message).toContain(message);
    expect(server.requests).toHaveLength(1);
  });
});

/** What a fatal TextDecoder says of the bytes. */
function isValid(bytes: Uint8Array): boolean {
  try {
    new TextDecoder('utf-8', { fatal: true }).decode(bytes);
    return true;
  } catch {
    return false;
  }
}
