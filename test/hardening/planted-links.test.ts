/**
 * Symbolic links a repository carries in the output folder (issue 30: nothing found there may
 * make schema-sync read, move or delete anything outside what it generated): a link where the
 * manifest, messages/ or a generated file should be is never read through. `generate` and `pull`
 * refuse with a WRITE error naming it, and `check` reports it (the manifest, without which no file
 * can be judged, is an error there too); what the link points at is neither read (its access time
 * stays) nor shown, and nothing changes. The output folder itself may be a link: the user chose it.
 */
import { cp, lstat, mkdir, readdir, readFile, readlink, rename, rm, stat, symlink, utimes, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readTree, removeDir, ROOT, runCacheEnv, tempDir } from '../helpers/cli.js';
import { runCli } from '../helpers/in-process.js';
import { validateJson } from '../helpers/json-schema.js';
import { syntheticElement, syntheticListing } from './helpers.js';

const MANIFEST = '.schema-sync-manifest.json';
/** What the sentinel folder beside the project holds: a file no output may ever show. */
const SECRET = 'not a real key: 5f0c1e77\n';

let root: string;
/** A project pulled once from listing A; each case works on a copy. */
let base: string;
let caseNo = 0;
/** Whether reading a file moves its access time here (not on a noatime mount). */
let atimesMove = false;

beforeAll(async () => {
  root = await tempDir('schema-sync-links-');
  base = join(root, 'base');
  await mkdir(base);
  await writeFile(join(base, 'a.json'), JSON.stringify(syntheticListing(6)));
  // Listing B changes Type00000 and removes Type00005: a pull writes the one and deletes the other.
  await writeFile(join(base, 'b.json'), JSON.stringify(syntheticListing(5).map((element, i) => (i === 0 ? syntheticElement(i, 1) : element))));
  const first = await runCli(['pull', '--input', 'a.json', '--out', 'out'], { cwd: base, env: runCacheEnv() });
  expect(first.code, first.stderr).toBe(0);
  const probe = join(root, 'probe');
  await writeFile(probe, 'x');
  await utimes(probe, 1_000_000, (await stat(probe)).mtime);
  await readFile(probe);
  atimesMove = (await stat(probe)).atimeMs > 1_000_000_000;
  if (!atimesMove) console.warn('planted-links: access times do not move on this file system; "not read" is judged by the output alone');
});
afterAll(() => removeDir(root));

/** A copy of the base project and a sentinel folder beside it, made before `plant`. */
async function scene(plant: (out: string, sentinel: string) => Promise<void>) {
  const project = join(root, `case-${++caseNo}`, 'project');
  const sentinel = join(root, `case-${caseNo}`, 'sentinel');
  await cp(base, project, { recursive: true });
  await mkdir(sentinel);
  await writeFile(join(sentinel, 'id_ed25519'), SECRET);
  await plant(join(project, 'out'), sentinel);
  // Access times long before the files' last change: a read moves them (relatime).
  const files = [...(await readTree(sentinel)).keys()].map((path) => join(sentinel, path));
  for (const file of files) await utimes(file, 1_000_000, (await stat(file)).mtime);
  return {
    project,
    /** The sentinel's files read since they were planted. */
    async readOutside() {
      const read: string[] = [];
      for (const file of files) if ((await stat(file)).atimeMs > 1_000_000_000) read.push(file);
      return atimesMove ? read : [];
    },
  };
}

/** Every entry below `dir` without following a link: a file's text, a link's target. */
async function snapshot(dir: string, into = new Map<string, string>(), prefix = ''): Promise<Map<string, string>> {
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isSymbolicLink()) into.set(prefix + entry.name, `-> ${await readlink(path)}`);
    else if (entry.isDirectory()) await snapshot(path, into, `${prefix}${entry.name}/`);
    else into.set(prefix + entry.name, await readFile(path, 'utf8'));
  }
  return into;
}

