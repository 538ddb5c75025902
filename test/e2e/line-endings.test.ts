/**
 * Windows checkouts: Git for Windows (and Windows runners) default to `core.autocrlf=true`, which
 * checks committed text files out with CRLF line endings. The output folder's own `.gitattributes`
 * (`eol=lf`) keeps its files LF in such a clone. A checkout that holds them with CRLF all the
 * same (made before the folder had its `.gitattributes`: Git does not check out again the files
 * a later commit leaves unchanged) differs from what schema-sync writes only in line endings:
 * `check` finds the folder in sync and `generate` writes nothing.
 */
import { execFileSync } from 'node:child_process';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readTree, removeDir, tempDir } from '../helpers/cli.js';
import { runCli } from '../helpers/in-process.js';
import { driftListings } from '../helpers/drift-listings.js';

let dir: string;
let lfClone: string;
let crlfClone: string;
const git = (cwd: string, ...args: string[]) => execFileSync('git', args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });

beforeAll(async () => {
  dir = await tempDir('schema-sync-crlf-');
  const origin = join(dir, 'origin');
  await mkdir(origin);
  git(origin, 'init', '-q', '-b', 'main');
  git(origin, 'config', 'user.name', 'Schema Test');
  git(origin, 'config', 'user.email', 'schema-test@example.com');
  git(origin, 'config', 'commit.gpgsign', 'false');
  git(origin, 'config', 'core.autocrlf', 'true');
  await writeFile(join(origin, 'listing.json'), JSON.stringify(driftListings().before));
  const pulled = await runCli(['pull', '--input', 'listing.json', '--out', 'out', '--package', '@acme/types', '--quiet'], { cwd: origin });
  expect(pulled.code, pulled.stderr).toBe(0);
  // The folder as an older schema-sync left it, without its .gitattributes; then with it.
  git(origin, 'add', '-A');
  git(origin, 'rm', '-q', '--cached', 'out/.gitattributes');
  git(origin, 'commit', '-q', '-m', 'pulled');
  git(origin, 'tag', 'before-attributes');
  git(origin, 'add', '-A');
  git(origin, 'commit', '-q', '-m', 'the output folder says how Git treats its files');
  lfClone = join(dir, 'clone');
  git(dir, 'clone', '-q', '--config', 'core.autocrlf=true', origin, lfClone);
  crlfClone = join(dir, 'crlf-clone');
  git(dir, 'clone', '-q', '--config', 'core.autocrlf=true', '--branch', 'before-attributes', origin, crlfClone);
  git(crlfClone, 'checkout', '-q', 'main');
});
afterAll(() => removeDir(dir));

describe('a fresh clone with core.autocrlf=true', () => {
  it("holds the generated files with LF line endings, as the folder's .gitattributes says", async () => {
    const tree = await readTree(join(lfClone, 'out'));
    expect(tree.size).toBeGreaterThan(10);
    for (const [path, text] of tree) expect(text.includes('\r'), path).toBe(false);
    // Files outside the folder get autocrlf's CRLF: the attributes are the folder's alone.
    expect(await readFile(join(lfClone, 'schema-sync.lock.json'), 'utf8')).toContain('\r\n');
    expect(git(lfClone, 'check-attr', 'eol', 'linguist-generated', '--', 'out/index.js', 'out/messages/Quote.d.ts')).toBe(
      ['out/index.js: eol: lf', 'out/index.js: linguist-generated: true', 'out/messages/Quote.d.ts: eol: lf', 'out/messages/Quote.d.ts: linguist-generated: true', ''].join('\n'),
    );
  });

  it('is in sync for check, and generate writes 0 files', async () => {
    const checked = await runCli(['check', '--input', 'listing.json', '--out', 'out'], { cwd: lfClone });
    expect(checked.stdout + checked.stderr).not.toMatch(/stale|out of date/i);
    expect(checked.code, checked.stdout + checked.stderr).toBe(0);
    const generated = await runCli(['generate', '--out', 'out'], { cwd: lfClone });
    expect(generated.code, generated.stderr).toBe(0);
    expect(generated.stderr).toMatch(/ 0 files written, 0 deleted /);
    expect(git(lfClone, 'status', '--porcelain')).toBe('');
  });
});

describe('a checkout with core.autocrlf=true that holds the files with CRLF', () => {
  it('holds the generated files with CRLF line endings (what the other tests rely on)', async () => {
    expect(await readFile(join(crlfClone, 'out', 'index.js'), 'utf8')).toContain('\r\n');
  });

  it('is in sync for check', async () => {
    const run = await runCli(['check', '--input', 'listing.json', '--out', 'out'], { cwd: crlfClone });
    expect(run.stdout + run.stderr).not.toMatch(/stale|out of date/i);
    expect(run.code, run.stdout + run.stderr).toBe(0);
  });

  it('generate writes nothing and leaves the files as they are', async () => {
    const before = await readFile(join(crlfClone, 'out', 'index.js'), 'utf8');
    const run = await runCli(['generate', '--out', 'out'], { cwd: crlfClone });
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).toMatch(/ 0 files written, 0 deleted /);
    expect(await readFile(join(crlfClone, 'out', 'index.js'), 'utf8')).toBe(before);
    expect(git(crlfClone, 'status', '--porcelain')).toBe('');
  });

  it("a pull that drops a type deletes its CRLF files as schema-sync's own, not as edited by hand", async () => {
    await writeFile(join(crlfClone, 'listing.json'), JSON.stringify(driftListings().after));
    const run = await runCli(['pull', '--input', 'listing.json', '--out', 'out'], { cwd: crlfClone });
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).not.toContain('edited by hand');
    await expect(readFile(join(crlfClone, 'out', 'messages', 'RiskOld.js'), 'utf8')).rejects.toThrow();
  });
});
