/**
 * Which config file a command uses, said (issue 29 item 9): `init` in a subfolder finds the
 * project's config upward instead of writing a second one; every command that reads a config
 * names it under `--verbose`; a run that lacks a needed setting and found no config file says
 * where it looked. In this process (test/cli/fake-io.ts), each project bounded by a `.git` folder.
 */
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { removeDir, tempDir } from '../helpers/cli.js';
import { runInProcess } from './fake-io.js';

let dir: string;
let sub: string;
beforeEach(async () => {
  dir = await tempDir();
  await mkdir(join(dir, '.git'));
  sub = join(dir, 'packages', 'app');
  await mkdir(sub, { recursive: true });
});
afterEach(() => removeDir(dir));

const CONFIG = 'schema-sync.config.json';
const writeConfig = (folder: string) => writeFile(join(folder, CONFIG), JSON.stringify({ out: 'gen' }));
const cli = (args: string[], cwd = sub) => runInProcess(args, { cwd, env: {} });

describe('init in a subfolder of a project that has a config', () => {
  it('finds it upward, says so, and writes nothing (exit 2)', async () => {
    await writeConfig(dir);
    const run = await cli(['init']);
    expect(run.code).toBe(2);
    expect(run.stderr).toBe(
      `error [REFUSED]: this project already has a config: ../../${CONFIG} (found searching upward from ${sub}); nothing was written.\n` +
        'hint: Commands run here use it: edit it. To give this folder a config of its own, which commands run here and below find first, run `schema-sync init --force`.\n',
    );
    await expect(readFile(join(sub, CONFIG))).rejects.toThrow(/ENOENT/);
    expect(await readFile(join(dir, CONFIG), 'utf8')).toBe(JSON.stringify({ out: 'gen' }));
  });

  it('--force writes one here, saying it now takes the place of the project\'s', async () => {
    await writeConfig(dir);
    const run = await cli(['init', '--force']);
    expect(run.code).toBe(0);
    expect(run.stderr).toContain(`Wrote ${CONFIG}.\nCommands run in this folder and below now use it instead of ../../${CONFIG}.\n`);
    expect(JSON.parse(await readFile(join(sub, CONFIG), 'utf8'))).toHaveProperty('out', 'src/generated/schema');
  });

  it('--config writes where it is told, the project\'s config notwithstanding', async () => {
    await writeConfig(dir);
    const run = await cli(['init', '--config', 'schema-sync.config.json', '--verbose']);
    expect(run.code).toBe(0);
    expect(run.stderr).toContain(`config: ${join(sub, CONFIG)} (--config)\n`);
  });

  it('names what it searched under --verbose', async () => {
    const run = await cli(['init', '--verbose']);
    expect(run.code).toBe(0);
    expect(run.stderr).toContain(`config: none found (searched ${sub} up to ${dir})\n`);
  });
});

describe('--verbose says which config file a command used', () => {
  // Each command as far as it gets here: the config line comes first, whatever follows.
  const commands = [['pull'], ['check'], ['generate'], ['diff', 'a.json', 'b.json'], ['rules']];

  it.each(commands)('%s: the one found upward', async (...command) => {
    await writeConfig(dir);
    const run = await cli([...command, '--verbose']);
    expect(run.stderr.split('\n')[0]).toBe(`config: ${join(dir, CONFIG)}`);
  });

  it.each(commands)('%s: none, and where it looked', async (...command) => {
    const run = await cli([...command, '--verbose']);
    expect(run.stderr.split('\n')[0]).toBe(`config: none found (searched ${sub} up to ${dir})`);
  });

  it('not without --verbose', async () => {
    await writeConfig(dir);
    expect((await cli(['rules'])).stderr).not.toContain('config:');
  });
});

describe('a needed setting missing', () => {
  it('without a config file: the error says where none was found', async () => {
    const run = await cli(['pull']);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/^error \[CONFIG\]: no base URL: schema-sync does not know where the service is\.\n {2}no config file found \(searched (.*) up to (.*)\)\.\nhint: Pass --base-url/);
    expect(run.stderr).toContain(`\n  no config file found (searched ${sub} up to ${dir}).\n`);
  });

  it('with a config file (that has no base URL): the error as it was', async () => {
    await writeConfig(dir);
    const run = await cli(['pull']);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/^error \[CONFIG\]: no base URL: schema-sync does not know where the service is\.\nhint: /);
  });
});

describe('no lockfile, and no config file', () => {
  it('check and generate in a subfolder say where no config was found, beside the missing lockfile', async () => {
    for (const command of ['check', 'generate']) {
      const run = await cli([command]);
      expect(run.code, command).toBe(2);
      expect(run.stderr, command).toMatch(/^error \[LOCK\]: no lockfile at /);
      expect(run.stderr, command).toContain(`\n  no config file found (searched ${sub} up to ${dir}).\n`);
    }
  });

  it('with a config file found: the error as it was', async () => {
    await writeConfig(dir);
    const run = await cli(['generate']);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/^error \[LOCK\]: no lockfile at /);
    expect(run.stderr).not.toContain('no config file found');
  });
});
