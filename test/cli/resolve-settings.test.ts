import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { COMMANDS } from '../../src/cli/commands/table.js';
import type { CliIo } from '../../src/cli/io.js';
import { ParsedArgs } from '../../src/cli/parsed-args.js';
import { readReportFlag, UsageError } from '../../src/cli/report-flag.js';
import { resolveSettings } from '../../src/cli/resolve-settings.js';
import { removeDir, tempDir } from '../helpers/cli.js';
import { messageText } from '../../src/model/message.js';
import { kebab } from '../../src/util/case.js';

let dir: string;
beforeEach(async () => {
  dir = await tempDir('schema-sync-resolve-');
  await mkdir(join(dir, '.git'));
  await mkdir(join(dir, 'src'));
});
afterEach(() => removeDir(dir));

/** Flags as yargs gives them (camel-cased), `format` as the array it collects. */
type Flags = Record<string, unknown> & { format?: string[] };

const io = (cwd: string, env: NodeJS.ProcessEnv = {}): CliIo => ({ stdout: new PassThrough(), stderr: new PassThrough(), stdin: new PassThrough(), env, cwd });
const command = (name: string) => COMMANDS.find((spec) => spec.name === name)!;
const REPORTING = COMMANDS.filter((spec) => (spec.reports?.length ?? 0) > 0).map((spec) => spec.name);
const reportOf = (name: string, args: Flags) => readReportFlag(command(name), REPORTING, args.format ?? []);
/** The settings of `name` run in `cwd` with these flags: the settings and the project root (`cwd`), as the library gets them. */
const resolveIn = async (cwd: string, name: string, args: Flags = {}, env: NodeJS.ProcessEnv = {}) => {
  const resolved = await resolveSettings(command(name).flags, new ParsedArgs({ _: [name], ...args }), reportOf(name, args), io(cwd, env));
  return { ...resolved, library: { ...resolved.settings, cwd: resolved.cwd } };
};
const writeConfig = (config: unknown) => writeFile(join(dir, 'schema-sync.config.json'), JSON.stringify(config));
const usage = (name: string, args: Flags) => {
  try {
    reportOf(name, args);
  } catch (error) {
    expect(error).toBeInstanceOf(UsageError);
    return error as UsageError;
  }
  throw new Error('expected a UsageError');
};

describe('prettier', () => {
  it('is undefined when neither a flag nor the config says anything', async () => {
    expect((await resolveIn(dir, 'generate')).library.prettier).toBeUndefined();
    await writeConfig({ report: 'json' });
    expect((await resolveIn(dir, 'generate')).library.prettier).toBeUndefined();
  });

  it('comes from the config, and a flag overrides it', async () => {
    await writeConfig({ prettier: false });
    expect((await resolveIn(dir, 'generate')).library.prettier).toBe(false);
    expect((await resolveIn(dir, 'generate', { prettier: true })).library.prettier).toBe(true);
    await writeConfig({ prettier: true });
    expect((await resolveIn(dir, 'pull', { prettier: false })).library.prettier).toBe(false);
  });

  it('reads the deprecated config "format" with a warning; contradicting "prettier" is an error', async () => {
    await writeConfig({ format: 'none' });
    const resolved = await resolveIn(dir, 'generate');
    expect(resolved.library.prettier).toBe(false);
    expect(resolved.warnings.map((warning) => messageText(warning))).toEqual([`"format": "none" in ${join(dir, 'schema-sync.config.json')} is deprecated and will be removed in the next release: use "prettier": false.`]);
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
    expect((await resolveIn(dir, 'check')).settings.report).toBe('text');
    await writeConfig({ report: 'markdown' });
    expect((await resolveIn(dir, 'check')).settings.report).toBe('markdown');
    expect((await resolveIn(dir, 'check', { format: ['github'] })).settings.report).toBe('github');
  });

  it('a config "report" is no error for a command that prints none', async () => {
    await writeConfig({ report: 'json' });
    expect((await resolveIn(dir, 'generate')).warnings).toEqual([]);
  });

  it('usage errors: two report formats, a report format without a report, not a format', () => {
    expect(usage('pull', { format: ['json', 'text', 'github'] }).message).toBe('pull prints one report, but --format names 3: json, text, github.');
    expect(usage('generate', { format: ['text'] }).message).toBe('generate prints no report; --format text does not apply to it.');
    expect(usage('check', { format: ['biome'] }).message).toBe('--format "biome" is not a report format.');
    expect(usage('rules', { format: ['json', 'markdown'] }).message).toBe('rules prints a list as text or json, not markdown.');
  });

  it.each([
    [['prettier', 'none'], '--prettier'],
    [['none'], '--no-prettier'],
    [['prettier'], '--prettier'],
  ])('--format %j, the removed alias of --prettier, is a usage error naming %s', (format, replacement) => {
    const error = usage('generate', { format, prettier: true });
    expect(error.message).toBe(`--format ${format[0]} no longer formats the generated code: --format is the report format.`);
    expect(messageText(error.hint)).toBe(`Use ${replacement} instead.`);
  });
});

