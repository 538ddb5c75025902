import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadConfig, validateConfig } from '../../src/config/load-config.js';
import { ConfigError } from '../../src/model/errors.js';
import { removeDir, tempDir } from '../helpers/cli.js';

const SECRET = 'sk_live_CONFIG_SECRET_4711';

function errorOf(json: unknown): ConfigError {
  try {
    validateConfig(json, 'schema-sync.config.json');
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return error as ConfigError;
  }
  throw new Error('expected a ConfigError');
}

describe('validateConfig', () => {
  it('accepts a valid config and returns it', () => {
    expect(validateConfig({ baseUrl: 'https://schemas.example.com', limit: 5000, report: 'json' }, 'c.json')).toEqual({
      baseUrl: 'https://schemas.example.com',
      limit: 5000,
      report: 'json',
    });
  });

  it('names every wrong key path at once, with what was expected', () => {
    const error = errorOf({ baseUrl: 'not a url', limit: 0, retries: 'three', report: 'xml', failOn: 'all', format: 'biome', out: '' });
    expect(error.code).toBe('CONFIG');
    const lines = error.message.split('\n').slice(1).map((l) => l.trim());
    expect(lines.map((l) => /^"([^"]+)"/.exec(l)?.[1])).toEqual(['baseUrl', 'out', 'limit', 'retries', 'format', 'report', 'failOn']);
    expect(error.message).toMatch(/"baseUrl": expected an absolute http\(s\) URL/);
    expect(error.message).toMatch(/"limit" takes a whole number from 1 to 10000 \(got 0\)/);
    expect(error.message).toMatch(/"retries" takes a whole number from 0 to 10 \(got "three"\)/);
    expect(error.message).toMatch(/"report": .*"text"\|"json"\|"markdown"\|"github"/);
    expect(error.message).toMatch(/"failOn": .*"any"\|"breaking"/);
    expect(error.hint).toMatch(/configuration reference/);
  });

  it('reports unknown keys with a did-you-mean hint, together with the other problems', () => {
    const error = errorOf({ baseURL: 'https://x.example', fromat: 'prettier', outDir: 'x', zzzzzz: 1, limit: -1 });
    expect(error.message).toContain('"baseURL": unknown key (did you mean "baseUrl"?)');
    expect(error.message).toContain('"fromat": unknown key (did you mean "format"?)');
    expect(error.message).toContain('"outDir": unknown key (did you mean "out"?)');
    expect(error.message).toMatch(/"zzzzzz": unknown key$/m);
    expect(error.message).toContain('"limit"');
  });

  it('refuses a literal API key or secret, names the variable, never echoes the value', () => {
    for (const [key, variable] of [
      ['apiKey', 'SCHEMA_SYNC_API_KEY'],
      ['apikey', 'SCHEMA_SYNC_API_KEY'],
      ['api_key', 'SCHEMA_SYNC_API_KEY'],
      ['API-KEY', 'SCHEMA_SYNC_API_KEY'],
      ['secret', 'SCHEMA_SYNC_SECRET'],
      ['apiSecret', 'SCHEMA_SYNC_SECRET'],
    ] as const) {
      const error = errorOf({ baseUrl: 'https://schemas.example.com', [key]: SECRET });
      const text = `${error.message}\n${error.hint}`;
      expect(text, key).toContain(variable);
      expect(text, key).toContain(`"${key}"`);
      expect(text, key).not.toContain(SECRET);
      expect(error.message, key).toMatch(/holds a literal credential/);
    }
  });

  it('refuses credentials inside baseUrl without echoing them', () => {
    for (const baseUrl of [`https://user:${SECRET}@schemas.example.com`, `https://schemas.example.com/?apikey=${SECRET}`, `https://schemas.example.com/?secret=${SECRET}`]) {
      const error = errorOf({ baseUrl });
      expect(`${error.message}\n${error.hint}`).not.toContain(SECRET);
      expect(error.message).toContain('"baseUrl": holds a credential');
    }
  });

  it('lists a credential and the other problems together', () => {
    const error = errorOf({ apiKey: SECRET, secret: SECRET, limit: 'x', outt: 'a' });
    expect(error.message).toContain('"apiKey"');
    expect(error.message).toContain('"secret"');
    expect(error.message).toContain('"limit"');
    expect(error.message).toContain('"outt": unknown key (did you mean "out"?)');
    expect(error.hint).toContain('SCHEMA_SYNC_API_KEY and SCHEMA_SYNC_SECRET');
    expect(`${error.message}${error.hint}`).not.toContain(SECRET);
  });

  it('rejects a config that is not an object', () => {
    expect(errorOf([]).message).toContain('"(top level)"');
    expect(errorOf('x').message).toContain('"(top level)"');
  });
});

describe('loadConfig', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await tempDir();
    // The repository root: the upward search for a config file ends here.
    await mkdir(join(dir, '.git'));
  });
  afterEach(() => removeDir(dir));

  it('treats a missing default file as an empty config, but a missing --config file as an error', async () => {
    expect(await loadConfig({ cwd: dir })).toEqual({ config: {}, warnings: [], searched: { from: dir, to: expect.any(String) } });
    await expect(loadConfig({ cwd: dir, explicit: 'other.json' })).rejects.toMatchObject({ code: 'CONFIG', hint: expect.stringMatching(/--config/) });
  });

  it('reads the file named by --config', async () => {
    await writeFile(join(dir, 'other.json'), JSON.stringify({ cmd: 'getmsgtypes' }));
    expect(await loadConfig({ cwd: dir, explicit: 'other.json' })).toEqual({ config: { cmd: 'getmsgtypes' }, path: join(dir, 'other.json'), warnings: [] });
  });

  it('reads a file that starts with a UTF-8 byte order mark (as some Windows editors save it)', async () => {
    await writeFile(join(dir, 'schema-sync.config.json'), `\uFEFF${JSON.stringify({ cmd: 'getmsgtypes' })}`);
    expect(await loadConfig({ cwd: dir })).toEqual({ config: { cmd: 'getmsgtypes' }, path: join(dir, 'schema-sync.config.json'), warnings: [], searched: { from: dir, to: dir } });
  });

  it('says where invalid JSON is broken, without quoting the file (it may hold a secret)', async () => {
    await writeFile(join(dir, 'schema-sync.config.json'), `{\n  "apiKey": ${SECRET}\n}`);
    const error = (await loadConfig({ cwd: dir }).catch((e: unknown) => e)) as ConfigError;
    expect(error.code).toBe('CONFIG');
    expect(error.message).toContain('not valid JSON');
    expect(error.message).not.toContain(SECRET);
    await writeFile(join(dir, 'schema-sync.config.json'), '{\n  "cmd": "x",\n}');
    const trailing = (await loadConfig({ cwd: dir }).catch((e: unknown) => e)) as ConfigError;
    expect(trailing.message).toMatch(/line 3, column 1/);
  });
});
