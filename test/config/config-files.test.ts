import { mkdir, readdir, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ROOT, readTree, removeDir, runBin, tempDir } from '../helpers/cli.js';
import { runCli } from '../helpers/in-process.js';
import { smallListing } from '../helpers/listing.js';

/**
 * Config discovery by the CLI (run in this process, see test/helpers/in-process.ts): a project
 * folder (a repository root, `.git`) holding a saved listing, so pulls need no server.
 */
let dir: string;
let project: string;
beforeEach(async () => {
  dir = await tempDir('schema-sync-config-');
  project = join(dir, 'project');
  await mkdir(join(project, '.git'), { recursive: true });
  await mkdir(join(project, 'src', 'deep'), { recursive: true });
  await writeFile(join(project, 'listing.json'), JSON.stringify(smallListing(3)));
});
afterEach(() => removeDir(dir));

const at = (...parts: string[]) => join(project, ...parts);
const cli = (cwd: string, ...args: string[]) => runCli(args, { cwd });
const files = async (...parts: string[]) => [...(await readTree(at(...parts))).keys()];

describe('config discovery', () => {
  it('finds the config from a subfolder; its paths and the defaults resolve against its folder', async () => {
    await writeFile(at('schema-sync.config.json'), JSON.stringify({ out: 'gen' }));
    const pulled = await cli(at('src', 'deep'), 'pull', '--input', '../../listing.json', '--quiet');
    expect(pulled).toEqual({ code: 0, stdout: '', stderr: '' });
    expect(await files('gen')).toContain('index.ts');
    expect(await files()).toContain('schema-sync.lock.json');
    expect(await readdir(at('src', 'deep'))).toEqual([]);
    const generated = await cli(at('src'), 'generate');
    expect(generated.code).toBe(0);
    expect(generated.stderr).toMatch(/^3 types · 0 files written, 0 deleted in /);
    expect((await cli(at('src'), 'check', '--input', '../listing.json')).code).toBe(0);
    expect(await readdir(at('src'))).toEqual(['deep']);
  });

  it('with no config file the defaults resolve against the working directory, as before', async () => {
    const run = await cli(at('src'), 'generate');
    expect(run.code).toBe(2);
    // ...and, finding no config, the error says where it looked (issue 29 item 9).
    expect(run.stderr).toBe(
      `error [LOCK]: no lockfile at ${at('src', 'schema-sync.lock.json')}.\n  no config file found (searched ${at('src')} up to ${at()}).\nhint: Run \`schema-sync pull\` first to fetch the listing and write the lockfile, or pass --lockfile.\n`,
    );
  });

  it('resolves flags against the working directory, config paths against the config folder', async () => {
    await writeFile(at('schema-sync.config.json'), JSON.stringify({ out: 'gen', lockfile: 'locks.json' }));
    expect((await cli(at('src'), 'pull', '--input', '../listing.json', '--out', 'here', '--quiet')).code).toBe(0);
    expect(await files('src', 'here')).toContain('index.ts');
    expect(await files()).toContain('locks.json');
    expect(await files()).not.toContain('gen/index.ts');
    expect((await cli(at('src'), 'generate', '--lockfile', '../locks.json', '--quiet')).code).toBe(0);
    expect(await files('gen')).toContain('index.ts');
  });

  it('stops at the repository root: a config above it is not used', async () => {
    await writeFile(join(dir, 'schema-sync.config.json'), JSON.stringify({ lockfile: 'outer.lock.json' }));
    const run = await cli(at('src'), 'generate');
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(`error [LOCK]: no lockfile at ${at('src', 'schema-sync.lock.json')}.`);
  });

  it('refuses two config files in one folder, naming both', async () => {
    await writeFile(at('schema-sync.config.json'), '{}');
    await writeFile(at('schema-sync.config.js'), 'module.exports = {};');
    const run = await cli(at('src'), 'generate');
    expect(run).toEqual({
      code: 2,
      stdout: '',
      stderr: `error [CONFIG]: ${project} holds 2 config files: schema-sync.config.json and schema-sync.config.js; schema-sync reads one.\nhint: Keep one of them, or name the one to use with --config.\n`,
    });
  });

  it('never ignores a config name it does not read', async () => {
    await writeFile(at('schema-sync.config.ts'), 'export default {};');
    const run = await cli(at('src'), 'generate');
    expect(run).toEqual({
      code: 2,
      stdout: '',
      stderr:
        `error [CONFIG]: ${at('schema-sync.config.ts')} is not read: schema-sync reads schema-sync.config.json, schema-sync.config.mjs or schema-sync.config.js.\n` +
        "hint: Rename it to one of those (in .mjs or .js, `export default defineConfig({ … })` with defineConfig from 'schema-sync' gives a typed config), or name a config file with --config.\n",
    });
  });

  it('warns about an unread config name beside the one it reads, and goes on', async () => {
    await writeFile(at('schema-sync.config.json'), JSON.stringify({ out: 'gen' }));
    await writeFile(at('.schema-syncrc'), '{}');
    const run = await cli(at('src'), 'pull', '--input', '../listing.json');
    expect(run.code).toBe(0);
    expect(run.stderr).toContain(`warning: ${at('.schema-syncrc')} is not read; using ${at('schema-sync.config.json')}.\n`);
    expect(await files('gen')).toContain('index.ts');
  });
});

