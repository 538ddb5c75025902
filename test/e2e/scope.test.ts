/**
 * Config `include` / `exclude` end to end: only the types in scope are generated and watched,
 * every type stays in the lockfile (so widening the scope needs no network), the scope is
 * recorded with the other generation settings, and `check` with another scope reports that the
 * settings differ. The caches are on: they must never serve the output of another scope.
 */
import { readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server/index.js';
import { readTree, removeDir, tempDir } from '../helpers/cli.js';
import { runCli } from '../helpers/in-process.js';
import { driftListings } from '../helpers/drift-listings.js';

let server: TestServer;
let dir: string;
beforeAll(async () => {
  server = await startTestServer({ listing: driftListings().before });
  dir = await tempDir('schema-sync-scope-');
});
afterAll(async () => {
  await server.close();
  await removeDir(dir);
});

const NARROW = { include: ['Order*', { mToken: 'Risk' }], exclude: ['OrderFill'] };
const config = (scope: object) => writeFile(join(dir, 'schema-sync.config.json'), JSON.stringify({ out: 'out', ...scope }));
/** Runs the CLI with the caches on (in the project), with or without the service. */
const run = (args: string[], online = true) =>
  runCli(args, { cwd: dir, env: { SCHEMA_SYNC_CACHE_DIR: join(dir, '.cache'), ...(online ? { SCHEMA_SYNC_BASE_URL: server.url } : {}) } });
const messages = async () => (await readdir(join(dir, 'out/messages'))).sort();
const lockfile = async () => JSON.parse(await readFile(join(dir, 'schema-sync.lock.json'), 'utf8')) as { settings: unknown; messages: Record<string, unknown> };

describe('include / exclude', () => {
  let narrowTree: Map<string, string>;

  it('pull generates only the types in scope; the lockfile keeps every type and records the scope', async () => {
    await config(NARROW);
    const pulled = await run(['pull']);
    expect(pulled.code, pulled.stderr).toBe(0);
    expect(await messages()).toEqual(['OrderCancel.ts', 'OrderNew.ts', 'RiskLimit.ts', 'RiskOld.ts']);
    expect(await readFile(join(dir, 'out/index.ts'), 'utf8')).not.toContain('Quote');
    const lock = await lockfile();
    expect(Object.keys(lock.messages)).toHaveLength(7);
    expect(lock.settings).toEqual(NARROW);
    narrowTree = await readTree(join(dir, 'out'));
    expect((await run(['check'])).code).toBe(0);
  });

  it('check watches only the types in scope (a type that leaves it counts)', async () => {
    server.setListing(driftListings().after);
    const checked = await run(['check', '--format', 'json']);
    expect(checked.code).toBe(1);
    const report = JSON.parse(checked.stdout) as { changes: Array<{ name: string; rule: string }> };
    expect(report.changes.map((change) => `${change.name} ${change.rule}`)).toEqual([
      'OrderCancel ACTION_REMOVED',
      'RiskLimit TOKEN_CHANGED',
      'RiskOld MESSAGE_REMOVED',
      'OrderNew SCHEMA_HASH_CHANGED',
    ]);
    server.setListing(driftListings().before);
  });

  it('check with another scope than the recorded one: settings differ, exit 1', async () => {
    await config({ include: ['Order*'] });
    const checked = await run(['check']);
    expect(checked.code).toBe(1);
    expect(checked.stdout).toContain('Settings differ (lockfile → given)\n  include: ["Order*", {"mToken": "Risk"}] → ["Order*"]');
    const json = JSON.parse((await run(['check', '--format', 'json', '--fail-on', 'breaking'])).stdout) as { inSync: boolean; settings: unknown };
    expect(json).toMatchObject({ inSync: false, settings: [{ setting: 'include', recorded: NARROW.include, given: ['Order*'] }] });
  });

  it('widening the scope needs no network: generate writes the other types and records the change', async () => {
    await config({ include: [], exclude: [] });
    const generated = await run(['generate'], false);
    expect(generated.code, generated.stderr).toBe(0);
    expect(await messages()).toEqual(['OrderCancel.ts', 'OrderFill.ts', 'OrderNew.ts', 'PositionOld.ts', 'Quote.ts', 'RiskLimit.ts', 'RiskOld.ts']);
    expect((await lockfile()).settings).toEqual({});
    expect((await run(['check'])).code).toBe(0);
  });

  it('narrowing again (caches on) gives exactly the narrow output, and check is in sync', async () => {
    await config(NARROW);
    const generated = await run(['generate'], false);
    expect(generated.code, generated.stderr).toBe(0);
    expect(await readTree(join(dir, 'out'))).toEqual(narrowTree);
    expect((await run(['check'])).code).toBe(0);
  });
});
