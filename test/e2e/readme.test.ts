import { readFileSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SUGGESTED_SCRIPTS } from '../../src/cli/commands/init.js';
import { configSchema } from '../../src/config/schema.js';
import { startTestServer, type TestServer } from '../helpers/server/index.js';
import { runInProcess } from '../cli/fake-io.js';
import { removeDir, ROOT, tempDir } from '../helpers/cli.js';
import { smallListing } from '../helpers/listing.js';

const README = await readFile(join(ROOT, 'README.md'), 'utf8');
const PLACEHOLDER_URL = 'https://schemas.example.com';

/** Fenced code blocks with their language; `text` blocks are pictures, not commands. */
function codeBlocks(markdown: string): { lang: string; body: string }[] {
  return [...markdown.matchAll(/^```(\w*)\n([\s\S]*?)^```$/gm)].map((m) => ({ lang: m[1]!, body: m[2]! }));
}

/** Every `schema-sync …` command in code blocks and inline code, as argv (without the program). */
function readmeCommands(markdown: string): string[][] {
  const texts = [
    ...codeBlocks(markdown).filter((b) => b.lang !== 'text').map((b) => b.body),
    ...[...markdown.replace(/^```[\s\S]*?^```$/gm, '').matchAll(/`([^`\n]+)`/g)].map((m) => m[1]!),
  ];
  const commands: string[][] = [];
  for (const text of texts) {
    for (const line of text.split('\n')) {
      for (const match of line.matchAll(/(?:^|[\s"'])(?:npx )?schema-sync ((?:init|pull|check|generate|rules|serve|--)[^"'#\n]*)/g)) {
        commands.push(match[1]!.trim().split(/\s+/));
      }
    }
  }
  return commands;
}

let server: TestServer;
let project: string;
let emptyDirs: string[] = [];

beforeAll(async () => {
  server = await startTestServer({ listing: smallListing(3) });
  project = await tempDir('schema-sync-readme-');
  await mkdir(join(project, 'examples'));
  await writeFile(join(project, 'examples', 'descriptors.json'), JSON.stringify(smallListing(3)));
  const first = await runInProcess(['pull', '--quiet'], { cwd: project, env: { SCHEMA_SYNC_BASE_URL: server.url } });
  expect(first.code).toBe(0);
});
afterAll(async () => {
  await server.close();
  await removeDir(project);
  await Promise.all(emptyDirs.map((d) => removeDir(d)));
  emptyDirs = [];
});

describe('README', () => {
  it('keeps the two quick start lines', () => {
    const quick = README.slice(README.indexOf('## Quick start'));
    expect(codeBlocks(quick)[0]!.body).toBe('npm ci && npm run demo\nnpm ci && npm test\n');
  });

  it('shows commands of every kind', () => {
    const commands = readmeCommands(README);
    const first = new Set(commands.map((c) => c[0]));
    for (const command of ['init', 'pull', 'check', 'generate', '--version']) expect(first).toContain(command);
    expect(commands.length).toBeGreaterThan(10);
  });

  it('every schema-sync command it shows parses and runs as described (reference server in place of the service)', async () => {
    const failures: string[] = [];
    for (const shown of readmeCommands(README)) {
      const argv = shown.map((arg) => arg.replace(PLACEHOLDER_URL, server.url));
      let cwd = project;
      if (argv[0] === 'init') {
        cwd = await tempDir('schema-sync-readme-init-');
        emptyDirs.push(cwd);
      }
      const run = await runInProcess(argv, { cwd, env: { SCHEMA_SYNC_BASE_URL: server.url, SCHEMA_SYNC_API_KEY: 'readme-key' } });
      const allowed = argv[0] === 'check' && !argv.includes('--help') ? [0, 1] : [0];
      if (!allowed.includes(run.code) || /error \[/.test(run.stderr)) {
        failures.push(`schema-sync ${shown.join(' ')} → exit ${run.code}\n${run.stderr}`);
      }
    }
    expect(failures).toEqual([]);
  });

  it('shows the npm scripts init suggests', () => {
    const block = codeBlocks(README).find((b) => b.lang === 'json' && b.body.includes('"prebuild"'));
    expect(JSON.parse(block!.body)).toEqual({ scripts: SUGGESTED_SCRIPTS });
  });

  it('shows the GitHub workflow exactly as examples/github-workflow.yml, on a schedule and on pull requests', async () => {
    const file = await readFile(join(ROOT, 'examples/github-workflow.yml'), 'utf8');
    const block = codeBlocks(README).find((b) => b.lang === 'yaml');
    expect(block!.body).toBe(file);
    expect(file).toMatch(/^on:\n {2}schedule:\n {4}- cron: '[^']+'/m);
    expect(file).toMatch(/^ {2}pull_request:$/m);
    expect(file).toContain('run: npx schema-sync check --format github');
    expect(file).toContain('${{ secrets.SCHEMA_SYNC_API_KEY }}');
  });

  it('shows the update and review workflows exactly as their files in examples/', async () => {
    const blocks = codeBlocks(README).filter((b) => b.lang === 'yaml').map((b) => b.body);
    for (const name of ['schema-update-workflow.yml', 'schema-review-workflow.yml']) {
      expect(blocks).toContain(await readFile(join(ROOT, 'examples', name), 'utf8'));
    }
  });

  it('shows the rules exactly as `schema-sync rules` lists them', async () => {
    const listed = await runInProcess(['rules'], { cwd: project });
    expect(codeBlocks(README).some((b) => b.lang === 'text' && listed.stdout.startsWith(b.body))).toBe(true);
  });

  it('documents every configuration key of the zod schema, and no other', () => {
    const section = README.slice(README.indexOf('## Configuration reference'), README.indexOf('## Exit codes'));
    const keys = [...section.matchAll(/^\| `([$\w]+)` \|/gm)].map((m) => m[1]);
    expect(keys).toEqual(Object.keys(configSchema.shape));
  });

  it('has the exit code table, severity rules, troubleshooting and the performance section', () => {
    for (const heading of ['## Exit codes', '## Drift severity', '## Troubleshooting', '## Performance', '## Consuming the generated output from another repository']) {
      expect(README).toContain(heading);
    }
    const exitCodes = README.slice(README.indexOf('## Exit codes'), README.indexOf('## Drift severity'));
    for (const code of ['| 0 |', '| 1 |', '| 2 |']) expect(exitCodes).toContain(code);
    const troubleshooting = README.slice(README.indexOf('## Troubleshooting'), README.indexOf('## Performance'));
    for (const topic of ['401', 'text/html', 'cut short', 'HTTPS_PROXY']) expect(troubleshooting).toContain(topic);
    const performance = README.slice(README.indexOf('## Performance'));
    expect(performance).toContain('`npm run bench`');
    // The table is the latest bench run: its rows are those of bench/results.json.
    const results = JSON.parse(readFileSync(new URL('../../bench/results.json', import.meta.url), 'utf8')) as { results: Array<{ size: number; run: string }> };
    for (const row of results.results) expect(performance).toContain(`| ${row.size} | ${row.run} |`);
  });
});
