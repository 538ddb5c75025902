/**
 * Arguments that reach git (issue 42, item 4): `diff --against <rev>` and `diff <rev>:<path>` run
 * `git show`. A revision that begins with `-` would be read by git as an option (`--output=<file>`
 * makes git write that file), so it is refused before git runs, and every revision is passed
 * after `--end-of-options`.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { removeDir, tempDir } from '../helpers/cli.js';
import { runCli } from '../helpers/in-process.js';
import { diffLockfiles } from '../../src/index.js';
import { syntheticListing } from './helpers.js';

let repo: string;
beforeAll(async () => {
  repo = await tempDir('schema-sync-git-args-');
  const git = (...args: string[]) => execFileSync('git', args, { cwd: repo });
  writeFileSync(join(repo, 'listing.json'), JSON.stringify(syntheticListing(3)));
  const pulled = await runCli(['pull', '--input', 'listing.json', '--out', 'out', '--quiet'], { cwd: repo, env: { SCHEMA_SYNC_CACHE_DIR: 'off' } });
  expect(pulled.code, pulled.stderr).toBe(0);
  git('init', '-q', '-b', 'main');
  git('-c', 'user.name=T', '-c', 'user.email=t@example.com', '-c', 'commit.gpgsign=false', 'commit', '-q', '--allow-empty', '-m', 'empty');
  git('add', '-A');
  git('-c', 'user.name=T', '-c', 'user.email=t@example.com', '-c', 'commit.gpgsign=false', 'commit', '-q', '-m', 'lockfile');
});
afterAll(() => removeDir(repo));

const diff = (...args: string[]) => runCli(['diff', ...args], { cwd: repo, env: { SCHEMA_SYNC_CACHE_DIR: 'off' } });

describe('git arguments', () => {
  const target = () => join(repo, 'written-by-git');
  const injections: Array<[string, () => string[]]> = [
    ['--against=--output=<file>', () => [`--against=--output=${target()}`]],
    ['--against=-p', () => ['--against=-p']],
  ];
  it.each(injections)('%s is refused before git runs; git writes nothing', async (_what, args) => {
    const run = await diff(...args());
    expect(run.code, run.stderr).toBe(2);
    expect(run.stderr).toMatch(/the revision -\S* begins with "-", which git would read as an option; schema-sync did not run git/);
    expect(readdirSync(repo).filter((name) => name.startsWith('written-by-git'))).toEqual([]);
    expect(existsSync(target())).toBe(false);
  });

  it('a base <rev>:<path> whose revision is --output=<file> (the library; the CLI takes it for a flag) is refused', async () => {
    const error = await diffLockfiles({ cwd: repo, base: `--output=${target()}:schema-sync.lock.json` }).catch((failure: unknown) => failure);
    expect((error as Error).message).toMatch(/the revision --output=\S* begins with "-", which git would read as an option/);
    expect(existsSync(target())).toBe(false);
    expect(readdirSync(repo).filter((name) => name.startsWith('written-by-git'))).toEqual([]);
  });

  it('a revision is still read as one (after --end-of-options)', async () => {
    const same = await diff('--against', 'HEAD');
    expect(same.code, same.stderr).toBe(0);
    const base = await diff('HEAD:schema-sync.lock.json');
    expect(base.code, base.stderr).toBe(0);
  });
});
