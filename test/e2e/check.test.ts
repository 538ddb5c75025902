import { appendFile, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server/index.js';
import { readTree, removeDir, tempDir } from '../helpers/cli.js';
import { runCli } from '../helpers/in-process.js';
import { exampleListing, wireElement, type WireElement } from '../helpers/listing.js';

// check (and the pull safety rails) end to end against the reference server, the CLI run in this
// process (see test/helpers/in-process.ts).

/** Listing B: listing A with several kinds of drift, each on a known type. */
function listingB(): WireElement[] {
  const b = exampleListing().filter((e) => e.message['name'] !== 'AggregateString'); // removed
  const byName = (name: string) => b.find((e) => e.message['name'] === name)!.message;
  byName('AccountRouteConfig')['schemaHash'] = '0A1B2C3D4E5F6071'; // hash changed
  byName('AggregateCount')['schemaHash'] = '1A1B2C3D4E5F6071'; // hash changed
  byName('AltHedgePolicyMap')['schemaHash'] = '2A1B2C3D4E5F6071'; // hash changed
  byName('AltSymbolMap')['mToken'] = 'SRATS'; // moved to another token
  byName('AssetAccountControl')['actions'] = 'SIUR'; // lost delete
  byName('AggregateNumeric')['name'] = 'AggregateNumber'; // renamed, same mNum 1021
  b.push(wireElement({ name: 'ZNewType', mNum: 99999, mToken: 'Brand' })); // added
  return b;
}

let server: TestServer;
let dir: string;

beforeAll(async () => {
  server = await startTestServer({ listing: exampleListing() });
  dir = await tempDir();
  const pulled = await runCli(['pull', '--base-url', server.url, '--out', 'out'], { cwd: dir });
  expect(pulled.code).toBe(0);
});
afterAll(async () => {
  await server.close();
  await removeDir(dir);
});

const check = (...args: string[]) => runCli(['check', '--base-url', server.url, '--out', 'out', ...args], { cwd: dir });

describe('check', () => {
  it('exits 0 when in sync', async () => {
    const run = await check();
    expect(run.stdout + run.stderr).toContain('In sync');
    expect(run.code).toBe(0);
  });

  it('exits 1 and lists exactly the drift of listing B, with severities, writing nothing', async () => {
    server.setListing(listingB());
    const before = await readTree(dir);
    const run = await check('--format', 'json');
    expect(run.code).toBe(1);
    const report = JSON.parse(run.stdout);
    expect(report.inSync).toBe(false);
    const brief = report.changes.map((c: { kind: string; name: string; severity: string; fields?: Array<{ field: string }> }) => [
      c.kind, c.name, c.severity, (c.fields ?? []).map((f) => f.field).join(','),
    ]);
    expect(brief).toEqual([
      ['renamed', 'AggregateNumber', 'breaking', 'name'],
      ['removed', 'AggregateString', 'breaking', ''],
      ['changed', 'AltSymbolMap', 'breaking', 'mToken'],
      ['changed', 'AssetAccountControl', 'breaking', 'actions'],
      ['changed', 'AccountRouteConfig', 'dangerous', 'schemaHash'],
      ['changed', 'AggregateCount', 'dangerous', 'schemaHash'],
      ['changed', 'AltHedgePolicyMap', 'dangerous', 'schemaHash'],
      ['added', 'ZNewType', 'safe', ''],
    ]);
    expect(report.summary).toEqual({ added: 1, removed: 1, changed: 5, renamed: 1, breaking: 4, dangerous: 3, safe: 1, accepted: 0 });
    expect(report.staleFiles).toEqual([]);
    expect(await readTree(dir)).toEqual(before);
  });

  it('--fail-on breaking exits 1 on breaking drift and 0 on dangerous-only drift', async () => {
    server.setListing(listingB());
    expect((await check('--fail-on', 'breaking')).code).toBe(1);
    const onlyHash = exampleListing();
    onlyHash[0]!.message['schemaHash'] = 'FFFFFFFFFFFFFFFF';
    server.setListing(onlyHash);
    const run = await check('--fail-on', 'breaking');
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('AccountRiskRecordV5');
    expect((await check()).code).toBe(1);
  });

  it('renders text, markdown and github reports', async () => {
    server.setListing(listingB());
    const text = await check('--format', 'text');
    expect(text.stdout).toContain('AggregateNumber');
    expect(text.stdout).not.toMatch(/\u001b\[/);
    const markdown = await check('--format', 'markdown');
    expect(markdown.stdout).toMatch(/\| *Severity *\|/);
    const github = await check('--format', 'github');
    expect(github.stdout).toMatch(/^::error /m);
    expect(github.stdout).toMatch(/^::warning /m);
  });

  it('github annotations name files from the repository root and each change\'s lockfile entry', async () => {
    server.setListing(listingB());
    const run = await runCli(['check', '--base-url', server.url, '--out', 'out', '--format', 'github'], {
      cwd: dir,
      env: { GITHUB_ACTIONS: 'true', GITHUB_WORKSPACE: join(dir, '..') },
    });
    expect(run.code).toBe(1);
    const project = dir.split('/').pop()!;
    const lockfile = await readFile(join(dir, 'schema-sync.lock.json'), 'utf8');
    const annotations = run.stdout.split('\n').filter((line) => line.startsWith('::'));
    expect(annotations.length).toBeGreaterThan(0);
    for (const line of annotations) {
      const match = new RegExp(`^::(?:error|warning|notice) title=[^,]*,file=${project}/schema-sync\\.lock\\.json(?:,line=(\\d+))?::`).exec(line);
      expect(match, line).not.toBeNull();
      // A change to a type in the lockfile points at its entry there.
      if (match![1] !== undefined) expect(lockfile.split('\n')[Number(match![1]) - 1]).toMatch(/^ {4}".*": \{$/);
    }
    expect(annotations.some((line) => /,line=\d+::/.test(line))).toBe(true);
  });

  it('appends the markdown report to GITHUB_STEP_SUMMARY under GitHub Actions', async () => {
    server.setListing(listingB());
    const summary = join(dir, '..', `${dir.split('/').pop()}-summary.md`);
    await writeFile(summary, '# before\n');
    const run = await runCli(['check', '--base-url', server.url, '--out', 'out', '--format', 'github'], {
      cwd: dir,
      env: { GITHUB_ACTIONS: 'true', GITHUB_STEP_SUMMARY: summary },
    });
    expect(run.code).toBe(1);
    const text = await readFile(summary, 'utf8');
    expect(text.startsWith('# before\n')).toBe(true);
    expect(text).toContain('AggregateNumber');
    await removeDir(summary);
  });

  it('after pull, check is in sync again', async () => {
    server.setListing(listingB());
    const pulled = await runCli(['pull', '--base-url', server.url, '--out', 'out'], { cwd: dir });
    expect(pulled.code).toBe(0);
    expect((await check()).code).toBe(0);
  });

  it('a hand-edited generated file is drift, named in staleFiles', async () => {
    server.setListing(listingB());
    await appendFile(join(dir, 'out/messages/AltSymbolMap.ts'), '// my edit\n');
    const run = await check('--format', 'json');
    expect(run.code).toBe(1);
    expect(JSON.parse(run.stdout).staleFiles).toEqual([{ path: 'messages/AltSymbolMap.ts', reason: 'modified' }]);
    expect((await runCli(['generate', '--out', 'out'], { cwd: dir })).code).toBe(0);
    expect((await check()).code).toBe(0);
  });

  it('exits 2, never 0 or 1, when the service is unreachable', async () => {
    const gone = await startTestServer({ listing: [] });
    const url = gone.url;
    await gone.close();
    const run = await runCli(['check', '--base-url', url, '--out', 'out', '--retries', '0'], { cwd: dir });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('connection refused');
  });

  it('exits 2 on a foreign lockfile', async () => {
    await writeFile(join(dir, 'other.lock.json'), JSON.stringify({ name: 'some-package', lockfileVersion: 3, packages: {} }));
    const run = await check('--lockfile', 'other.lock.json');
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('is not a schema-sync lockfile');
  });
});

describe('pull safety rails', () => {
  it('refuses an empty listing while types are locked, unless --allow-empty', async () => {
    const lock = await readFile(join(dir, 'schema-sync.lock.json'), 'utf8');
    server.setListing([]);
    const run = await runCli(['pull', '--base-url', server.url, '--out', 'out'], { cwd: dir });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('--allow-empty');
    expect(await readFile(join(dir, 'schema-sync.lock.json'), 'utf8')).toBe(lock);
  });

  it('refuses to remove more than half of the locked types, unless --force', async () => {
    server.setListing(exampleListing().slice(0, 100));
    const run = await runCli(['pull', '--base-url', server.url, '--out', 'out', '--dry-run'], { cwd: dir });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('--force');
    // A key with fewer entitlements lists fewer types: the likely cause, and what to do.
    expect(run.stderr).toContain('fewer entitlements');
    expect(run.stderr).toContain('API key the lockfile was made with');
  });
});
