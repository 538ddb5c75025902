/**
 * The stages a command reports through `onStage` (what `--verbose` prints and the progress line
 * follows), in order, and that each request is timed as fetch: with fields on, every getschema
 * request is made before the fetch stage ends.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { check, generate, pull } from '../../src/index.js';
import { startTestServer, type TestServer } from '../helpers/server/index.js';
import { removeDir, tempDir } from '../helpers/cli.js';
import { smallListing } from '../helpers/listing.js';

let server: TestServer;
let dir: string;
beforeAll(async () => {
  server = await startTestServer({ listing: smallListing(3), schemas: { T0000: [{ pos: 1, name: 'bid', fNum: 10, fType: 'Int' }] } });
});
afterAll(() => server.close());
beforeEach(async () => {
  if (dir !== undefined) await removeDir(dir);
  dir = await tempDir();
});
afterAll(async () => {
  if (dir !== undefined) await removeDir(dir);
});

/** The stages reported, each with the number of getschema requests the server had by then. */
function recorder(): { stages: Array<[string, number]>; onStage: (stage: string) => void } {
  const stages: Array<[string, number]> = [];
  const getschemas = () => server.requests.filter((request) => request.query['cmd'] === 'getschema').length;
  return { stages, onStage: (stage) => stages.push([stage, getschemas()]) };
}

describe('the stages a command reports', () => {
  it('pull: fetch (the listing and every getschema request), diff, emit, write', async () => {
    const before = server.requests.length;
    const { stages, onStage } = recorder();
    await pull({ cwd: dir, baseUrl: server.url, out: 'out', fields: true, cacheDir: false, onStage });
    const requests = server.requests.slice(before);
    expect(requests.filter((request) => request.query['cmd'] === 'getschema')).toHaveLength(3);
    const all = stages.at(-1)![1];
    expect(stages).toEqual([
      ['fetch', all],
      ['diff', all],
      ['emit', all],
      ['write', all],
    ]);
  });

  it('check: verify (the folder) first, then fetch and diff', async () => {
    await pull({ cwd: dir, baseUrl: server.url, out: 'out', cacheDir: false });
    const { stages, onStage } = recorder();
    await check({ cwd: dir, baseUrl: server.url, out: 'out', cacheDir: false, onStage });
    expect(stages.map(([stage]) => stage)).toEqual(['verify', 'fetch', 'diff']);
  });

  it('generate: emit, write', async () => {
    await pull({ cwd: dir, baseUrl: server.url, out: 'out', cacheDir: false });
    const { stages, onStage } = recorder();
    await generate({ cwd: dir, out: 'out', cacheDir: false, onStage });
    expect(stages.map(([stage]) => stage)).toEqual(['emit', 'write']);
  });
});
