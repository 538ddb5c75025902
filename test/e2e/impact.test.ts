/**
 * Drift impact through the CLI (issue 28): `check`, `pull --dry-run` and `diff` with `--impact`
 * type-check the consumer's own project against the old and the new generated output and put
 * each new error on the change that causes it, in every report format; `--fail-on broken`
 * fails only when a used type broke. The consumer's project and the output folder are never
 * written. The CLI runs in this process (test/helpers/in-process.ts): none of this is about the
 * process, and a CLI process would load TypeScript again for every run.
 */
import { execFileSync } from 'node:child_process';
import { cp, mkdir, readFile, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { readTree, removeDir, ROOT, tempDir, type CliRun } from '../helpers/cli.js';
import { runCli } from '../helpers/in-process.js';
import { validateJson } from '../helpers/json-schema.js';
import { wireElement, type WireElement } from '../helpers/listing.js';
import { startTestServer, type TestServer } from '../helpers/server/index.js';

/** Six field descriptors: a key, two prices, an enum side. */
const schema = (side: string, withBid = true) => [
  { pos: 1, name: 'ticker', fNum: 1, isPkey: 'Yes', fType: 'TickerKey' },
  ...(withBid ? [{ pos: 2, name: 'bidPrice', fNum: 2, isPkey: 'No', fType: 'Double' }] : []),
  { pos: 3, name: 'askPrice', fNum: 3, isPkey: 'No', fType: 'Double' },
  { pos: 4, name: 'side', fNum: 4, isPkey: 'No', fType: 'Enum', eSet: side },
];
const element = (name: string, mNum: number, schemaHash: string, actions = 'S'): WireElement => wireElement({ name, mNum, schemaHash, actions });

/** The listing before: what the lockfile holds. */
const BEFORE = {
  listing: [
    element('Quote', 10, 'AAAA000000000001', 'SI'),
    element('Trade', 20, 'AAAA000000000002', 'SID'),
    element('OldType', 30, 'AAAA000000000003'),
    element('UsedStill', 40, 'AAAA000000000004'),
    element('Unused', 50, 'AAAA000000000005'),
    element('Steady', 60, 'AAAA000000000006'),
  ],
  schemas: { Quote: schema('Buy,Sell'), Trade: schema('Buy'), OldType: schema('Buy'), UsedStill: schema('Buy'), Unused: schema('Buy'), Steady: schema('Buy') },
};
/** After: OldType removed, Quote lost bidPrice and the value Sell, Trade lost delete, two hashes changed. */
const AFTER = {
  listing: [
    element('Quote', 10, 'BBBB000000000001', 'SI'),
    element('Trade', 20, 'BBBB000000000002', 'SI'),
    element('UsedStill', 40, 'BBBB000000000004'),
    element('Unused', 50, 'BBBB000000000005'),
    element('Steady', 60, 'AAAA000000000006'),
  ],
  schemas: { Quote: schema('Buy', false), Trade: schema('Buy'), UsedStill: schema('Buy'), Unused: schema('Buy'), Steady: schema('Buy') },
};
/** Only types no code uses change. */
const UNUSED_ONLY = {
  listing: BEFORE.listing.map((e) => (e.message['name'] === 'Unused' ? element('Unused', 50, 'CCCC000000000005') : e)),
  schemas: BEFORE.schemas,
};

/** The consumer: its own files beside the output folder (`gen/`), one use a line. */
const CONSUMER: Record<string, string> = {
  'tsconfig.json': JSON.stringify({ compilerOptions: { strict: true, module: 'nodenext', target: 'es2022', lib: ['es2022'], noEmit: true }, include: ['src'] }),
  'package.json': JSON.stringify({ name: 'consumer', private: true, type: 'module' }),
  'src/quotes.ts': [
    "import { Quote, type QuoteRecord } from '../gen/index.js';",
    'export const bid = (record: QuoteRecord): number => record.bidPrice ?? 0;',
    'export function sideName(record: QuoteRecord): string {',
    '  switch (record.side) {',
    "    case 'Buy':",
    "      return 'buy';",
    "    case 'Sell':",
    "      return 'sell';",
    '  }',
    "  return 'none';",
    '}',
    'export const quoteNumber = Quote.mNum;',
    '',
  ].join('\n'),
  'src/trades.ts': ["import { Trade } from '../gen/index.js';", "export const canDelete = Trade.actions.includes('delete');", ''].join('\n'),
  'src/old.ts': ["import { OldType } from '../gen/index.js';", 'export const oldName = OldType.name;', ''].join('\n'),
  'src/used.ts': ["import { UsedStill, Steady } from '../gen/index.js';", 'export const names = [UsedStill.name, Steady.name];', ''].join('\n'),
  'src/own-error.ts': ["export const wrong: number = 'not a number';", ''].join('\n'),
};

let server: TestServer;
/** The consumer with the output of {@link BEFORE} pulled, which each test starts from (a copy). */
let pulledBefore: string;
let dir: string;
const serve = (state: { listing: WireElement[]; schemas: Record<string, unknown[]> }) => {
  server.setListing(state.listing);
  server.setOptions({ schemas: state.schemas });
};
const cli = (args: string[], cwd = dir): Promise<CliRun> => runCli(args, { cwd, env: { SCHEMA_SYNC_CACHE_DIR: 'off' } });
const source = () => ['--base-url', server.url, '--out', 'gen', '--fields'];

async function writeFiles(root: string, files: Record<string, string>): Promise<void> {
  for (const [path, text] of Object.entries(files)) {
    await mkdir(dirname(join(root, path)), { recursive: true });
    await writeFile(join(root, path), text);
  }
}

beforeAll(async () => {
  server = await startTestServer({ listing: BEFORE.listing, schemas: BEFORE.schemas });
  pulledBefore = await tempDir('schema-sync-impact-e2e-');
  await writeFiles(pulledBefore, CONSUMER);
  const pulled = await cli(['pull', ...source()], pulledBefore);
  expect(pulled.code, pulled.stderr).toBe(0);
});
afterAll(async () => {
  await server.close();
  await removeDir(pulledBefore);
});
beforeEach(async () => {
  dir = await tempDir('schema-sync-impact-e2e-');
  await cp(pulledBefore, dir, { recursive: true });
  serve(BEFORE);
});
afterEach(() => removeDir(dir));

/** The JSON report's changes by name, with their impact as `file:line TScode field` lists. */
function impactByName(stdout: string) {
  const report = JSON.parse(stdout) as { changes: { name: string; impact?: { broken: { file: string; line: number; code: number; field?: string }[]; referenced: { file: string; line: number; field?: string }[] } }[]; impact: { broken: number; referenced: number; unattributed: unknown[]; projects: string[] } };
  const byName: Record<string, { broken: string[]; referenced: string[] }> = {};
  for (const change of report.changes) {
    byName[change.name] = {
      broken: (change.impact?.broken ?? []).map((b) => `${b.file}:${b.line} TS${b.code}${b.field === undefined ? '' : ` ${b.field}`}`),
      referenced: (change.impact?.referenced ?? []).map((r) => `${r.file}:${r.line}${r.field === undefined ? '' : ` ${r.field}`}`),
    };
  }
  return { byName, summary: report.impact };
}

describe('check --impact', () => {
  it('puts each new error on its change, tells used from unused, ignores the errors the project had, and writes nothing', async () => {
    serve(AFTER);
    const before = await readTree(dir);
    const run = await cli(['check', ...source(), '--impact', 'tsconfig.json', '--format', 'json']);
    expect(run.code, run.stderr).toBe(1);
    const { byName, summary } = impactByName(run.stdout);
    expect(byName['OldType']!.broken).toEqual(['src/old.ts:1 TS2305']);
    expect(byName['Quote']!.broken).toEqual(['src/quotes.ts:2 TS2339 bidPrice', 'src/quotes.ts:7 TS2678 side']);
    expect(byName['Quote']!.referenced).toContain('src/quotes.ts:12 mNum');
    expect(byName['Trade']!.broken).toEqual(['src/trades.ts:2 TS2345 actions']);
    expect(byName['UsedStill']).toEqual({ broken: [], referenced: ['src/used.ts:2 name'] });
    expect(byName['Unused']).toEqual({ broken: [], referenced: [] });
    expect(byName['Steady']).toBeUndefined();
    expect(summary).toMatchObject({ projects: ['tsconfig.json'], broken: 4, unattributed: [] });
    expect(run.stdout).not.toContain('own-error');
    expect(validateJson(JSON.parse(await readFile(join(ROOT, 'report.schema.json'), 'utf8')) as Record<string, unknown>, JSON.parse(run.stdout))).toEqual([]);
    expect(await readTree(dir)).toEqual(before);
  });

  it('text, markdown and github reports say where the code breaks', async () => {
    serve(AFTER);
    const text = await cli(['check', ...source(), '--impact', 'tsconfig.json']);
    expect(text.stdout).toContain("→ breaks src/quotes.ts:2:60 (TS2339 Property 'bidPrice' does not exist on type 'QuoteRecord'.)");
    expect(text.stdout).toContain('→ used in 1 place, still compiles');
    expect(text.stdout).toContain('Not used by tsconfig.json (1): changed Unused');
    expect(text.stdout).toContain('Impact on tsconfig.json: 4 broken');
    const markdown = await cli(['check', ...source(), '--impact', 'tsconfig.json', '--format', 'markdown']);
    expect(markdown.stdout).toContain('#### Impact on this repository');
    expect(markdown.stdout).toContain('- removed `OldType`: breaks `src/old.ts:1:10` (TS2305');
    const github = await cli(['check', ...source(), '--impact', 'tsconfig.json', '--format', 'github']);
    expect(github.stdout).toContain('::error title=Schema change breaks this line%3A changed Quote,file=src/quotes.ts,line=2,col=60::TS2339: Property');
  });

  it('--fail-on broken: exit 0 when only unused types changed, 1 when a used one broke', async () => {
    serve(UNUSED_ONLY);
    const unused = await cli(['check', ...source(), '--impact', 'tsconfig.json', '--fail-on', 'broken']);
    expect(unused.code, unused.stderr + unused.stdout).toBe(0);
    serve(AFTER);
    const broken = await cli(['check', ...source(), '--impact', 'tsconfig.json', '--fail-on', 'broken']);
    expect(broken.code, broken.stderr).toBe(1);
  });

  it('--fail-on broken without a project, and a missing tsconfig, are CONFIG errors (exit 2)', async () => {
    const none = await cli(['check', ...source(), '--fail-on', 'broken']);
    expect(none.code).toBe(2);
    expect(none.stderr).toContain('error [CONFIG]: --fail-on broken needs a TypeScript project to check: none was named.');
    const missing = await cli(['check', ...source(), '--impact', 'nope/tsconfig.json']);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain(`error [CONFIG]: --impact: no TypeScript project at ${join(dir, 'nope/tsconfig.json')}`);
  });

  it('reads the projects from the config file, relative to it', async () => {
    await writeFile(join(dir, 'schema-sync.config.json'), JSON.stringify({ out: 'gen', fields: true, impact: ['tsconfig.json'] }));
    serve(AFTER);
    const run = await cli(['check', '--base-url', server.url, '--format', 'json'], join(dir, 'src'));
    expect(run.code, run.stderr).toBe(1);
    expect(impactByName(run.stdout).byName['Trade']!.broken).toEqual(['src/trades.ts:2 TS2345 actions']);
  });
});

describe('pull --dry-run --impact and diff --impact', () => {
  it('pull --dry-run reports the same impact and writes nothing', async () => {
    serve(AFTER);
    const before = await readTree(dir);
    const run = await cli(['pull', ...source(), '--dry-run', '--impact', 'tsconfig.json', '--format', 'json']);
    expect(run.code, run.stderr).toBe(0);
    expect(impactByName(run.stdout).byName['OldType']!.broken).toEqual(['src/old.ts:1 TS2305']);
    expect(await readTree(dir)).toEqual(before);
  });

  it('diff --against the base branch in a repository whose head commit holds the new output', async () => {
    const git = (...args: string[]) => execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@example.com', ...args], { cwd: dir, stdio: 'pipe' });
    git('init', '-q', '-b', 'main');
    git('add', '-A');
    git('commit', '-qm', 'before');
    git('switch', '-q', '-c', 'schema-update');
    serve(AFTER);
    expect((await cli(['pull', ...source()])).code).toBe(0);
    git('add', '-A');
    git('commit', '-qm', 'after');
    const run = await cli(['diff', '--against', 'main', '--out', 'gen', '--impact', 'tsconfig.json', '--format', 'json']);
    expect(run.code, run.stderr).toBe(1);
    const { byName } = impactByName(run.stdout);
    expect(byName['OldType']!.broken).toEqual(['src/old.ts:1 TS2305']);
    expect(byName['Trade']!.broken).toEqual(['src/trades.ts:2 TS2345 actions']);
  });

  it('a consumer of the generated package installed under node_modules', async () => {
    const app = join(dir, 'app');
    await writeFiles(app, {
      'tsconfig.json': JSON.stringify({ compilerOptions: { strict: true, module: 'nodenext', target: 'es2022', lib: ['es2022'], noEmit: true }, include: ['src'] }),
      'package.json': JSON.stringify({ name: 'app', private: true, type: 'module' }),
      'src/app.ts': ["import { Trade } from '@acme/schema';", "export const canDelete = Trade.actions.includes('delete');", ''].join('\n'),
    });
    const pkg = ['--base-url', server.url, '--out', 'pkg', '--lockfile', 'pkg.lock.json', '--fields', '--package', '@acme/schema'];
    const pulled = await cli(['pull', ...pkg]);
    expect(pulled.code, pulled.stderr).toBe(0);
    // The app installed the package as it was (a copy, as npm would unpack it).
    await mkdir(join(app, 'node_modules/@acme'), { recursive: true });
    execFileSync('cp', ['-r', join(dir, 'pkg'), join(app, 'node_modules/@acme/schema')]);
    serve(AFTER);
    const run = await cli(['check', ...pkg, '--impact', 'app/tsconfig.json', '--format', 'json']);
    expect(run.code, run.stderr).toBe(1);
    expect(impactByName(run.stdout).byName['Trade']!.broken).toEqual(['app/src/app.ts:2 TS2345 actions']);
    expect(await readFile(join(app, 'node_modules/@acme/schema/package.json'), 'utf8')).toContain('"@acme/schema"');
  });
});
