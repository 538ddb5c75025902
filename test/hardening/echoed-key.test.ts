/**
 * One redactor per run, one length policy: a server that echoes a 6-character key (the shortest
 * SECURITY.md promises to scrub) sees it masked the same way in every output, standing alone or
 * run together with other letters: in a listing's data (so the lockfile and the generated code),
 * every report format, a 401 page, a failed trailer's detail, `--verbose` request URLs, and the
 * errors the library API throws. The CLI runs in this process (test/helpers/in-process.ts): every
 * output it makes goes through the streams it is given, as the built CLI's go to the process's.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pull } from '../../src/index.js';
import { startReferenceServer, type ReferenceServer } from '../../src/server/index.js';
import { readTree, removeDir, tempDir } from '../helpers/cli.js';
import { runCli } from '../helpers/in-process.js';
import { wireElement } from '../helpers/listing.js';
import { leaks } from './helpers.js';

const KEY = 'k6Ab12';
/** The echo as the server writes it, and as every output must show it. */
const ECHO = { sent: `for ${KEY} and x${KEY}y`, masked: 'for *** and x***y' };
const REPORT_FORMATS = ['text', 'json', 'markdown', 'github'] as const;

let server: ReferenceServer;
let dir: string;

beforeAll(async () => {
  server = await startReferenceServer({ listing: [], apiKey: KEY });
  dir = await tempDir();
});
afterAll(async () => {
  await server.close();
  await removeDir(dir);
});

describe('a 6-character key the server echoes', () => {
  it('is masked the same way in every output', async () => {
    const env = { SCHEMA_SYNC_API_KEY: KEY };
    const args = ['--base-url', server.url, '--out', 'out', '--verbose'];
    /** Every output: [where, text, what it must show]. */
    const outputs: [where: string, text: string, shows: string][] = [];

    // In a listing's data: scrubbed before it is validated, warned about.
    server.setOptions({ apiKey: KEY, trailer: false, listing: [wireElement({ name: 'Echo', mNum: 7, desc: ECHO.sent })] });
    const pulled = await runCli(['pull', ...args], { cwd: dir, env });
    expect(pulled.code, pulled.stderr).toBe(0);
    outputs.push(['pull stderr (warning, --verbose URL)', pulled.stderr, 'apikey=***'], ['pull stdout', pulled.stdout, '']);
    outputs.push(['pull warning', pulled.stderr, 'the service echoed the API key or secret in element 0']);
    outputs.push(['lockfile', await readFile(join(dir, 'schema-sync.lock.json'), 'utf8'), ECHO.masked]);
    const generated = [...(await readTree(join(dir, 'out'))).entries()];
    for (const [path, text] of generated) outputs.push([`generated ${path}`, text, '']);
    outputs.push(['generated TSDoc', generated.map(([, text]) => text).join('\n'), ECHO.masked]);

    // Every report format: the echo in a changed desc and mToken.
    server.setOptions({ listing: [wireElement({ name: 'Echo', mNum: 7, desc: `now ${ECHO.sent}`, mToken: `x${KEY}y` })] });
    for (const format of REPORT_FORMATS) {
      const checked = await runCli(['check', ...args, '--format', format], { cwd: dir, env });
      expect(checked.code, checked.stderr).toBe(1);
      outputs.push([`${format} report`, checked.stdout, 'x***y'], [`check --format ${format} stderr`, checked.stderr, 'apikey=***']);
    }

    // Errors: a 401 page echoing the key received, a failed trailer echoing it in its detail.
    server.setOptions({ apiKey: 'another-key-000' });
    const refused = await runCli(['check', ...args], { cwd: dir, env });
    expect(refused.code).toBe(2);
    outputs.push(['401 error', refused.stderr, 'invalid apikey ***'], ['401 stdout', refused.stdout, '']);
    server.setOptions({ apiKey: KEY, trailer: { result: 'Error', detail: `bad apikey x${KEY}y` } });
    const trailer = await runCli(['check', ...args], { cwd: dir, env });
    expect(trailer.code).toBe(2);
    outputs.push(['trailer error', trailer.stderr, 'bad apikey x***y']);

    // The library API: what it throws.
    const thrown = await pull({ cwd: dir, baseUrl: server.url, out: 'out', apiKey: KEY, retries: 0 }).then(
      () => undefined,
      (error: unknown) => error as Error & { hint?: string },
    );
    expect(thrown).toBeDefined();
    outputs.push(['library error', `${thrown!.message}\n${thrown!.hint ?? ''}\n${thrown!.stack ?? ''}`, 'bad apikey x***y']);

    expect(leaks([KEY], outputs.map(([where, text]) => [where, text] as const))).toEqual([]);
    expect(outputs.filter(([, text, shows]) => !text.includes(shows)).map(([where]) => where)).toEqual([]);
  });
});

describe('a key the server echoes in another encoding, inside a listing', () => {
  /** A key with the characters encodings write differently, and a 7-character one without them. */
  const SPECIAL_KEY = 'k+y/Ab&c9';
  const SEVEN = 'Ab3dE7g';
  const CASES: [label: string, key: string, desc: string][] = [
    ['lower-case percent-encoded', SPECIAL_KEY, 'requested with apikey=k%2by%2fAb%26c9'],
    ['percent-encoded keeping /', SPECIAL_KEY, 'requested with apikey=k%2By/Ab%26c9'],
    ['HTML-escaped', SPECIAL_KEY, 'requested with apikey=k+y/Ab&amp;c9'],
    ['with numeric entities', SPECIAL_KEY, 'requested with apikey=k&#43;y&#x2f;Ab&#38;c9'],
    ['7 characters run together with letters', SEVEN, `requested with apikeyis${SEVEN}thanks`],
  ];

  it.each(CASES)('%s: neither stored in the lockfile nor generated', async (_label, key, desc) => {
    const cwd = await tempDir();
    try {
      server.setOptions({ apiKey: key, trailer: false, listing: [wireElement({ name: 'Echo', mNum: 7, desc })] });
      const warnings: string[] = [];
      await pull({ cwd, baseUrl: server.url, out: 'out', apiKey: key, retries: 0, onWarning: (text) => warnings.push(text) });
      expect(warnings.join('\n')).toContain('the service echoed the API key or secret in element 0');
      const files = [...(await readTree(cwd)).entries()];
      const echo = desc.slice('requested with '.length);
      expect(files.filter(([, text]) => text.toLowerCase().includes(echo.toLowerCase().replace(/^apikey=/, '')) || text.includes(key)).map(([path]) => path)).toEqual([]);
      expect(files.find(([path]) => path === 'schema-sync.lock.json')?.[1]).toContain('requested with apikey');
    } finally {
      await removeDir(cwd);
    }
  });
});
