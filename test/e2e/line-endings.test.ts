/**
 * A Windows checkout: Git for Windows (and Windows runners) default to `core.autocrlf=true`, so a
 * clone holds every committed text file with CRLF line endings. Its generated files differ from
 * what schema-sync writes only in line endings: `check` finds the folder in sync and `generate`
 * writes nothing.
 */
import { execFileSync } from 'node:child_process';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { removeDir, tempDir } from '../helpers/cli.js';
import { runCli } from '../helpers/in-process.js';
import { driftListings } from '../helpers/drift-listings.js';

let dir: string;
let clone: string;
const git = (cwd: string, ...args: string[]) => execFileSync('git', args, { cwd, encoding: 'utf8' });

beforeAll(async () => {
  dir = await tempDir('schema-sync-crlf-');
  const origin = join(dir, 'origin');
  await mkdir(origin);
  git(origin, 'init', '-q', '-b', 'main');
  git(origin, 'config', 'user.name', 'Schema Test');
  git(origin, 'config', 'user.email', 'schema-test@example.com');
  git(origin, 'config', 'commit.gpgsign', 'false');
  git(origin, 'config', 'core.autocrlf', 'false');
  await writeFile(join(origin, 'listing.json'), JSON.stringify(driftListings().before));
  const pulled = await runCli(['pull', '--input', 'listing.json', '--out', 'out', '--package', '@acme/types', '--quiet'], { cwd: origin });
  expect(pulled.code, pulled.stderr).toBe(0);
  git(origin, 'add', '-A');
  git(origin, 'commit', '-q', '-m', 'pulled');
  clone = join(dir, 'clone');
  git(dir, 'clone', '-q', '--config', 'core.autocrlf=true', origin, clone);
});
afterAll(() => removeDir(dir));

describe('a checkout with core.autocrlf=true', () => {
  it('holds the generated files with CRLF line endings (what the other tests rely on)', async () => {
    expect(await readFile(join(clone, 'out', 'index.js'), 'utf8')).toContain('\r\n');
  });

  it('is in sync for check', async () => {
    const run = await runCli(['check', '--input', 'listing.json', '--out', 'out'], { cwd: clone });
    expect(run.stdout + run.stderr).not.toMatch(/stale|out of date/i);
    expect(run.code, run.stdout + run.stderr).toBe(0);
  });

  it('generate writes nothing and leaves the files as they are', async () => {
    const before = await readFile(join(clone, 'out', 'index.js'), 'utf8');
    const run = await runCli(['generate', '--out', 'out'], { cwd: clone });
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).toMatch(/ 0 files written, 0 deleted /);
    expect(await readFile(join(clone, 'out', 'index.js'), 'utf8')).toBe(before);
    expect(git(clone, 'status', '--porcelain')).toBe('');
  });

  it("a pull that drops a type deletes its CRLF files as schema-sync's own, not as edited by hand", async () => {
    await writeFile(join(clone, 'listing.json'), JSON.stringify(driftListings().after));
    const run = await runCli(['pull', '--input', 'listing.json', '--out', 'out'], { cwd: clone });
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).not.toContain('edited by hand');
    await expect(readFile(join(clone, 'out', 'messages', 'RiskOld.js'), 'utf8')).rejects.toThrow();
  });
});
