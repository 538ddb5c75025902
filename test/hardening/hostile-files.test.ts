/**
 * Files a repository or an argument names (issue 42, items 2, 7, 8, 17): a template, a lockfile, a
 * `diff` argument, an `--impact` tsconfig, a config file. Each is read only as a regular file and
 * against a bound: a symbolic link at a template (to `/proc/self/environ`), a FIFO, a device, a
 * folder or a file past its bound is an error naming it, exit 2, never a hang, never gigabytes
 * read, nothing written. A template's text passes the safe-text boundary and the run's redactor. A
 * config module whose export throws as it is read, or never settles, and a tsconfig that is not
 * JSON or is nested 100,000 deep, are errors with their own words (no INTERNAL).
 *
 * The cases that would hang before their fix (a FIFO) run the built CLI in a child, killed after
 * its time; the others run in this process.
 */
import { execFileSync } from 'node:child_process';
import { chmodSync, mkdirSync, readFileSync, symlinkSync, truncateSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readTree, removeDir, runBin, tempDir, type CliRun } from '../helpers/cli.js';
import { runCli } from '../helpers/in-process.js';
import { syntheticListing } from './helpers.js';

const KEY = 'k3y-9f8e7d6c5b4a';
const hasMkfifo = process.platform !== 'win32';

let dir: string;
let caseNo = 0;
beforeAll(async () => {
  dir = await tempDir('schema-sync-hostile-files-');
  chmodSync(dir, 0o755);
});
afterAll(() => removeDir(dir));

/** A project pulled once (lockfile, out/), in a folder of its own. */
async function project(): Promise<string> {
  const root = join(dir, `p${caseNo++}`);
  mkdirSync(root);
  writeFileSync(join(root, 'listing.json'), JSON.stringify(syntheticListing(2)));
  const first = await runCli(['pull', '--input', 'listing.json', '--out', 'out', '--quiet'], { cwd: root, env: { SCHEMA_SYNC_CACHE_DIR: 'off' } });
  expect(first.code, first.stderr).toBe(0);
  return root;
}

/** The output folder and the lockfile (not the hostile files beside them, which a read would hang on or take a gigabyte from). */
async function outputOf(root: string): Promise<Map<string, string>> {
  const tree = await readTree(join(root, 'out'));
  tree.set('lockfile', readFileSync(join(root, 'schema-sync.lock.json'), 'utf8'));
  return tree;
}

const inProcess = (root: string, args: string[], env: Record<string, string> = {}) => runCli(args, { cwd: root, env: { SCHEMA_SYNC_CACHE_DIR: 'off', ...env } });
const child = (root: string, args: string[]) => runBin(args, { cwd: root, env: { SCHEMA_SYNC_CACHE_DIR: 'off' }, timeoutMs: 20_000 });

function refused(run: CliRun, words: RegExp): void {
  expect(run.code, run.stderr).toBe(2);
  expect(run.stderr).toMatch(words);
  expect(run.stderr).not.toMatch(/INTERNAL/);
}

