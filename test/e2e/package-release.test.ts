/**
 * A package's version carries the drift: pulls over three listings (types added → a schema hash
 * changed → a type removed) take it from 1.0.0 to 1.1.0, 1.2.0 and 2.0.0, each prepending a
 * changelog section; `generate` afterwards changes nothing, and `check` finds a hand edit of the
 * changelog. The CLI (run in this process, see test/helpers/in-process.ts) against the
 * reference server.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server/index.js';
import { syntheticElement, syntheticListing } from '../hardening/helpers.js';
import { readTree, removeDir, tempDir } from '../helpers/cli.js';
import { runCli } from '../helpers/in-process.js';

let server: TestServer;
let dir: string;
beforeAll(async () => {
  server = await startTestServer({ listing: syntheticListing(4) });
  dir = await tempDir();
});
afterAll(async () => {
  await server.close();
  await removeDir(dir);
});

const run = (...args: string[]) => runCli([...args, '--out', 'out'], { cwd: dir, env: { SCHEMA_SYNC_CACHE_DIR: 'off' } });
const pull = (...args: string[]) => run('pull', '--base-url', server.url, ...args);
const manifest = async () => JSON.parse(await readFile(join(dir, 'out/package.json'), 'utf8')) as { version: string };
const settings = async () => (JSON.parse(await readFile(join(dir, 'schema-sync.lock.json'), 'utf8')) as { settings: { packageVersion?: string; changelog?: { version: string }[] } }).settings;
const changelog = () => readFile(join(dir, 'out/CHANGELOG.md'), 'utf8');

describe('the version of a package', () => {
  it('starts at 1.0.0, with no changelog section, and a pull without changes keeps it', async () => {
    const first = await pull('--package', '@acme/drift');
    expect(first.code, first.stderr).toBe(0);
    expect(await manifest()).toMatchObject({ name: '@acme/drift', version: '1.0.0' });
    expect(await settings()).toEqual({ packageName: '@acme/drift', packageVersion: '1.0.0' });
    expect(await changelog()).toContain('No changes since the first version.');
    const again = await pull();
    expect(again.stderr).toMatch(/no changes · 0 files written/);
    expect((await manifest()).version).toBe('1.0.0');
  });

  it('goes 1.1.0 → 1.2.0 → 2.0.0 over types added, a hash changed, a type removed; generate then changes nothing', async () => {
    server.setListing(syntheticListing(6));
    const added = await pull();
    expect(added.code, added.stderr).toBe(0);
    expect(added.stderr).toContain('2 added · @acme/drift 1.0.0 → 1.1.0 ·');
    expect((await manifest()).version).toBe('1.1.0');

    server.setListing([syntheticElement(0, 1), ...syntheticListing(6).slice(1)]);
    const changed = await pull();
    expect(changed.stderr).toContain('1 changed · @acme/drift 1.1.0 → 1.2.0 ·');
    expect((await manifest()).version).toBe('1.2.0');

    server.setListing([syntheticElement(0, 1), ...syntheticListing(5).slice(1)]);
    const removed = await pull();
    expect(removed.stderr).toContain('1 removed · @acme/drift 1.2.0 → 2.0.0 ·');
    expect((await manifest()).version).toBe('2.0.0');

    const text = await changelog();
    const sections = text.split('\n## ').slice(1);
    expect(sections.map((section) => section.split('\n')[0])).toEqual(['2.0.0', '1.2.0', '1.1.0']);
    // Each section is the pull's markdown report: the counts, then a row per change.
    expect(sections[0]).toContain('Changed: 1 message type (1 breaking, 0 dangerous, 0 safe)');
    expect(sections[0]).toMatch(/\| breaking \| removed \| `Type00005` \| mNum 1005 \[MESSAGE_REMOVED\] \|/);
    expect(sections[1]).toMatch(/\| dangerous \| changed \| `Type00000` \|.*`schemaHash`/);
    expect(sections[2]).toMatch(/\| safe \| added \| `Type00004` \|/);
    expect(sections[2]).toMatch(/\| safe \| added \| `Type00005` \|/);
    expect((await settings()).changelog?.map((section) => section.version)).toEqual(['2.0.0', '1.2.0', '1.1.0']);

    const tree = await readTree(dir);
    const generated = await run('generate');
    expect(generated.code, generated.stderr).toBe(0);
    expect(generated.stderr).toMatch(/0 files written, 0 deleted/);
    expect(await readTree(dir)).toEqual(tree);
    expect((await run('check', '--base-url', server.url)).code).toBe(0);
  });

  it('finds a hand edit of CHANGELOG.md, and generate rebuilds it from the lockfile alone', async () => {
    const original = await changelog();
    await writeFile(join(dir, 'out/CHANGELOG.md'), original.replace('## 2.0.0', '## 2.0.0 (edited)'));
    const checked = await run('check', '--base-url', server.url, '--format', 'json');
    expect(checked.code).toBe(1);
    expect(JSON.parse(checked.stdout).staleFiles).toEqual([{ path: 'CHANGELOG.md', reason: 'modified' }]);
    expect((await run('generate')).code).toBe(0);
    expect(await changelog()).toBe(original);
  });

  it('takes --package-version as given, bumps from it next time, and never bumps in generate', async () => {
    const given = await run('generate', '--package-version', '3.4.5');
    expect(given.code, given.stderr).toBe(0);
    expect((await manifest()).version).toBe('3.4.5');
    server.setListing([syntheticElement(0, 1), ...syntheticListing(6).slice(1)]);
    const dry = await pull('--dry-run');
    expect(dry.stderr).toContain('@acme/drift 3.4.5 → 3.5.0 · dry run');
    expect((await manifest()).version).toBe('3.4.5');
    expect((await pull()).code).toBe(0);
    expect((await manifest()).version).toBe('3.5.0');
    expect((await run('generate')).stderr).toMatch(/0 files written/);
    expect((await manifest()).version).toBe('3.5.0');
  });

  it('refuses a version that is not x.y.z, and a version without a package (exit 2, nothing written)', async () => {
    const tree = await readTree(dir);
    const bad = await run('generate', '--package-version', '1.2');
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('The package version "1.2" is not a version x.y.z.');
    const other = await tempDir();
    try {
      const plain = await runCli(['pull', '--base-url', server.url, '--out', 'out', '--package-version', '1.0.0'], { cwd: other });
      expect(plain.code).toBe(2);
      expect(plain.stderr).toContain('the output is no package');
    } finally {
      await removeDir(other);
    }
    expect(await readTree(dir)).toEqual(tree);
  });
});
