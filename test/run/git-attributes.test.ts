/**
 * The output folder's `.gitattributes` in a run (the CLI in this process, on a saved listing):
 * one schema-sync did not write is never overwritten, as the folder's package.json; schema-sync's
 * own is checked and rewritten like any generated file, and left alone by prettier.
 */
import { existsSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { GIT_ATTRIBUTES_TEXT } from '../../src/emit/git-attributes.js';
import { readTree, removeDir, tempDir } from '../helpers/cli.js';
import { runCli } from '../helpers/in-process.js';
import { smallListing } from '../helpers/listing.js';

let dir: string;
beforeEach(async () => {
  dir = await tempDir('schema-sync-attributes-');
  await mkdir(join(dir, '.git'));
  await mkdir(join(dir, 'out'));
  await writeFile(join(dir, 'listing.json'), JSON.stringify(smallListing(2)));
});
afterEach(() => removeDir(dir));

const cli = (...args: string[]) => runCli(args, { cwd: dir, env: { SCHEMA_SYNC_CACHE_DIR: 'off' } });
const attributes = () => readFile(join(dir, 'out', '.gitattributes'), 'utf8');

describe('a .gitattributes schema-sync did not write in the output folder', () => {
  it.each([
    ['without a package', []],
    ['with --package', ['--package', 'acme-types']],
  ])('is never overwritten (%s): the run fails with what to do and changes nothing', async (_, flags) => {
    const own = '*.ts text eol=crlf\n';
    await writeFile(join(dir, 'out', '.gitattributes'), own);
    const pulled = await cli('pull', '--input', 'listing.json', '--out', 'out', ...flags);
    expect(pulled.code).toBe(2);
    expect(pulled.stderr).toMatch(/^error \[WRITE\]: .*out holds a \.gitattributes that schema-sync did not write; .* Nothing was changed\.\nhint: Generate into a folder of its own .*delete that \.gitattributes/);
    expect([...(await readTree(join(dir, 'out'))).keys()]).toEqual(['.gitattributes']);
    expect(await attributes()).toBe(own);
    expect(existsSync(join(dir, 'schema-sync.lock.json'))).toBe(false);
  });

  it('holding the bytes schema-sync writes, is taken as its own', async () => {
    await writeFile(join(dir, 'out', '.gitattributes'), GIT_ATTRIBUTES_TEXT);
    const pulled = await cli('pull', '--input', 'listing.json', '--out', 'out');
    expect(pulled.code, pulled.stderr).toBe(0);
    expect((await cli('check', '--input', 'listing.json', '--out', 'out')).code).toBe(0);
  });
});

describe("schema-sync's own .gitattributes", () => {
  it('edited by hand, is stale for check and rewritten by generate', async () => {
    expect((await cli('pull', '--input', 'listing.json', '--out', 'out', '--quiet')).code).toBe(0);
    expect(await attributes()).toBe(GIT_ATTRIBUTES_TEXT);
    await writeFile(join(dir, 'out', '.gitattributes'), `${GIT_ATTRIBUTES_TEXT}*.ts -text\n`);
    const checked = await cli('check', '--input', 'listing.json', '--out', 'out');
    expect(checked.code).toBe(1);
    expect(checked.stdout).toMatch(/^ {2}modified \.gitattributes$/m);
    const generated = await cli('generate', '--out', 'out');
    expect(generated.code, generated.stderr).toBe(0);
    expect(generated.stderr).toMatch(/ 1 file written, 0 deleted /);
    expect(await attributes()).toBe(GIT_ATTRIBUTES_TEXT);
  });

  it('is left as written by --prettier, and a second run writes nothing', async () => {
    await writeFile(join(dir, 'out', '.prettierrc'), JSON.stringify({ semi: false, parser: 'typescript' }));
    const pulled = await cli('pull', '--input', 'listing.json', '--out', 'out', '--prettier');
    expect(pulled.code, pulled.stderr).toBe(0);
    expect(await attributes()).toBe(GIT_ATTRIBUTES_TEXT);
    expect(await readFile(join(dir, 'out', 'index.ts'), 'utf8')).not.toMatch(/;\n/);
    const generated = await cli('generate', '--out', 'out');
    expect(generated.stderr).toMatch(/ 0 files written, 0 deleted /);
  });
});
