/**
 * Installing schema-sync as the README says: from git (npm clones it, installs its dependencies
 * and runs `prepare`, which must build), from a tarball `npm pack` wrote (which must carry the
 * build and no `prepare`, so installing it builds nothing and npm lists no script to allow), and
 * `npx schema-sync` inside the checkout (npm packs the folder to run it, running `prepare`: it
 * must not delete and rebuild a built dist/). A copy of the checkout's files stands for the
 * clone, with the checkout's node_modules linked in; the tarball is installed offline into a
 * project given real copies of the runtime dependencies (never links into the checkout's
 * node_modules, which npm would write to). The tarball is packed into the project's `vendor/`
 * folder and installed from there, as a team keeps an unpublished tool in its repository: the
 * project then installs with `npm ci` from a fresh clone moved to another folder.
 *
 * `npm pack` packs a dist/ that `npm run build` made from the sources as they are now (its build
 * stamp, scripts/build-stamp.mjs) without building it again, and builds a stale one first. The
 * tests run in order over one checkout: prepare builds it (the one build from nothing), the
 * tarball is packed from that build, and a source changed afterwards makes the next pack build.
 * That build and the next compile only what changed (scripts/compile.mjs keeps tsc's incremental
 * state in .build-cache/, which the copy, like a clone, does not have): with the change undone,
 * the build gives back byte for byte the dist/ built from nothing.
 */
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { appendFile, cp, mkdir, readFile, rename, rm, stat, symlink, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readTree, ROOT, removeDir, tempDir } from '../helpers/cli.js';

const run = promisify(execFile);
let dir: string;
let checkout: string;
/** dist/ as the build from nothing made it. */
let builtFromNothing: Map<string, string>;
/** src/index.ts of the copy before the test that changes it. */
let indexBeforeTheChange: string;

/** npm with a clean environment: none of the npm_* variables of the `npm test` running this. */
async function npm(cwd: string, ...args: string[]): Promise<{ stdout: string; stderr: string }> {
  const env = Object.fromEntries(Object.entries(process.env).filter(([key]) => !key.toLowerCase().startsWith('npm_')));
  return run('npm', args, { cwd, env, maxBuffer: 16 * 1024 * 1024, timeout: 240_000 });
}

/** `npm pack` of the checkout into `destination`: what npm says it packed. */
async function pack(destination: string): Promise<{ filename: string; files: Array<{ path: string }> }> {
  const [packed] = JSON.parse((await npm(checkout, 'pack', '--json', '--pack-destination', destination)).stdout) as Array<{ filename: string; files: Array<{ path: string }> }>;
  return packed!;
}

const builtAt = async (folder: string) => {
  const stats = await stat(join(folder, 'dist/cli/bin.js'));
  return { ino: stats.ino, mtimeMs: stats.mtimeMs };
};