describe('config file kinds', () => {
  it.each([
    ['schema-sync.config.json', '{ "out": "gen-kind" }', undefined],
    ['schema-sync.config.mjs', 'export default { out: "gen-kind" };', undefined],
    ['schema-sync.config.js', 'export default { out: "gen-kind" };', { type: 'module' }],
    ['schema-sync.config.js', 'module.exports = { out: "gen-kind" };', { type: 'commonjs' }],
  ] as const)('reads %s (%s)', async (name, text, pkg) => {
    if (pkg) await writeFile(at('package.json'), JSON.stringify(pkg));
    await writeFile(at(name), text);
    const run = await cli(at('src'), 'pull', '--input', '../listing.json');
    expect(run.stderr).not.toContain('warning');
    expect(run.code).toBe(0);
    expect(await files('gen-kind')).toContain('index.ts');
  });

  it('reads a config.mjs that imports defineConfig from the package (node_modules/schema-sync symlinked to this repository)', async () => {
    await mkdir(at('node_modules'));
    await symlink(ROOT, at('node_modules', 'schema-sync'), 'dir');
    await writeFile(
      at('schema-sync.config.mjs'),
      "import { defineConfig } from 'schema-sync';\n\nexport default defineConfig({ out: 'typed', lockfile: 'typed.lock.json' });\n",
    );
    const run = await cli(at('src'), 'pull', '--input', '../listing.json');
    expect(run.code).toBe(0);
    expect(await files('typed')).toContain('index.ts');
    expect(await readdir(project)).toContain('typed.lock.json');
  });

  it('names a module with top-level await, which it cannot load', async () => {
    await writeFile(at('schema-sync.config.mjs'), 'const out = await Promise.resolve("gen");\nexport default { out };\n');
    const run = await cli(at('src'), 'generate');
    expect(run).toEqual({
      code: 2,
      stdout: '',
      stderr:
        `error [CONFIG]: config file ${at('schema-sync.config.mjs')} uses top-level await, which schema-sync cannot load.\n` +
        'hint: Compute the configuration without top-level await (schema-sync loads config modules synchronously), or use schema-sync.config.json.\n',
    });
  });

  it('names a module without a default export, and one that throws', async () => {
    // The built CLI: one process loads a config module once (Node keeps it), and this test
    // rewrites the module between two runs.
    const cli = (cwd: string, ...args: string[]) => runBin(args, { cwd });
    await writeFile(at('schema-sync.config.mjs'), 'export const out = "gen";\n');
    expect((await cli(at('src'), 'generate')).stderr).toBe(
      `error [CONFIG]: config file ${at('schema-sync.config.mjs')} has no default export.\n` +
        "hint: Export the configuration as the module's default: `export default defineConfig({ … })` (defineConfig from 'schema-sync').\n",
    );
    await writeFile(at('schema-sync.config.mjs'), 'throw new Error("no settings here");\n');
    expect((await cli(at('src'), 'generate')).stderr).toBe(
      `error [CONFIG]: config file ${at('schema-sync.config.mjs')} failed to load: Error: no settings here\n` +
        `hint: Fix the error in the config module (\`node ${at('schema-sync.config.mjs')}\` shows it in full).\n`,
    );
  });

  it('validates a module config like a JSON one, never echoing a literal key', async () => {
    await writeFile(at('schema-sync.config.mjs'), 'export default { apiKey: "k-LITERAL-4711", limit: 0 };\n');
    const run = await cli(at('src'), 'generate');
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(`error [CONFIG]: config file ${at('schema-sync.config.mjs')} is invalid:\n`);
    expect(run.stderr).toContain('"apiKey": a literal credential is not allowed in a config file (use SCHEMA_SYNC_API_KEY)');
    expect(run.stderr).not.toContain('k-LITERAL-4711');
  });

  it('--config names a .json, .mjs or .js file anywhere; the file may not be of another kind', async () => {
    await mkdir(at('configs'));
    await writeFile(at('configs', 'ci.mjs'), 'export default { out: "../ci-gen" };\n');
    expect((await cli(at('src'), 'pull', '--config', '../configs/ci.mjs', '--input', '../listing.json', '--quiet')).code).toBe(0);
    expect(await files('ci-gen')).toContain('index.ts');
    // The config's folder is the project root whether the file was found or named: the defaults go there too.
    expect(await files('configs')).toContain('schema-sync.lock.json');
    await writeFile(at('configs', 'ci.yaml'), 'out: gen\n');
    expect(await cli(project, 'generate', '--config', 'configs/ci.yaml')).toEqual({
      code: 2,
      stdout: '',
      stderr:
        `error [CONFIG]: cannot read config file ${at('configs', 'ci.yaml')}: schema-sync reads JSON (.json) and JavaScript module (.mjs, .js) config files.\n` +
        'hint: Check the --config path, or convert the file to one of those.\n',
    });
  });
});
