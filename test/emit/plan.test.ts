/**
 * The one plan: each file's input is the hash of exactly what its renderer reads, so a file is
 * re-rendered when (and only when) something it shows changes, without a constant raised by hand.
 */
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { emitFiles, plan, renderPlanned, type PlannedFile, type PlanSettings } from '../../src/emit/index.js';
import { parseListing } from '../../src/fetch/parse-listing.js';
import { parseLockfile, serializeLockfile } from '../../src/lock/index.js';
import { BUILTIN_TEMPLATES_DIR } from '../../src/emit/templates.js';
import { hashOf } from '../../src/util/hash.js';
import { LOCKFILE_VERSION } from '../../src/model/lockfile.js';
import { changeSet, openFolderView } from '../../src/write/index.js';
import { syntheticElement } from '../helpers/folder-states.mjs';
import { makeTempDir, removeTempDir } from './helpers.js';

const SOURCE = { baseUrl: 'https://schema.example.com/api', query: { cmd: 'getmsgtypes' } };

let tempDir: string;
beforeAll(async () => {
  tempDir = await makeTempDir('plan');
});
afterAll(async () => {
  await removeTempDir(tempDir);
});

const inputs = (files: readonly PlannedFile[]) => new Map(files.map((file) => [file.path, file.input]));

/** The paths whose inputs differ between two plans of the same paths. */
function changedPaths(before: readonly PlannedFile[], after: readonly PlannedFile[]): string[] {
  const was = inputs(before);
  expect([...inputs(after).keys()]).toEqual([...was.keys()]);
  return after.filter((file) => was.get(file.path) !== file.input).map((file) => file.path);
}

describe('plan', () => {
  const listing = [0, 1, 2].map((i) => syntheticElement(i, 0, { topic: { z: 1, a: 2, nested: { y: [{ q: 1, b: 2 }], c: 3 } } }));
  const fetched = parseListing(listing, { origin: 'test' }).descriptors;

  it('lists the files emitFiles renders, each rendered from its plan entry', async () => {
    const settings: PlanSettings = { package: 'acme-schema' };
    const files = await plan({ messages: fetched, source: SOURCE }, settings);
    expect(await renderPlanned(files)).toEqual(await emitFiles({ messages: fetched, source: SOURCE, ...settings }));
    // Every file's input is its own, but a module's .js and .d.ts share theirs (the path names the kind).
    expect(new Set(files.map((file) => file.input)).size).toBe(files.length - fetched.length);
  });

  it('gives a lockfile whose nested unknown keys are in another order than fetched the same inputs: 0 files re-rendered', async () => {
    const text = serializeLockfile({ lockfileVersion: LOCKFILE_VERSION, source: SOURCE, settings: {}, messages: fetched });
    // Each nested object's keys reversed, as a hand edit or another tool may leave them.
    const reversed = (value: unknown): unknown =>
      Array.isArray(value) ? value.map(reversed) : value !== null && typeof value === 'object' ? Object.fromEntries(Object.entries(value).reverse().map(([k, v]) => [k, reversed(v)])) : value;
    const raw = JSON.parse(text) as { messages: Record<string, Record<string, unknown>> };
    for (const entry of Object.values(raw.messages)) entry['topic'] = reversed(entry['topic']);
    const edited = JSON.stringify(raw, null, 2);
    expect(Object.keys(JSON.parse(edited).messages.Type00000.topic)).toEqual(['z', 'nested', 'a']);
    const locked = parseLockfile(edited, 'lock').messages;
    for (const settings of [{}, { package: 'acme-schema' }] satisfies PlanSettings[]) {
      const before = await plan({ messages: fetched, source: SOURCE }, settings);
      const after = await plan({ messages: locked, source: SOURCE }, settings);
      expect(changedPaths(before, after)).toEqual([]);
      // Against the manifest the fetched plan wrote, nothing is stale: nothing is rendered.
      const outDir = join(tempDir, `nested-${settings.package ?? 'plain'}`);
      const written = await renderPlanned(before);
      await mkdir(join(outDir, 'messages'), { recursive: true });
      for (const file of written) await writeFile(join(outDir, file.path), file.text);
      const manifest = new Map(written.map((file, i) => [file.path, { input: before[i]!.input, sha: hashOf(file.text) }]));
      const rendered: string[] = [];
      const changes = await changeSet({
        planned: after,
        manifest,
        view: await openFolderView(outDir),
        holds: async (path, sha) => hashOf(await readFile(join(outDir, path), 'utf8')) === sha,
        render: async (stale) => {
          rendered.push(...stale.map((file) => file.path));
          return renderPlanned(stale);
        },
      });
      expect(rendered).toEqual([]);
      expect(changes.write).toEqual([]);
      expect(changes.unchanged).toBe(after.length);
    }
  });

  it('re-renders the files whose renderer reads a changed template or setting, and only those, with no constant raised', async () => {
    const templatesDir = join(tempDir, 'templates');
    await mkdir(templatesDir, { recursive: true });
    const builtin = await readFile(join(BUILTIN_TEMPLATES_DIR, 'banner.txt'), 'utf8');
    await writeFile(join(templatesDir, 'banner.txt'), builtin);
    const settings: PlanSettings = { package: 'acme-schema', templatesDir };
    const planOf = (over: PlanSettings = {}) => plan({ messages: fetched, source: SOURCE }, { ...settings, ...over });
    const before = await planOf();
    expect(changedPaths(await plan({ messages: fetched, source: SOURCE }, { package: 'acme-schema' }), before)).toEqual([]);

    // The banner template shows a variable it did not: every file with a banner, and nothing else.
    await writeFile(join(templatesDir, 'banner.txt'), `${builtin}// Type: {{messageName}}\n`);
    const bannered = await planOf();
    expect(changedPaths(before, bannered)).toEqual(before.filter((file) => file.path.startsWith('messages/')).map((file) => file.path));
    const texts = new Map((await renderPlanned(bannered)).map((file) => [file.path, file.text]));
    expect(texts.get('messages/Type00001.ts') ?? texts.get('messages/Type00001.js')).toContain('// Type: Type00001\n');

    // A package version is read by package.json alone; the changelog by CHANGELOG.md alone.
    expect(changedPaths(bannered, await planOf({ packageVersion: '1.1.0' }))).toEqual(['package.json']);
    expect(changedPaths(bannered, await planOf({ changelog: [{ version: '1.1.0', notes: 'Added.' }] }))).toEqual(['CHANGELOG.md']);
    // A type's schemaHash is read by its modules, not by the index.
    const rehashed = await plan({ messages: fetched.map((d, i) => (i === 1 ? { ...d, schemaHash: 'other' } : d)), source: SOURCE }, settings);
    expect(changedPaths(bannered, rehashed)).toEqual(['messages/Type00001.d.ts', 'messages/Type00001.js']);
  });
});