beforeAll(async () => {
  dir = await tempDir('schema-sync-install-');
  checkout = join(dir, 'checkout');
  const { stdout } = await run('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], { cwd: ROOT, maxBuffer: 16 * 1024 * 1024 });
  const files = stdout.split('\0').filter((file) => file !== '' && !file.startsWith('generated-example/') && !file.startsWith('test/'));
  for (const file of files) await cp(join(ROOT, file), join(checkout, file), { recursive: true }).catch((error: { code?: string }) => {
    // A file deleted in the working tree but not yet in the index.
    if (error.code !== 'ENOENT') throw error;
  });
  await symlink(join(ROOT, 'node_modules'), join(checkout, 'node_modules'), 'dir');
}, 120_000);
afterAll(() => removeDir(dir));

describe('installing schema-sync', () => {
  it('from git: prepare builds a checkout without dist/; npx schema-sync inside it then rebuilds nothing', async () => {
    expect(existsSync(join(checkout, 'dist'))).toBe(false);
    expect(existsSync(join(checkout, '.build-cache'))).toBe(false);
    await npm(checkout, 'run', 'prepare');
    builtFromNothing = await readTree(join(checkout, 'dist'));
    const before = await builtAt(checkout);
    const { stdout } = await npm(checkout, 'exec', '--offline', '--', 'schema-sync', '--version');
    expect(stdout.trim()).toBe('0.1.0');
    expect(await builtAt(checkout)).toEqual(before);
  }, 300_000);

  it('from a tarball kept in the project (vendor/): npm pack carries the build and no prepare, leaves package.json as it was, the tarball installs offline without scripts, recorded by a path inside the project, and a fresh clone moved elsewhere installs with npm ci', async () => {
    const manifest = await readFile(join(checkout, 'package.json'), 'utf8');
    const project = join(dir, 'project');
    const vendor = join(project, 'vendor');
    await mkdir(vendor, { recursive: true });
    // The first test built dist/ from these sources: packed as it is, not built again.
    const before = await builtAt(checkout);
    const packed = await pack(vendor);
    expect(await builtAt(checkout)).toEqual(before);
    expect(await readFile(join(checkout, 'package.json'), 'utf8')).toBe(manifest);
    // Ready to publish as it is: not private, a name, a version, its command.
    expect(JSON.parse(manifest)).toMatchObject({ name: 'schema-sync', version: '0.1.0', bin: { 'schema-sync': 'dist/cli/bin.js' } });
    expect(JSON.parse(manifest)).not.toHaveProperty('private');
    const paths = packed.files.map((file) => file.path);
    expect(paths).toEqual(expect.arrayContaining(['package.json', 'README.md', 'dist/cli/bin.js', 'dist/cli/schema-sync.cjs', 'dist/index.js', 'dist/index.d.ts', 'config.schema.json']));
    expect(paths.filter((path) => /^(src|test|scripts)\//.test(path))).toEqual([]);

    await writeFile(join(project, 'package.json'), JSON.stringify({ name: 'project', version: '1.0.0', private: true }));
    await writeFile(join(project, '.gitignore'), 'node_modules/\n');
    const lock = JSON.parse(await readFile(join(ROOT, 'package-lock.json'), 'utf8')) as { packages: Record<string, { dev?: boolean }> };
    // An optional dependency of another platform is not there; one inside another comes with it.
    const runtime = Object.entries(lock.packages).filter(([path, entry]) => path !== '' && entry.dev !== true && existsSync(join(ROOT, path))).map(([path]) => path);
    const outermost = runtime.filter((path) => !runtime.some((other) => path.startsWith(`${other}/`)));
    // By folder (node_modules, node_modules/@scope), with cp itself: a copy in JavaScript costs more.
    for (const folder of new Set(outermost.map(dirname))) {
      await mkdir(join(project, folder), { recursive: true });
      await run('cp', ['-RL', ...outermost.filter((path) => dirname(path) === folder).map((path) => join(ROOT, path)), join(project, folder)]);
    }
    // As the README says: `npm install -D ./vendor/schema-sync-0.1.0.tgz`.
    const installed = await npm(project, 'install', '--offline', '--no-audit', '--no-fund', '--save-dev', `./vendor/${packed.filename}`);
    expect(installed.stderr).not.toMatch(/install-scripts|prepare/);
    const installedManifest = JSON.parse(await readFile(join(project, 'node_modules/schema-sync/package.json'), 'utf8')) as { scripts?: Record<string, string> };
    expect(installedManifest.scripts?.['prepare']).toBeUndefined();
    const { stdout } = await npm(project, 'exec', '--offline', '--', 'schema-sync', '--version');
    expect(stdout.trim()).toBe('0.1.0');
    // Recorded by a path inside the repository, so npm ci works on any machine that clones it.
    const recorded = JSON.parse(await readFile(join(project, 'package.json'), 'utf8')) as { devDependencies: Record<string, string> };
    expect(recorded.devDependencies['schema-sync']).toBe('file:vendor/schema-sync-0.1.0.tgz');

    const git = (cwd: string, ...args: string[]) => run('git', ['-c', 'user.name=Schema Test', '-c', 'user.email=schema-test@example.com', '-c', 'commit.gpgsign=false', ...args], { cwd });
    await git(project, 'init', '-q', '-b', 'main');
    await git(project, 'add', '-A');
    await git(project, 'commit', '-q', '-m', 'schema-sync from vendor/');
    await git(dir, 'clone', '-q', project, 'clone');
    const runner = join(dir, 'runner', 'work');
    await mkdir(dirname(runner));
    await rename(join(dir, 'clone'), runner);
    // Offline: the dependencies come from npm's cache, which the checkout's own npm ci filled.
    await npm(runner, 'ci', '--offline', '--no-audit', '--no-fund');
    const fromClone = await npm(runner, 'exec', '--offline', '--', 'schema-sync', '--version');
    expect(fromClone.stdout.trim()).toBe('0.1.0');
  }, 300_000);

  it('npm pack after a source changed builds again: the packed dist/ has the change', async () => {
    const before = await builtAt(checkout);
    indexBeforeTheChange = await readFile(join(checkout, 'src/index.ts'), 'utf8');
    await appendFile(join(checkout, 'src/index.ts'), "export const changedAfterTheBuild = 'changed after the build';\n");
    await writeFile(join(checkout, 'src/added-after-the-build.ts'), "export const addedAfterTheBuild = 'added after the build';\n");
    const destination = join(dir, 'stale');
    await mkdir(destination);
    const packed = await pack(destination);
    expect(await builtAt(checkout)).not.toEqual(before);
    const { stdout } = await run('tar', ['-xzOf', join(destination, packed.filename), 'package/dist/index.js', 'package/dist/index.d.ts']);
    expect(stdout.match(/changed after the build/g)).toHaveLength(2);
    const added = await run('tar', ['-xzOf', join(destination, packed.filename), 'package/dist/added-after-the-build.js', 'package/dist/added-after-the-build.d.ts']);
    expect(added.stdout.match(/added after the build/g)).toHaveLength(2);
  }, 300_000);

  it('the change undone, npm run build gives back byte for byte the dist/ built from nothing (the compile is incremental, the source removed leaves no output)', async () => {
    await writeFile(join(checkout, 'src/index.ts'), indexBeforeTheChange);
    await rm(join(checkout, 'src/added-after-the-build.ts'));
    const { stderr } = await npm(checkout, 'run', 'build');
    expect(stderr).not.toMatch(/compiling from nothing/);
    const rebuilt = await readTree(join(checkout, 'dist'));
    expect([...rebuilt.keys()]).toEqual([...builtFromNothing.keys()]);
    for (const [path, text] of builtFromNothing) expect(rebuilt.get(path), path).toBe(text);
  }, 300_000);
});
