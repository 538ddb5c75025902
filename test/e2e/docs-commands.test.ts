/**
 * Every command the documentation shows runs: each shell block of README.md and docs/*.md is
 * marked runnable or not (with the reason), and the runnable ones run in page order, as a reader
 * follows them, in one temporary git project against the reference server serving the example
 * types that have field descriptors (`npx schema-sync` in this process, see
 * test/helpers/doc-shell.ts); then every other `schema-sync …` command the pages show. Only exit
 * codes are asserted: the output's wording is the commands' own tests' business.
 */
import { execFileSync } from 'node:child_process';
import { copyFile, mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server/index.js';
import { removeDir, ROOT, tempDir } from '../helpers/cli.js';
import { runCli } from '../helpers/in-process.js';
import { exampleListing } from '../helpers/listing.js';
import { codeBlocks, docPages, isShellBlock, shownCommands } from '../helpers/markdown.js';
import { runBlock, type DocShell } from '../helpers/doc-shell.js';

const PLACEHOLDER_URL = 'https://schemas.example.com';
const pages = docPages();
const blocks = pages.flatMap(codeBlocks);

let server: TestServer;
let project: string;
let initDirs: string[] = [];

/** Exit codes a command may end with: `check` and `diff` report drift with 1. */
function allowedCodes(argv: string[]): number[] {
  return (argv[0] === 'check' || argv[0] === 'diff') && !argv.includes('--help') ? [0, 1] : [0];
}

beforeAll(async () => {
  // The example types that have field descriptors, so `--fields` works on every type served.
  const schemas = JSON.parse(await readFile(join(ROOT, 'examples/descriptors.schemas.json'), 'utf8')) as Record<string, Record<string, unknown>[]>;
  const listing = exampleListing().filter((element) => String(element.message['name']) in schemas);
  server = await startTestServer({ listing: listing.slice(1), schemas });
  project = await tempDir('schema-sync-docs-');
  const identity = ['-c', 'user.name=Schema Test', '-c', 'user.email=schema-test@example.com', '-c', 'commit.gpgsign=false'];
  const git = (...args: string[]) => execFileSync('git', [...identity, ...args], { cwd: project, encoding: 'utf8' });
  git('init', '-q', '-b', 'main');
  await mkdir(join(project, 'examples'));
  await copyFile(join(ROOT, 'examples/descriptors.json'), join(project, 'examples/descriptors.json'));
  // The records `serve --records` answers from (docs/record-types.md, "A typed query end to end").
  await copyFile(join(ROOT, 'examples/descriptors.records.json'), join(project, 'examples/descriptors.records.json'));
  // A project that uses the generated code, for --impact.
  await mkdir(join(project, 'src'));
  await writeFile(join(project, 'src/use.ts'), "import { messages } from './generated/schema/index.js';\n\nexport const bookQuote = messages['StockBookQuote'].mNum;\n");
  await writeFile(join(project, 'tsconfig.json'), JSON.stringify({ compilerOptions: { module: 'nodenext', strict: true, noEmit: true, skipLibCheck: true, lib: ['es2022'], types: [] }, include: ['src'] }));
  // Two releases of the lockfile (v1.2.0 without one type, v1.3.0 with it) and the base branch
  // a pull request is compared with (origin/main, at v1.2.0).
  for (const [release, served] of [['v1.2.0', listing.slice(1)], ['v1.3.0', listing]] as const) {
    server.setListing([...served]);
    const pulled = await runCli(['pull', '--quiet'], { cwd: project, env: { SCHEMA_SYNC_BASE_URL: server.url } });
    expect(pulled.code, pulled.stderr).toBe(0);
    git('add', '-A');
    git('commit', '-q', '-m', release);
    git('tag', release);
  }
  git('update-ref', 'refs/remotes/origin/main', 'v1.2.0');
});
afterAll(async () => {
  await server.close();
  await removeDir(project);
  await Promise.all(initDirs.map((dir) => removeDir(dir)));
  initDirs = [];
});

describe('the documentation’s commands', () => {
  it('marks every shell block runnable or not runnable (saying why)', () => {
    const unmarked = blocks.filter((block) => isShellBlock(block) && block.marker === undefined).map((block) => `${block.page}: ${block.body.split('\n')[0]}`);
    expect(unmarked).toEqual([]);
    // A fence indented into a list item would escape the markers: shell blocks start at the margin.
    for (const { path, text } of pages) expect(text, path).not.toMatch(/^ +```(?:sh|bash|shell|console)\b/m);
    for (const block of blocks.filter((b) => b.marker === 'not runnable')) expect(block.reason, block.body).toMatch(/\w/);
    expect(blocks.filter((block) => block.marker === 'runnable').length).toBeGreaterThanOrEqual(5);
  });

  it('runs every runnable block, in page order, against the reference server', async () => {
    const shell: DocShell = {
      cwd: project,
      env: { SCHEMA_SYNC_BASE_URL: server.url },
      // A runnable block runs as a reader pastes it: no placeholder the CLI refuses.
      rewrite: (arg) => arg,
    };
    const failures: string[] = [];
    for (const block of blocks.filter((b) => b.marker === 'runnable')) {
      if (block.body.includes(PLACEHOLDER_URL)) failures.push(`${block.page}: a runnable block names the placeholder ${PLACEHOLDER_URL}`);
      shell.cwd = project;
      for (const step of await runBlock(shell, block.body)) {
        const argv = step.command.replace(/^npx schema-sync /, '').split(' ');
        const allowed = step.command.startsWith('npx schema-sync') ? allowedCodes(argv) : [0];
        if (!allowed.includes(step.code) || /error \[/.test(step.stderr)) failures.push(`${block.page}: ${step.command} → exit ${step.code}\n${step.stderr}`);
      }
    }
    expect(failures).toEqual([]);
  });

  it('shows commands of every kind, and each parses and runs as described', async () => {
    const commands = pages.flatMap(shownCommands);
    const first = new Set(commands.map((c) => c[0]));
    for (const command of ['init', 'pull', 'check', 'generate', '--version']) expect(first).toContain(command);
    expect(commands.length).toBeGreaterThan(10);
    const failures: string[] = [];
    // A command shown on several pages runs once.
    const distinct = [...new Map(commands.map((command) => [command.join(' '), command])).values()];
    for (const shown of distinct) {
      const argv = shown.map((arg) => arg.replace(PLACEHOLDER_URL, server.url));
      let cwd = project;
      if (argv[0] === 'init') {
        cwd = await tempDir('schema-sync-docs-init-');
        initDirs.push(cwd);
      }
      const run = await runCli(argv, { cwd, env: { SCHEMA_SYNC_BASE_URL: server.url, SCHEMA_SYNC_API_KEY: 'docs-key' } });
      if (!allowedCodes(argv).includes(run.code) || /error \[/.test(run.stderr)) failures.push(`schema-sync ${shown.join(' ')} → exit ${run.code}\n${run.stderr}`);
    }
    expect(failures).toEqual([]);
  });
});