describe('paths', () => {
  it('config paths and defaults resolve against the config folder, flags against the working directory', async () => {
    await writeConfig({ out: 'gen', templates: 'tpl' });
    const fromConfig = (await resolveIn(join(dir, 'src'), 'pull')).library;
    expect(fromConfig).toMatchObject({ cwd: dir, out: 'gen', templates: 'tpl' });
    expect(fromConfig.lockfile).toBeUndefined();
    const fromFlags = (await resolveIn(join(dir, 'src'), 'pull', { out: 'o', lockfile: 'l.json', templates: 't', input: 'in.json' })).library;
    expect(fromFlags).toMatchObject({ cwd: dir, out: join(dir, 'src', 'o'), lockfile: join(dir, 'src', 'l.json'), templates: join(dir, 'src', 't'), input: join(dir, 'src', 'in.json') });
    expect((await resolveIn(join(dir, 'src'), 'pull', { input: '-' })).library.input).toBe('-');
  });

  it('without a config file the working directory is the root', async () => {
    const { library } = await resolveIn(join(dir, 'src'), 'generate');
    expect([library.cwd, library.out, library.lockfile]).toEqual([join(dir, 'src'), undefined, undefined]);
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

describe('merge order', () => {
  // One setting from each source that has it: a flag beats the environment, which beats the
  // config file, which beats the default.
  it.each([
    ['the default', {}, {}, {}, 'text'],
    ['the file over the default', { report: 'markdown' }, {}, {}, 'markdown'],
    ['a flag over the file', { report: 'markdown' }, {}, { format: ['json'] }, 'json'],
  ])('report: %s', async (_, config, env, flags, want) => {
    await writeConfig(config);
    expect((await resolveIn(dir, 'check', flags, env)).settings.report).toBe(want);
  });

  it.each([
    ['the file', { baseUrl: 'https://file.example.com' }, {}, {}, 'https://file.example.com'],
    ['the environment over the file', { baseUrl: 'https://file.example.com' }, { SCHEMA_SYNC_BASE_URL: 'https://env.example.com' }, {}, 'https://env.example.com'],
    ['an empty variable is none', { baseUrl: 'https://file.example.com' }, { SCHEMA_SYNC_BASE_URL: '' }, {}, 'https://file.example.com'],
    ['a flag over the environment', { baseUrl: 'https://file.example.com' }, { SCHEMA_SYNC_BASE_URL: 'https://env.example.com' }, { baseUrl: 'https://flag.example.com' }, 'https://flag.example.com'],
    ['none of them', {}, {}, {}, undefined],
  ])('baseUrl: %s', async (_, config, env, flags, want) => {
    await writeConfig(config);
    expect((await resolveIn(dir, 'pull', flags, env)).settings.baseUrl).toBe(want);
  });

  it.each([
    ['the environment', { SCHEMA_SYNC_API_KEY: 'env-key' }, {}, 'env-key'],
    ['a flag over the environment', { SCHEMA_SYNC_API_KEY: 'env-key' }, { apiKey: 'flag-key' }, 'flag-key'],
  ])('apiKey: %s', async (_, env, flags, want) => {
    expect((await resolveIn(dir, 'pull', flags, env)).settings.apiKey).toBe(want);
  });

  it.each([
    ['retries', { retries: 5 }, { retries: 1 }],
    ['timeout', { timeout: 1000 }, { timeout: 2000 }],
    ['lockWait', {}, { lockWait: 0 }],
    ['failOn', { failOn: 'breaking' }, { failOn: 'any' }],
    ['fields', { fields: true }, { fields: false }],
    ['int64', { int64: 'bigint' }, { int64: 'string' }],
    ['cmd', { cmd: 'getmsgtypes' }, { cmd: 'other' }],
  ])('%s: a flag over the file', async (key, config, flags) => {
    await writeConfig(config);
    const name = key === 'failOn' ? 'check' : 'pull';
    if (key in config) expect((await resolveIn(dir, name)).settings).toHaveProperty(key, (config as Record<string, unknown>)[key]);
    expect((await resolveIn(dir, name, flags)).settings).toHaveProperty(key, (flags as Record<string, unknown>)[key]);
  });
});

describe('every flag is validated as its config key is', () => {
  it.each([
    ['--timeout abc', { timeout: 'abc' }, '--timeout takes a whole number of milliseconds from 1 (got "abc")'],
    ['--timeout 0', { timeout: '0' }, '--timeout takes a whole number of milliseconds from 1 (got 0)'],
    ['--retries -1', { retries: '-1' }, '--retries takes a whole number from 0 to 10 (got -1)'],
    ['--retries abc', { retries: 'abc' }, '--retries takes a whole number from 0 to 10 (got "abc")'],
    ['--retries 11', { retries: '11' }, '--retries takes a whole number from 0 to 10 (got 11)'],
    ['--lock-wait abc', { lockWait: 'abc' }, '--lock-wait takes a whole number of milliseconds from 0 (got "abc")'],
    ['--limit 2.5', { limit: '2.5' }, '--limit takes a whole number from 1 to 10000 (got "2.5")'],
    ['--max-bytes 0', { maxBytes: '0' }, '--max-bytes takes a whole number of bytes from 1 (got 0)'],
    ['--base-url ftp://x', { baseUrl: 'ftp://x' }, '--base-url: expected an absolute http(s) URL, e.g. "https://schemas.example.com"'],
  ])('%s', async (_, flags, problem) => {
    await expect(resolveIn(dir, 'pull', flags)).rejects.toMatchObject({ code: 'CONFIG', message: `invalid flags:\n  ${problem}`, hint: 'Run schema-sync pull --help.' });
  });

  it('--package-version 1.2 is told as the library tells the option, naming the value', async () => {
    await expect(resolveIn(dir, 'generate', { packageVersion: '1.2' })).rejects.toMatchObject({ code: 'CONFIG', message: 'The package version "1.2" is not a version x.y.z.' });
  });

  it('with the words of the config key', async () => {
    for (const [key, value] of [['retries', -1], ['timeout', 0], ['limit', 2.5]] as const) {
      await writeConfig({ [key]: value });
      const fromFile = (await resolveIn(dir, 'pull').then(() => undefined, (error: Error) => error))!;
      await writeConfig({});
      const fromFlag = (await resolveIn(dir, 'pull', { [key]: value }).then(() => undefined, (error: Error) => error))!;
      expect(fromFlag.message.split(`--${kebab(key)} `)[1]).toBe(fromFile.message.split(`"${key}" `)[1]);
    }
  });

  it('names every bad flag at once, and a bad variable by its name', async () => {
    await expect(resolveIn(dir, 'pull', { retries: '-1', timeout: 'abc' })).rejects.toThrow(/^invalid flags:\n {2}--timeout takes .*\n {2}--retries takes /);
    await expect(resolveIn(dir, 'pull', {}, { SCHEMA_SYNC_BASE_URL: 'not a url' })).rejects.toMatchObject({
      code: 'CONFIG',
      message: 'invalid environment variables:\n  SCHEMA_SYNC_BASE_URL: expected an absolute http(s) URL, e.g. "https://schemas.example.com"',
    });
    // generate has no base URL: the variable means nothing to it.
    expect((await resolveIn(dir, 'generate', {}, { SCHEMA_SYNC_BASE_URL: 'not a url' })).settings.baseUrl).toBeUndefined();
  });
});
