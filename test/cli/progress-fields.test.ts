/**
 * The progress line counts getschema answers (issue 29 item 11): with fields on, "fields n/N" as
 * the field descriptors come in. The library reports the count (a `schemas` fetch event), the
 * CLI's hooks turn it into the progress line's stage; both seen through an injected sink.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { libraryHooks } from '../../src/cli/main.js';
import { createLogger } from '../../src/cli/logger.js';
import { fetchSchemas, type FetchEvent } from '../../src/fetch/index.js';
import { pull } from '../../src/run/pull.js';
import { removeDir, tempDir } from '../helpers/cli.js';
import { smallListing } from '../helpers/listing.js';
import { startTestServer, type TestServer } from '../helpers/server/index.js';
import { Capture } from './fake-io.js';

let server: TestServer;
let dir: string;
beforeAll(async () => {
  server = await startTestServer({ listing: smallListing(3) });
  server.setOptions({ schemas: { T0000: [{ pos: 1, name: 'id', fType: 'Int', isPkey: 'Yes' }] } });
  dir = await tempDir();
});
afterAll(async () => {
  await server.close();
  await removeDir(dir);
});

/** The CLI's hooks over a progress sink that keeps each stage it is told, and a logger that keeps --verbose lines. */
function recordingHooks() {
  const stages: string[] = [];
  const stderr = new Capture(false);
  const log = createLogger({ stdout: new Capture(false), stderr, stdin: process.stdin, env: {}, cwd: dir }, { quiet: false, verbose: true, color: false });
  return { stages, stderr, hooks: libraryHooks(log, { stage: (text) => stages.push(text) }) };
}

describe('getschema progress', () => {
  it('fetchSchemas counts its answers: 0/N first, then one more as each comes in', async () => {
    const counts: string[] = [];
    const onEvent = (event: FetchEvent) => void (event.type === 'schemas' && counts.push(`${event.done}/${event.total}`));
    await fetchSchemas({ baseUrl: server.url, names: ['T0000', 'T0001', 'T0002'], onEvent, concurrency: 2 });
    expect(counts).toEqual(['0/3', '1/3', '2/3', '3/3']);
  });

  it('the progress line says "fields n/N" while they come in, a retry beside it, and moves on with the next stage', () => {
    const { stages, stderr, hooks } = recordingHooks();
    hooks.onFetchEvent({ type: 'request', url: 'http://x/rest/proto', attempt: 1 });
    hooks.onStage('fetch', 5);
    hooks.onFetchEvent({ type: 'schemas', done: 0, total: 2 });
    hooks.onFetchEvent({ type: 'request', url: 'http://x/rest/proto?cmd=getschema&msgType=A', attempt: 1 });
    hooks.onFetchEvent({ type: 'schemas', done: 1, total: 2 });
    hooks.onFetchEvent({ type: 'retry', attempt: 1, delayMs: 1500, reason: 'status 503' });
    hooks.onFetchEvent({ type: 'schemas', done: 2, total: 2 });
    hooks.onStage('diff', 5);
    expect(stages).toEqual(['fetching', 'comparing', 'fields 0/2', 'fields 0/2', 'fields 1/2', 'fields 1/2, retrying in 1.5 s', 'fields 2/2', 'generating']);
    expect(stderr.text).toContain('getschema: the fields of 2 types to fetch\n');
    expect(stderr.text).not.toContain('fields 1/2');
  });

  it('a pull with fields on reports the count through its onFetchEvent', async () => {
    const { stages, hooks } = recordingHooks();
    await pull({ baseUrl: server.url, cwd: dir, out: 'out', fields: true, cacheDir: false, ...hooks });
    expect([...new Set(stages.filter((stage) => stage.startsWith('fields')))]).toEqual(['fields 0/3', 'fields 1/3', 'fields 2/3', 'fields 3/3']);
  });
});