describe('templates', () => {
  /** A project whose config names the templates folder `tpl`, with `make` putting a banner there. */
  async function withBanner(make: (banner: string) => void): Promise<{ root: string; before: Map<string, string> }> {
    const root = await project();
    mkdirSync(join(root, 'tpl'));
    make(join(root, 'tpl', 'banner.txt'));
    writeFileSync(join(root, 'schema-sync.config.json'), JSON.stringify({ templates: 'tpl' }));
    return { root, before: await outputOf(root) };
  }

  it('a banner that is a symbolic link to /proc/self/environ is refused; nothing is written', async () => {
    const { root, before } = await withBanner((banner) => symlinkSync('/proc/self/environ', banner));
    const run = await inProcess(root, ['generate', '--out', 'out'], { SCHEMA_SYNC_API_KEY: KEY });
    refused(run, /cannot read the template \S*banner\.txt: it is a symbolic link, which is not followed/);
    expect(await outputOf(root)).toEqual(before);
  });

  it.each([
    ['a folder', (banner: string) => mkdirSync(banner), /it is a folder, not a file/],
    ['a 1 GB sparse file', (banner: string) => { writeFileSync(banner, ''); truncateSync(banner, 1024 ** 3); }, /it is larger than 1 MiB/],
  ])('a banner that is %s is an error naming it', async (_what, make, words) => {
    const { root, before } = await withBanner(make);
    refused(await inProcess(root, ['generate', '--out', 'out']), words);
    expect(await outputOf(root)).toEqual(before);
  });

  it.runIf(hasMkfifo)('a banner that is a FIFO is an error at once, no hang', async () => {
    const { root } = await withBanner((banner) => execFileSync('mkfifo', [banner]));
    refused(await child(root, ['generate', '--out', 'out']), /it is not a regular file but a FIFO/);
  });

  it('a banner holding the key and control characters: masked by the redactor, escaped by the safe-text boundary', async () => {
    const { root } = await withBanner((banner) => writeFileSync(banner, `// key ${KEY} and a NUL \u0000 and ESC \u001b[31m\n// {{schemaHash}}\n`));
    const run = await inProcess(root, ['pull', '--input', 'listing.json', '--out', 'out'], { SCHEMA_SYNC_API_KEY: KEY });
    expect(run.code, run.stderr).toBe(0);
    const text = readFileSync(join(root, 'out/messages/Type00000.ts'), 'utf8');
    expect(text).toContain('// key *** and a NUL \\u0000 and ESC \\u001B[31m');
    expect(text).not.toContain(KEY);
    expect(text).not.toMatch(/[\u0000\u001b]/);
  });
});

describe('lockfiles and diff arguments', () => {
  it.runIf(hasMkfifo)('a FIFO at the lockfile: generate, check and diff say so at once', async () => {
    const root = await project();
    execFileSync('mkfifo', [join(root, 'fifo.json')]);
    refused(await child(root, ['generate', '--lockfile', 'fifo.json']), /cannot read lockfile \S*fifo\.json: it is not a regular file but a FIFO/);
    refused(await child(root, ['diff', 'fifo.json']), /cannot read the base lockfile \S*fifo\.json: it is not a regular file but a FIFO/);
  });

  it('/dev/zero and a sparse file past the bound are refused, not read', async () => {
    const root = await project();
    refused(await inProcess(root, ['diff', '/dev/zero']), /cannot read the base lockfile \/dev\/zero: it is not a regular file but a character device/);
    writeFileSync(join(root, 'huge.json'), '');
    truncateSync(join(root, 'huge.json'), 600 * 1024 ** 2);
    refused(await inProcess(root, ['diff', 'huge.json']), /it is larger than 512 MiB/);
    refused(await inProcess(root, ['generate', '--lockfile', 'huge.json']), /cannot read lockfile \S*huge\.json: it is larger than 512 MiB/);
  });
});

describe('environment faults are no INTERNAL errors (item 8)', () => {
  it('messages/ being a file: generate and pull say what is in the way, with the caches on', async () => {
    const root = await project();
    const { rmSync } = await import('node:fs');
    const cache = join(root, 'cache');
    const warm = await inProcess(root, ['generate', '--out', 'out'], { SCHEMA_SYNC_CACHE_DIR: cache });
    expect(warm.code, warm.stderr).toBe(0);
    rmSync(join(root, 'out/messages'), { recursive: true });
    writeFileSync(join(root, 'out/messages'), 'a file');
    refused(await inProcess(root, ['generate', '--out', 'out'], { SCHEMA_SYNC_CACHE_DIR: cache }), /out\/messages is in the way: a file where the output needs a folder/);
    const checked = await inProcess(root, ['check', '--input', 'listing.json', '--out', 'out'], { SCHEMA_SYNC_CACHE_DIR: cache });
    expect(checked.code, checked.stderr).toBe(1);
  });
});

