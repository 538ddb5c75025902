import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { findConfig } from '../../src/config/find-config.js';
import { ConfigError } from '../../src/model/errors.js';
import { removeDir, tempDir } from '../helpers/cli.js';
import { messageText } from '../../src/model/message.js';

let dir: string;
let repo: string;
beforeEach(async () => {
  dir = await tempDir();
  repo = join(dir, 'repo');
  await mkdir(join(repo, '.git'), { recursive: true });
  await mkdir(join(repo, 'src', 'deep'), { recursive: true });
});
afterEach(() => removeDir(dir));

const touch = (path: string) => writeFile(path, '{}\n');
const errorOf = async (cwd: string) => {
  const error = await findConfig(cwd).catch((e: unknown) => e);
  expect(error).toBeInstanceOf(ConfigError);
  return error as ConfigError;
};

describe('findConfig', () => {
  it.each(['schema-sync.config.json', 'schema-sync.config.mjs', 'schema-sync.config.js'])('finds %s from a subfolder', async (name) => {
    await touch(join(repo, name));
    expect(await findConfig(join(repo, 'src', 'deep'))).toEqual({ path: join(repo, name), warnings: [], searched: { from: join(repo, 'src', 'deep'), to: repo } });
  });

  it('takes the nearest folder that holds one', async () => {
    await touch(join(repo, 'schema-sync.config.json'));
    await touch(join(repo, 'src', 'schema-sync.config.mjs'));
    expect(await findConfig(join(repo, 'src', 'deep'))).toEqual({ path: join(repo, 'src', 'schema-sync.config.mjs'), warnings: [], searched: { from: join(repo, 'src', 'deep'), to: join(repo, 'src') } });
  });

  it('stops at the repository root (.git as a folder or, in a worktree, a file)', async () => {
    await touch(join(dir, 'schema-sync.config.json'));
    expect(await findConfig(join(repo, 'src'))).toEqual({ warnings: [], searched: { from: join(repo, 'src'), to: repo } });
    await removeDir(join(repo, '.git'));
    await writeFile(join(repo, '.git'), 'gitdir: /elsewhere\n');
    expect(await findConfig(join(repo, 'src'))).toEqual({ warnings: [], searched: { from: join(repo, 'src'), to: repo } });
    await removeDir(join(repo, '.git'));
    expect(await findConfig(join(repo, 'src'))).toEqual({ path: join(dir, 'schema-sync.config.json'), warnings: [], searched: { from: join(repo, 'src'), to: dir } });
  });

  it('refuses two config files in one folder, naming both', async () => {
    await touch(join(repo, 'schema-sync.config.json'));
    await touch(join(repo, 'schema-sync.config.mjs'));
    const error = await errorOf(join(repo, 'src'));
    expect(error.message).toBe(`${repo} holds 2 config files: schema-sync.config.json and schema-sync.config.mjs; schema-sync reads one.`);
    expect(error.hint).toBe('Keep one of them, or name the one to use with --config.');
  });

  it.each(['schema-sync.config.ts', 'schema-sync.config.cjs', 'schema-sync.config.yaml', 'schema-sync.config.yml', 'schema-sync.config.toml', '.schema-syncrc', '.schema-syncrc.json', 'schema-sync.json', 'Schema-Sync.config.json'])(
    'never ignores %s silently',
    async (name) => {
      await touch(join(repo, name));
      const error = await errorOf(join(repo, 'src'));
      expect(error.message).toBe(`${join(repo, name)} is not read: schema-sync reads schema-sync.config.json, schema-sync.config.mjs or schema-sync.config.js.`);
      expect(error.hint).toContain('--config');
    },
  );

  it('names every unread file at once', async () => {
    await touch(join(repo, 'schema-sync.config.ts'));
    await touch(join(repo, 'schema-sync.config.yaml'));
    expect((await errorOf(repo)).message).toBe(
      `${join(repo, 'schema-sync.config.ts')} and ${join(repo, 'schema-sync.config.yaml')} are not read: schema-sync reads schema-sync.config.json, schema-sync.config.mjs or schema-sync.config.js.`,
    );
  });

  it('warns about an unread name beside the one that is read', async () => {
    await touch(join(repo, 'schema-sync.config.mjs'));
    await touch(join(repo, 'schema-sync.config.ts'));
    const found = await findConfig(repo);
    expect({ ...found, warnings: found.warnings.map((warning) => messageText(warning)) }).toEqual({
      path: join(repo, 'schema-sync.config.mjs'),
      warnings: [`${join(repo, 'schema-sync.config.ts')} is not read; using ${join(repo, 'schema-sync.config.mjs')}.`],
      searched: { from: repo, to: repo },
    });
  });

  it('leaves files that are not config names alone', async () => {
    for (const name of ['schema-sync.lock.json', 'schema-sync', 'config.json', 'schema-sync.configuration']) await touch(join(repo, name));
    await mkdir(join(repo, 'schema-sync.config.d'));
    expect(await findConfig(repo)).toEqual({ warnings: [], searched: { from: repo, to: repo } });
  });
});
