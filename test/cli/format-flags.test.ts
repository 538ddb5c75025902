import { execFileSync } from 'node:child_process';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { removeDir, tempDir } from '../helpers/cli.js';
import { runCli } from '../helpers/in-process.js';
import { driftListings } from '../helpers/drift-listings.js';
import { smallListing } from '../helpers/listing.js';

// `--format` is the report format only; `--prettier` formats the generated code. The CLI (run in
// this process) on a saved listing (no server): a project folder with a .prettierrc in the output
// folder that makes formatted files easy to tell (double quotes, no semicolons).

let dir: string;
beforeEach(async () => {
  dir = await tempDir('schema-sync-flags-');
  await mkdir(join(dir, '.git'));
  await mkdir(join(dir, 'out'));
  await writeFile(join(dir, 'out', '.prettierrc'), JSON.stringify({ semi: false, singleQuote: false }));
  await writeFile(join(dir, 'listing.json'), JSON.stringify(smallListing(3)));
});
afterEach(() => removeDir(dir));

const cli = (...args: string[]) => runCli(args, { cwd: dir });
const pull = (...args: string[]) => cli('pull', '--input', 'listing.json', '--out', 'out', ...args);
const messageFile = () => readFile(join(dir, 'out', 'messages', 'T0000.ts'), 'utf8');
const expectFormatted = async () => {
  const text = await messageFile();
  expect(text).toContain('name: "T0000",');
  expect(text).not.toMatch(/;\n/);
};
const expectUnformatted = async () => expect(await messageFile()).toMatch(/;\n/);

describe('--prettier', () => {
  it('formats the generated code with the output folder\'s prettier config; --no-prettier does not', async () => {
    const run = await pull('--prettier');
    expect(run.code).toBe(0);
    expect(run.stderr).not.toContain('warning');
    await expectFormatted();
    expect((await cli('generate', '--out', 'out', '--no-prettier')).code).toBe(0);
    await expectUnformatted();
  });

  it('left unset, the setting the lockfile records holds: generate with no flag keeps the code formatted', async () => {
    expect((await pull('--prettier', '--quiet')).code).toBe(0);
    const run = await cli('generate', '--out', 'out');
    expect(run.code).toBe(0);
    expect(run.stderr).toMatch(/^3 types · 0 files written, 0 deleted in /);
    await expectFormatted();
  });

  it('is the config key "prettier"; the flag overrides it', async () => {
    await writeFile(join(dir, 'schema-sync.config.json'), JSON.stringify({ out: 'out', prettier: true }));
    expect((await cli('pull', '--input', 'listing.json')).code).toBe(0);
    await expectFormatted();
    expect((await cli('generate', '--no-prettier', '--quiet')).code).toBe(0);
    await expectUnformatted();
  });
});

describe('--format prettier|none (the removed alias of --prettier)', () => {
  const refused = (command: string, value: string, replacement: string) => ({
    code: 2,
    stdout: '',
    stderr: `error [USAGE]: --format ${value} no longer formats the generated code: --format is the report format.\nhint: Use ${replacement} instead. Run schema-sync ${command} --help.\n`,
  });

  it('--format prettier is a usage error naming --prettier (exit 2, nothing written)', async () => {
    expect(await pull('--format', 'prettier')).toEqual(refused('pull', 'prettier', '--prettier'));
    await expect(messageFile()).rejects.toThrow();
  });

  it('--format none is a usage error naming --no-prettier', async () => {
    await pull('--prettier');
    expect(await cli('generate', '--out', 'out', '--format', 'none')).toEqual(refused('generate', 'none', '--no-prettier'));
    await expectFormatted();
  });

  it('beside a report format, or contradicting --no-prettier, it is the same usage error', async () => {
    expect(await pull('--format', 'prettier', '--format', 'json')).toEqual(refused('pull', 'prettier', '--prettier'));
    expect(await cli('generate', '--format', 'prettier', '--no-prettier')).toEqual(refused('generate', 'prettier', '--prettier'));
  });

  it('the config key "format": "prettier" still formats, with a warning naming "prettier": true', async () => {
    await writeFile(join(dir, 'schema-sync.config.json'), JSON.stringify({ out: 'out', format: 'prettier' }));
    const run = await cli('pull', '--input', 'listing.json');
    expect(run.code).toBe(0);
    expect(run.stderr).toContain(`warning: "format": "prettier" in ${join(dir, 'schema-sync.config.json')} is deprecated and will be removed in the next release: use "prettier": true.\n`);
    await expectFormatted();
  });
});

