/**
 * A key that is an ordinary word (`types`, `error`, `file`, `lockfile`, `schema`, `request`) never
 * shows itself by masking the program's own wording: only what came from outside (a server's
 * text, a name, a path, a library's message) is masked. Each common failure and warning is told
 * through the CLI twice, in the same folder: once with a word as the API key and another as the
 * secret, once with made-up credentials of the same lengths, which occur in no wording. What is
 * printed must be the same, byte for byte: the words masked exactly where the made-up ones are
 * (the server's echoes, in the body and the URL), and nowhere else.
 */
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isSchemaSyncError, ValidationError } from '../../src/model/errors.js';
import { messageText, msg } from '../../src/model/message.js';
import { createRedactor, redactError } from '../../src/model/redact.js';
import { startTestServer, type TestServer } from '../helpers/server/index.js';
import { runCli } from '../helpers/in-process.js';
import { wireElement } from '../helpers/listing.js';

/** Credentials that are words of the CLI's own wording. */
type Credentials = readonly [key: string, secret: string];

/** Made-up credentials of the same lengths as `words`: the same masking policy, in no wording. */
function madeUp([key, secret]: Credentials): Credentials {
  return ['zqxjkvwy'.slice(0, key.length), 'wvyjkqxz'.slice(0, secret.length)];
}

/**
 * A server answer that echoes the credentials, as real ones do, in a body and a header.
 */
function echoing(status: number, [key, secret]: Credentials) {
  return { kind: 'status', status, body: JSON.stringify({ message: `denied for apikey=${key}&secret=${secret}` }), headers: { 'x-echo': `${key}:${secret}` } } as const;
}

/**
 * One case: the credentials it is told with (words of its own wording), the state of the folder
 * and the server (returning the command line), and the exit and some of the program's own
 * wording the output must hold.
 */
interface Case {
  label: string;
  words: Credentials;
  arrange(dir: string, credentials: Credentials): Promise<string[]> | string[];
  exit: number;
  says: string[];
}

const PULL = ['pull', '--lockfile', 'l.json', '--out', 'out', '--retries', '0'];

let server: TestServer;
let dir: string;

const STATUS_WORDS: Record<number, Credentials> = { 401: ['service', 'request'], 403: ['check', 'credentials'], 404: ['path', 'added'], 500: ['failed', 'later'] };

const STATUS_HINTS: Record<number, string> = {
  401: 'hint: The service refused the credentials: check --api-key / SCHEMA_SYNC_API_KEY and --secret / SCHEMA_SYNC_SECRET.',
  403: 'hint: The service refused the credentials: check --api-key / SCHEMA_SYNC_API_KEY and --secret / SCHEMA_SYNC_SECRET.',
  404: 'hint: Check --base-url: the service path /rest/proto is added to it.',
  500: 'hint: The service failed: try again later, or ask its operators.',
};

const CASES: Case[] = [
  {
    label: 'a bad listing element',
    words: ['field', 'listing'],
    arrange: () => (server.setListing([wireElement({ mNum: 'abc' })]), [...PULL, '--base-url', server.url]),
    exit: 2,
    says: ['1 invalid field in the listing:', 'field message.mNum: expected a non-negative integer', 'nothing was written'],
  },
  {
    label: 'duplicate names',
    words: ['name', 'lockfile'],
    arrange: () => (server.setListing([wireElement({ mNum: 1 }), wireElement({ mNum: 2 })]), [...PULL, '--base-url', server.url]),
    exit: 2,
    says: ['the listing has duplicates:', 'name "Order" appears at elements 0 and 1', 'Each message type needs a unique name and mNum; nothing was written. Fix the service data.'],
  },
  {
    label: 'an unknown action letter, and a desc that echoes the credentials',
    words: ['element', 'types'],
    arrange: (_dir, [key, secret]) => (server.setListing([wireElement({ actions: 'SXD', desc: `asked by apikey=${key}&secret=${secret}` })]), [...PULL, '--base-url', server.url, '--dry-run']),
    exit: 0,
    says: ['warning: the service echoed the API key or secret in element 0 of the listing; replaced by ***', 'warning: element 0: message "Order": unknown action letter "X" kept as is (known: SIURD).', 'Would lock 1 type (no lockfile before)'],
  },
  {
    label: 'a listing read with credentials that are words of the wire format (its keys are kept, a desc that echoes them is scrubbed)',
    words: ['schema', 'message'],
    arrange: (_dir, [key, secret]) => (server.setListing([wireElement({ desc: `asked by apikey=${key}&secret=${secret}` })]), [...PULL, '--base-url', server.url, '--dry-run']),
    exit: 0,
    says: ['warning: the service echoed the API key or secret in element 0 of the listing; replaced by ***', 'Would lock 1 type (no lockfile before)'],
  },
  ...[401, 403, 404, 500].map(
    (status): Case => ({
      label: `an HTTP ${status} that echoes the credentials`,
      words: STATUS_WORDS[status]!,
      arrange: (_dir, credentials) => (server.setPersistentFault(echoing(status, credentials)), [...PULL, '--base-url', server.url]),
      exit: 2,
      says: [`answered HTTP ${status}`, STATUS_HINTS[status]!],
    }),
  ),
  {
    label: 'a timeout',
    words: ['reachable', 'error'],
    arrange: () => (server.setPersistentFault({ kind: 'delay', ms: 60_000 }), [...PULL, '--base-url', server.url, '--timeout', '100']),
    exit: 2,
    says: ['after 1 try: (why).', 'hint: Check --base-url, that the service is up and reachable from here (proxy: HTTPS_PROXY/NO_PROXY), or raise --timeout/--retries.'],
  },
  {
    label: 'a bad config value',
    words: ['file', 'invalid'],
    arrange: async (at) => (await writeFile(join(at, 'c.json'), JSON.stringify({ retries: -1, lockfile: 'l.json' })), ['pull', '--config', 'c.json', '--base-url', server.url]),
    exit: 2,
    says: ['is invalid:\n  "retries" takes a whole number from 0 to 10', 'See the configuration reference, docs/configuration.md; known keys:'],
  },
  {
    label: 'no base URL and no config file found',
    words: ['service', 'config'],
    arrange: async (at) => (await mkdir(join(at, '.git')), PULL),
    exit: 2,
    says: ['error [CONFIG]: no base URL: schema-sync does not know where the service is.\n  no config file found (searched ', 'add "baseUrl" to schema-sync.config.json'],
  },
  {
    label: 'a lockfile that is not JSON',
    words: ['schema', 'valid'],
    arrange: async (at) => (await writeFile(join(at, 'l.json'), '{ not json'), ['generate', '--lockfile', 'l.json', '--out', 'out']),
    exit: 2,
    says: ['is not valid JSON', 'Restore it from version control, or delete it and run `schema-sync pull` to write a new one.'],
  },
  {
    label: 'an output folder another run holds',
    words: ['running', 'another'],
    arrange: async (at) => (await mkdir(join(at, 'out')), await writeFile(join(at, 'out', '.schema-sync-run.lock'), `${process.pid}@${hostname()}`), [...PULL, '--base-url', server.url, '--lock-wait', '0']),
    exit: 2,
    says: ['another schema-sync is running on', 'hint: Wait for it to finish. If no other run exists, delete'],
  },
];

