import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { validateConfig } from '../../src/config/load-config.js';
import { removeDir, tempDir } from '../helpers/cli.js';
import { runInProcess } from './fake-io.js';

let dir: string;
beforeEach(async () => {
  dir = await tempDir();
});
afterEach(() => removeDir(dir));

const init = (...args: string[]) => runInProcess(['init', ...args], { cwd: dir });
const readConfig = async (name = 'schema-sync.config.json') => JSON.parse(await readFile(join(dir, name), 'utf8')) as Record<string, unknown>;

describe('init', () => {
  it('writes a starter config that references the JSON Schema and passes validation', async () => {
    const run = await init();
    expect(run.code).toBe(0);
    const config = await readConfig();
    expect(config).toEqual({
      $schema: './node_modules/schema-sync/config.schema.json',
      baseUrl: 'https://schemas.example.com',
      cmd: 'getmsgtypes',
      out: 'src/generated/schema',
      lockfile: 'schema-sync.lock.json',
    });
    expect(validateConfig(config, 'x')).toEqual(config);
    expect(run.stderr).toContain('Wrote schema-sync.config.json.');
    expect(run.stderr).toMatch(/Set "baseUrl"/);
    expect(run.stderr).toContain('SCHEMA_SYNC_API_KEY');
  });

  it('prints the npm scripts to add, as package.json JSON on stdout', async () => {
    const run = await init();
    expect(JSON.parse(run.stdout)).toEqual({
      scripts: { prebuild: 'schema-sync generate', 'schema:pull': 'schema-sync pull', 'schema:check': 'schema-sync check' },
    });
  });

  it('suggests only missing scripts, keeping an existing prebuild', async () => {
    await writeFile(join(dir, 'package.json'), JSON.stringify({ scripts: { prebuild: 'tsc -p .', 'schema:pull': 'schema-sync pull' } }));
    const run = await init();
    expect(JSON.parse(run.stdout)).toEqual({ scripts: { prebuild: 'schema-sync generate && tsc -p .', 'schema:check': 'schema-sync check' } });
  });

  it('refuses to overwrite an existing config without --force (exit 2), leaving it as it was', async () => {
    await writeFile(join(dir, 'schema-sync.config.json'), '{"cmd":"mine"}\n');
    const run = await init();
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/^error \[REFUSED\]: schema-sync.config.json already exists; nothing was written\./);
    expect(run.stderr).toContain('--force');
    expect(run.stdout).toBe('');
    expect(await readFile(join(dir, 'schema-sync.config.json'), 'utf8')).toBe('{"cmd":"mine"}\n');
  });

  it('refuses a starter JSON config beside a .mjs or .js config, even with --force (exit 2): the folder would hold two', async () => {
    for (const name of ['schema-sync.config.mjs', 'schema-sync.config.js']) {
      await writeFile(join(dir, name), 'export default {};\n');
      const run = await init('--force');
      expect(run.code).toBe(2);
      expect(run.stderr).toMatch(new RegExp(`^error \\[REFUSED\\]: ${name.replace(/\./g, '\\.')} already exists; nothing was written\\.`));
      expect(run.stderr).toContain(`edit ${name}`);
      await expect(readFile(join(dir, 'schema-sync.config.json'), 'utf8')).rejects.toThrow();
      await rm(join(dir, name));
    }
  });

  it('overwrites with --force, taking --base-url and --out', async () => {
    await writeFile(join(dir, 'schema-sync.config.json'), '{"cmd":"mine"}\n');
    const run = await init('--force', '--base-url', 'http://127.0.0.1:8080', '--out', 'gen');
    expect(run.code).toBe(0);
    expect(await readConfig()).toMatchObject({ baseUrl: 'http://127.0.0.1:8080', out: 'gen' });
    expect(run.stderr).not.toMatch(/Set "baseUrl"/);
  });

  it('writes where --config says, with $schema relative to that folder', async () => {
    await mkdir(join(dir, 'config'));
    const run = await init('--config', 'config/schema-sync.json');
    expect(run.code).toBe(0);
    expect((await readConfig('config/schema-sync.json'))['$schema']).toBe('../node_modules/schema-sync/config.schema.json');
  });

  it('refuses a bad --base-url before writing anything', async () => {
    const run = await init('--base-url', 'schemas.example.com');
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('"baseUrl": expected an absolute http(s) URL');
    await expect(readFile(join(dir, 'schema-sync.config.json'))).rejects.toThrow(/ENOENT/);
  });

  it('--quiet prints nothing but still writes', async () => {
    const run = await init('--quiet');
    expect(run).toEqual({ code: 0, stdout: '', stderr: '' });
    expect(await readConfig()).toHaveProperty('$schema');
  });

  it('reports a missing folder as exit 2 with a hint', async () => {
    const run = await init('--config', 'nope/schema-sync.config.json');
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/error \[WRITE\]: cannot write .*\nhint: Create the folder first/);
  });
});