describe('--format is the report format, one per run, for commands that print a report', () => {
  it('two report formats are a usage error (exit 2)', async () => {
    expect(await cli('check', '--format', 'github', '--format', 'markdown')).toEqual({
      code: 2,
      stdout: '',
      stderr: 'error [USAGE]: check prints one report, but --format names 2: github, markdown.\nhint: Keep one --format; run check again for another format. Run schema-sync check --help.\n',
    });
  });

  it('generate prints no report: generate --format json is a usage error (exit 2) that writes nothing', async () => {
    expect(await cli('generate', '--format', 'json')).toEqual({
      code: 2,
      stdout: '',
      stderr:
        'error [USAGE]: generate prints no report; --format json does not apply to it.\n' +
        'hint: Drop --format: it chooses the report of pull, check, diff, rules (--prettier formats the generated code). Run schema-sync generate --help.\n',
    });
  });

  it.each(['init', 'serve'])('%s prints no report: --format json is a usage error (exit 2)', async (command) => {
    expect(await cli(command, '--format', 'json')).toEqual({
      code: 2,
      stdout: '',
      stderr: `error [USAGE]: Unknown argument: --format\nhint: --format is not an option of this command. Run schema-sync ${command} --help.\n`,
    });
  });

  it('a value that is no report format is a usage error (exit 2)', async () => {
    expect(await pull('--format', 'xml')).toEqual({
      code: 2,
      stdout: '',
      stderr: 'error [USAGE]: --format "xml" is not a report format.\nhint: Use one of text, json, markdown, github; --prettier formats the generated code. Run schema-sync pull --help.\n',
    });
  });

  it('the same report format twice is one report format', async () => {
    const run = await pull('--format', 'json', '--format', 'json');
    expect(run.code).toBe(0);
    expect(JSON.parse(run.stdout)).toMatchObject({ inSync: false });
  });
});

describe('--format takes one value: what follows it is a positional again', () => {
  it("the README's changelog command works: diff --format markdown v1.2.0:schema-sync.lock.json v1.3.0:schema-sync.lock.json", async () => {
    const git = (...args: string[]) => execFileSync('git', args, { cwd: dir, encoding: 'utf8' });
    await removeDir(join(dir, '.git'));
    git('init', '-q', '-b', 'main');
    git('config', 'user.name', 'Schema Test');
    git('config', 'user.email', 'schema-test@example.com');
    git('config', 'commit.gpgsign', 'false');
    const { before, after } = driftListings();
    for (const [listing, tag] of [[before, 'v1.2.0'], [after, 'v1.3.0']] as const) {
      await writeFile(join(dir, 'listing.json'), JSON.stringify(listing));
      expect((await pull('--quiet')).code).toBe(0);
      git('add', '-A');
      git('commit', '-q', '-m', tag);
      git('tag', tag);
    }
    const run = await cli('diff', '--format', 'markdown', 'v1.2.0:schema-sync.lock.json', 'v1.3.0:schema-sync.lock.json');
    expect(run.stderr).toBe('');
    expect(run.code).toBe(1);
    expect(run.stdout).toContain('RiskOld');
  });

  it('given twice, it is still refused as two formats, naming both', async () => {
    const run = await cli('diff', '--format', 'markdown', '--format', 'json', 'a.json', 'b.json');
    expect(run.stderr).toMatch(/^error \[USAGE\]: diff prints one report, but --format names 2: markdown, json\./);
  });
});

describe('help', () => {
  it('generate shows --prettier and its example, and no --format', async () => {
    const run = await cli('generate', '--help');
    expect(run.stdout).toMatch(/--prettier +Format the generated code with prettier \(or --no-prettier\) +\[boolean\]/);
    // A long example stays whole on its line, its meaning below it.
    expect(run.stdout).toMatch(/\n {2}schema-sync generate --prettier --package @acme\/schema-types\n +Formatted, as a package other repositories import\n/);
    expect(run.stdout).not.toContain('--format');
  });

  it('generate describes --fields as generating from the lockfile (it fetches nothing); pull as fetching', async () => {
    const generate = (await cli('generate', '--help')).stdout;
    expect(generate).toMatch(/--fields +Generate record types from the field descriptors the lockfile records/);
    expect(generate).not.toMatch(/--fields +Fetch/);
    expect((await cli('pull', '--help')).stdout).toMatch(/--fields +Fetch field descriptors \(getschema\)/);
  });

  it.each(['pull', 'check'])('%s shows --format as the report format, and --prettier', async (command) => {
    const run = await cli(command, '--help');
    expect(run.stdout).toMatch(/--format +Report format: text \(default\), json, markdown or github/);
    expect(run.stdout).toContain('--prettier');
    expect(run.stdout).not.toMatch(/--format[^\n]*prettier/);
    expect(run.stdout).toMatch(/--format +Report format: [^\n]*\[string\]\n/);
    expect(run.stdout).not.toContain('[array]');
  });
});