const cases: Array<{ name: string; plant: (out: string, sentinel: string) => Promise<void>; links: string[]; check: 'error' | 'stale' }> = [
  {
    name: 'the manifest, a link to a copy outside',
    plant: async (out, sentinel) => {
      await writeFile(join(sentinel, 'manifest.json'), await readFile(join(out, MANIFEST)));
      await rm(join(out, MANIFEST));
      await symlink(join(sentinel, 'manifest.json'), join(out, MANIFEST));
    },
    links: [MANIFEST],
    check: 'error',
  },
  {
    name: 'messages/, a link to a folder outside',
    plant: async (out, sentinel) => {
      await rename(join(out, 'messages'), join(sentinel, 'messages'));
      await symlink(join(sentinel, 'messages'), join(out, 'messages'));
    },
    links: ['messages'],
    check: 'stale',
  },
  {
    name: 'generated files that a pull changes and removes, links to files outside',
    plant: async (out, sentinel) => {
      await writeFile(join(sentinel, 'notes.txt'), SECRET);
      for (const [file, target] of [['Type00000.ts', 'id_ed25519'], ['Type00005.ts', 'notes.txt']] as const) {
        await rm(join(out, 'messages', file));
        await symlink(join(sentinel, target), join(out, 'messages', file));
      }
    },
    links: ['messages/Type00000.ts', 'messages/Type00005.ts'],
    check: 'stale',
  },
];

describe('a symbolic link planted in the output folder (issue 30)', () => {
  it.each(cases)('$name: generate and pull refuse, check reports it; nothing read through it, nothing changed', async ({ plant, links, check }) => {
    const { project, readOutside } = await scene(plant);
    const out = join(project, 'out');
    const before = { lockfile: await readFile(join(project, 'schema-sync.lock.json'), 'utf8'), tree: await snapshot(out) };
    const named = new RegExp(links.map((link) => `${join(out, link).replaceAll('.', '\\.')}`).join(', ') + ' (is a symbolic link|are symbolic links); schema-sync never writes or deletes through one\\.');
    const runs = {
      generate: await runCli(['generate', '--out', 'out'], { cwd: project, env: runCacheEnv() }),
      pull: await runCli(['pull', '--input', 'b.json', '--out', 'out'], { cwd: project, env: runCacheEnv() }),
      check: await runCli(['check', '--input', 'a.json', '--out', 'out', '--format', 'json'], { cwd: project, env: runCacheEnv() }),
    };
    for (const [command, run] of Object.entries(runs)) {
      expect(`${run.stdout}${run.stderr}`, `${command} shows nothing of the files outside`).not.toContain(SECRET.trim());
      if (command === 'check' && check === 'stale') continue;
      expect(run.code, `${command}: ${run.stderr}`).toBe(2);
      expect(run.stderr, command).toMatch(/^error \[WRITE\]: /);
      expect(run.stderr, command).toMatch(named);
      expect(run.stderr, command).toContain('hint: Remove the link');
    }
    if (check === 'stale') {
      expect(runs.check.code, runs.check.stderr).toBe(1);
      const report: unknown = JSON.parse(runs.check.stdout);
      expect((report as { staleFiles: unknown }).staleFiles).toEqual(links.map((path) => ({ path, reason: 'symlink' })));
      // The reason is one the published report shape knows.
      expect(validateJson(JSON.parse(await readFile(join(ROOT, 'report.schema.json'), 'utf8')) as Record<string, unknown>, report)).toEqual([]);
    }
    expect(await readOutside()).toEqual([]);
    expect(await readFile(join(project, 'schema-sync.lock.json'), 'utf8')).toBe(before.lockfile);
    for (const link of links) expect((await lstat(join(out, link))).isSymbolicLink(), link).toBe(true);
    expect(await snapshot(out)).toEqual(before.tree);
  });

  it('an output folder that is itself a link (the user chose it) is generated and checked as before', async () => {
    const { project, readOutside } = await scene(async (out, sentinel) => {
      await rename(out, join(sentinel, 'out'));
      await symlink(join(sentinel, 'out'), out);
    });
    const generated = await runCli(['generate', '--out', 'out'], { cwd: project, env: runCacheEnv() });
    expect(generated.code, generated.stderr).toBe(0);
    const checked = await runCli(['check', '--input', 'a.json', '--out', 'out'], { cwd: project, env: runCacheEnv() });
    expect(checked.code, checked.stdout + checked.stderr).toBe(0);
    // The sentinel's access times do tell a read: these were read, through the folder's own link.
    if (atimesMove) expect(await readOutside()).not.toEqual([]);
  });
});