describe('lockfiles as found (items 11, 13)', () => {
  it('a lockfile with a UTF-8 byte order mark is read, as the config file is', async () => {
    const root = await project();
    const lockfile = join(root, 'schema-sync.lock.json');
    writeFileSync(lockfile, `\uFEFF${readFileSync(lockfile, 'utf8')}`);
    const generated = await inProcess(root, ['generate', '--out', 'out']);
    expect(generated.code, generated.stderr).toBe(0);
    const same = await inProcess(root, ['diff', 'schema-sync.lock.json', 'schema-sync.lock.json']);
    expect(same.code, same.stderr).toBe(0);
  });

  it('a lockfile that is a link to another file quotes nothing of that file', async () => {
    const root = await project();
    writeFileSync(join(root, 'passwd'), 'root:x:0:0:hunter2-secret:/root:/bin/bash\n');
    symlinkSync(join(root, 'passwd'), join(root, 'link.json'));
    for (const args of [['generate', '--out', 'out', '--lockfile', 'link.json'], ['diff', 'link.json']]) {
      const run = await inProcess(root, args);
      refused(run, /link\.json is not valid JSON/);
      expect(run.stderr).not.toMatch(/root:x|hunter2|\/bin\/bash|'r'/);
    }
  });
});

describe('--out as a symbolic link (item 12, as SECURITY.md says)', () => {
  it('a pull that changes files writes them in the folder the link points at', async () => {
    const root = await project();
    const { renameSync } = await import('node:fs');
    renameSync(join(root, 'out'), join(root, 'real-out'));
    symlinkSync(join(root, 'real-out'), join(root, 'out'));
    writeFileSync(join(root, 'listing.json'), JSON.stringify(syntheticListing(3)));
    const run = await inProcess(root, ['pull', '--input', 'listing.json', '--out', 'out']);
    expect(run.code, run.stderr).toBe(0);
    expect(readFileSync(join(root, 'real-out/messages/Type00002.ts'), 'utf8')).toContain('Type00002');
  });
});

describe('--impact tsconfig', () => {
  const impact = (root: string, tsconfig: string) => inProcess(root, ['diff', 'schema-sync.lock.json', '--impact', tsconfig]);

  it('one that is not JSON is an error (tsc -p refuses it too)', async () => {
    const root = await project();
    writeFileSync(join(root, 'tsconfig.json'), 'this is not JSON at all');
    refused(await impact(root, 'tsconfig.json'), /--impact: cannot read the TypeScript project \S*tsconfig\.json: .*expected/);
  });

  it('one nested 100,000 deep is an error, not a stack overflow', async () => {
    const root = await project();
    writeFileSync(join(root, 'tsconfig.json'), `{"x":${'['.repeat(100_000)}${']'.repeat(100_000)}}`);
    refused(await impact(root, 'tsconfig.json'), /--impact: the TypeScript project \S*tsconfig\.json is nested deeper than 64 levels/);
  });

  it('/dev/zero is refused', async () => {
    const root = await project();
    refused(await impact(root, '/dev/zero'), /--impact: cannot read the TypeScript project \/dev\/zero: it is not a regular file but a character device/);
  });
});

describe('config files', () => {
  it.runIf(hasMkfifo)('a FIFO is refused at once', async () => {
    const root = await project();
    execFileSync('mkfifo', [join(root, 'schema-sync.config.json')]);
    refused(await child(root, ['generate', '--out', 'out']), /cannot read config file \S*schema-sync\.config\.json: it is not a regular file but a FIFO/);
  });

  it.each([
    ['a getter that throws', 'export default { get out() { throw new Error("boom from a getter"); } };', /config file \S*schema-sync\.config\.mjs: reading its export threw Error: boom from a getter/],
    ['a Proxy whose trap throws', 'export default new Proxy({}, { ownKeys() { throw new TypeError("trap"); } });', /reading its export threw TypeError: trap/],
    ['a promise that rejects', 'export default Promise.reject(new Error("no config today"));', /reading its export threw Error: no config today/],
  ])('a config module exporting %s is a config error', async (_what, source, words) => {
    const root = await project();
    writeFileSync(join(root, 'schema-sync.config.mjs'), source);
    refused(await inProcess(root, ['generate', '--out', 'out']), words);
  });

  it('a config module exporting a promise that never settles is an error, not a silent exit', async () => {
    const root = await project();
    writeFileSync(join(root, 'schema-sync.config.mjs'), 'export default new Promise(() => {});');
    refused(await child(root, ['generate', '--out', 'out']), /config file \S*schema-sync\.config\.mjs exports a promise that never settles/);
  });
});