beforeAll(async () => {
  server = await startTestServer({ listing: [wireElement()] });
  // A folder whose name holds none of the words: paths are outside text, masked where they hold one.
  dir = await mkdtemp(join(tmpdir(), 'ss-w-'));
});
afterAll(async () => {
  await server.close();
  await rm(dir, { recursive: true, force: true });
});

/** `args` told by the CLI with `credentials` (from the environment), in an emptied `dir`, the case arranged. */
async function told(item: Case, credentials: Credentials) {
  await rm(dir, { recursive: true, force: true });
  await mkdir(dir);
  server.setListing([wireElement()]);
  server.setPersistentFault(undefined);
  const args = await item.arrange(dir, credentials);
  const run = await runCli(args, { cwd: dir, env: { SCHEMA_SYNC_API_KEY: credentials[0], SCHEMA_SYNC_SECRET: credentials[1], SCHEMA_SYNC_CACHE_DIR: 'off' } });
  // What differs from run to run: how long it took, and which of the timeouts (the whole
  // exchange's, undici's for the headers or the connection, all --timeout) fired first.
  const stderr = run.stderr.replace(/ after 1 try: .*\.$/m, ' after 1 try: (why).').replace(/\b\d+(?:\.\d+)? m?s\b/g, '(time)');
  return { exit: run.code, stdout: run.stdout, stderr };
}

describe('a key that is an ordinary word', () => {
  it.each(CASES.map((item) => [item.label, item.words.join(' / '), item] as const))('%s, told with %s: the wording is intact, the echoes masked', async (_label, _words, item) => {
    const words = item.words;
    const withWords = await told(item, words);
    const withMadeUp = await told(item, madeUp(words));
    expect(withWords.exit).toBe(item.exit);
    for (const phrase of item.says) expect(withWords.stderr).toContain(phrase);
    expect(withWords).toEqual(withMadeUp);
    const [key, secret] = words;
    expect(withWords.stderr).not.toContain(`apikey=${key}`);
    expect(withWords.stderr).not.toContain(`secret=${secret}`);
  });
});

describe('the redactor masks the values of a message, never its template', () => {
  const redact = createRedactor(['types', 'error']);

  it('masks a value that is the word, and leaves the same word in the wording', () => {
    const message = msg`${3} message types: ${'types'} ${'an error'} (error)`;
    expect(messageText(message, redact)).toBe('3 message types: *** an *** (error)');
    expect(messageText(message)).toBe('3 message types: types an error (error)');
  });

  it('masks an error in place, message, hint and issues, once; a library error whole', () => {
    const error = new ValidationError(msg`${'x.json'}: 1 invalid field in the listing: ${'types'}`, [{ index: 0, name: 'types', field: msg`message.${'types'}`, message: msg`expected types, got ${'"types"'}` }], {
      hint: msg`Fix the types of ${'error'}.`,
    });
    redactError(redactError(error, redact), redact);
    expect(error.message).toBe('x.json: 1 invalid field in the listing: ***');
    expect(error.hint).toBe('Fix the types of ***.');
    expect(error.issues).toEqual([{ index: 0, name: '***', field: 'message.***', message: 'expected types, got "***"' }]);
    expect(error.stack!.startsWith('ValidationError: x.json: 1 invalid field in the listing: ***\n')).toBe(true);
    expect(isSchemaSyncError(error) && Object.keys(error)).not.toContain('said');
    const other = redactError(new TypeError('no types for error'), redact) as Error;
    expect(other.message).toBe('no *** for ***');
  });
});
