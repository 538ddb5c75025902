import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { CliIo } from '../../src/cli/io.js';
import { readFormatFlags, resolveOptions, UsageError, type CliArgs } from '../../src/cli/resolve-options.js';
import { removeDir, tempDir } from '../helpers/cli.js';

let dir: string;
beforeEach(async () => {
  dir = await tempDir('schema-sync-resolve-');
  await mkdir(join(dir, '.git'));
  await mkdir(join(dir, 'src'));
});
afterEach(() => removeDir(dir));

const io = (cwd: string): CliIo => ({ stdout: new PassThrough(), stderr: new PassThrough(), stdin: new PassThrough(), env: {}, cwd });
const resolveIn = (cwd: string, command: string, args: CliArgs = {}) => resolveOptions(args, io(cwd), readFormatFlags(command, args));
const writeConfig = (config: unknown) => writeFile(join(dir, 'schema-sync.config.json'), JSON.stringify(config));
const usage = (command: string, args: CliArgs) => {
  try {
    readFormatFlags(command, args);
  } catch (error) {
    expect(error).toBeInstanceOf(UsageError);
    return error as UsageError;
  }
  throw new Error('expected a UsageError');
};

describe('prettier', () => {
  it('is undefined when neither a flag nor the config says anything', async () => {
    expect((await resolveIn(dir, 'generate')).library).toHaveProperty('prettier', undefined);
    await writeConfig({ report: 'json' });
    expect((await resolveIn(dir, 'generate')).library.prettier).toBeUndefined();
  });

  it('comes from the config, and a flag overrides it', async () => {
    await writeConfig({ prettier: false });
    expect((await resolveIn(dir, 'generate')).library.prettier).toBe(false);
    expect((await resolveIn(dir, 'generate', { prettier: true })).library.prettier).toBe(true);
    await writeConfig({ prettier: true });
    expect((await resolveIn(dir, 'pull', { prettier: false })).library.prettier).toBe(false);
    expect((await resolveIn(dir, 'pull', { format: ['none'] })).library.prettier).toBe(false);
  });

  it('reads the deprecated config "format" with a warning; contradicting "prettier" is an error', async () => {
    await writeConfig({ format: 'none' });
    const resolved = await resolveIn(dir, 'generate');
    expect(resolved.library.prettier).toBe(false);
    expect(resolved.warnings).toEqual([`"format": "none" in ${join(dir, 'schema-sync.config.json')} is deprecated and will be removed in the next release: use "prettier": false.`]);
    await writeConfig({ format: 'prettier', prettier: true });
    expect((await resolveIn(dir, 'generate')).library.prettier).toBe(true);
    await writeConfig({ format: 'prettier', prettier: false });
    await expect(resolveIn(dir, 'generate')).rejects.toMatchObject({
      code: 'CONFIG',
      message: `config file ${join(dir, 'schema-sync.config.json')} says "format": "prettier" and "prettier": false, which contradict each other.`,
      hint: 'Remove "format"; "prettier" replaces it.',
    });
  });
});

describe('report format', () => {
  it('comes from --format, else the config "report", else text', async () => {
    expect((await resolveIn(dir, 'check')).report).toBe('text');
    await writeConfig({ report: 'markdown' });
    expect((await resolveIn(dir, 'check')).report).toBe('markdown');
    expect((await resolveIn(dir, 'check', { format: ['github'] })).report).toBe('github');
  });

  it('a config "report" is no error for a command that prints none', async () => {
    await writeConfig({ report: 'json' });
    expect((await resolveIn(dir, 'generate')).warnings).toEqual([]);
  });

  it('usage errors: two report formats, a report format without a report, not a format, a contradiction', () => {
    expect(usage('pull', { format: ['json', 'text', 'github'] }).message).toBe('pull prints one report, but --format names 3: json, text, github.');
    expect(usage('generate', { format: ['text'] }).message).toBe('generate prints no report; --format text does not apply to it.');
    expect(usage('check', { format: ['biome'] }).message).toBe('--format "biome" is not a report format.');
    expect(usage('pull', { format: ['prettier', 'none'] }).message).toBe('--format prettier and --format none contradict each other.');
    expect(usage('pull', { format: ['none'], prettier: true }).message).toBe('--format none and --prettier contradict each other.');
  });

  it('--format prettier with --prettier agrees: one deprecation warning', () => {
    expect(readFormatFlags('generate', { format: ['prettier'], prettier: true })).toEqual({
      report: undefined,
      prettier: true,
      warnings: ['--format prettier is deprecated and will be removed in the next release: use --prettier.'],
    });
  });
});

describe('paths', () => {
  it('config paths and defaults resolve against the config folder, flags against the working directory', async () => {
    await writeConfig({ out: 'gen', templates: 'tpl' });
    const fromConfig = (await resolveIn(join(dir, 'src'), 'pull')).library;
    expect(fromConfig).toMatchObject({ cwd: dir, out: 'gen', lockfile: undefined, templates: 'tpl' });
    const fromFlags = (await resolveIn(join(dir, 'src'), 'pull', { out: 'o', lockfile: 'l.json', templates: 't', input: 'in.json' })).library;
    expect(fromFlags).toMatchObject({ cwd: dir, out: join(dir, 'src', 'o'), lockfile: join(dir, 'src', 'l.json'), templates: join(dir, 'src', 't'), input: join(dir, 'src', 'in.json') });
    expect((await resolveIn(join(dir, 'src'), 'pull', { input: '-' })).library.input).toBe('-');
  });

  it('without a config file the working directory is the root', async () => {
    expect((await resolveIn(join(dir, 'src'), 'generate')).library).toMatchObject({ cwd: join(dir, 'src'), out: undefined, lockfile: undefined });
  });
});

describe('target and package version', () => {
  it('come from the config, the flags winning; unset, the library decides (as recorded)', async () => {
    const none = (await resolveIn(dir, 'generate')).library;
    expect([none.target, none.packageVersion]).toEqual([undefined, undefined]);
    await writeConfig({ package: '@acme/schema', target: 'ts', packageVersion: '2.0.0' });
    expect((await resolveIn(dir, 'generate')).library).toMatchObject({ package: '@acme/schema', target: 'ts', packageVersion: '2.0.0' });
    expect((await resolveIn(dir, 'pull', { target: 'js+dts', packageVersion: '3.1.0' })).library).toMatchObject({ target: 'js+dts', packageVersion: '3.1.0' });
  });

  it('refuses a config target or version that is none', async () => {
    await writeConfig({ target: 'js', packageVersion: '1.0' });
    const error = (await resolveIn(dir, 'generate').then(() => undefined, (caught: unknown) => caught)) as Error;
    expect(error.message).toMatch(/"packageVersion": expected a version x\.y\.z/);
    expect(error.message).toMatch(/"target": .*"ts"\|"js\+dts"/);
  });
});
