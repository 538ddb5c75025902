/**
 * `schema-sync diff` end to end: the CLI (run in this process, see test/helpers/in-process.ts)
 * between two commits of a temporary git repository
 * (the project in a subfolder, so paths from the repository root matter), from standard input,
 * and `--against`; rules, acceptances and exit codes as `check`; bad sides are exit 2 naming the
 * side; never the network.
 */
import { execFileSync } from 'node:child_process';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT, removeDir, tempDir } from '../helpers/cli.js';
import { runCli } from '../helpers/in-process.js';
import { driftListings } from '../helpers/drift-listings.js';
import { validateJson } from '../helpers/json-schema.js';

let repo: string;
let app: string;
let first: string;
let second: string;
const reportSchema = JSON.parse(await readFile(join(ROOT, 'report.schema.json'), 'utf8')) as Record<string, unknown>;

const git = (...args: string[]) => execFileSync('git', args, { cwd: repo, encoding: 'utf8' }).trim();
/** The CLI in the project folder; a base URL nobody answers proves no request is made. */
const diff = (args: string[], options: { input?: string; env?: Record<string, string>; cwd?: string } = {}) =>
  runCli(['diff', ...args], { cwd: options.cwd ?? app, input: options.input, env: { SCHEMA_SYNC_BASE_URL: 'http://127.0.0.1:9', SCHEMA_SYNC_CACHE_DIR: 'off', ...options.env } });

beforeAll(async () => {
  repo = await tempDir('schema-sync-diff-');
  app = join(repo, 'app');
  await mkdir(app);
  git('init', '-q', '-b', 'main');
  git('config', 'user.name', 'Schema Test');
  git('config', 'user.email', 'schema-test@example.com');
  git('config', 'commit.gpgsign', 'false');
  const { before, after } = driftListings();
  await writeFile(join(app, 'before.json'), JSON.stringify(before));
  await writeFile(join(app, 'after.json'), JSON.stringify(after));
  for (const [listing, message] of [['before.json', 'first'], ['after.json', 'second']] as const) {
    const pulled = await runCli(['pull', '--input', listing, '--out', 'out', '--quiet'], { cwd: app, env: { SCHEMA_SYNC_CACHE_DIR: 'off' } });
    expect(pulled.code, pulled.stderr).toBe(0);
    git('add', '-A');
    git('commit', '-q', '-m', message);
  }
  first = git('rev-parse', 'HEAD~1');
  second = git('rev-parse', 'HEAD');
});
afterAll(() => removeDir(repo));

/** The drift between the two commits, in brief. */
const EXPECTED = [
  'changed OrderCancel ACTION_REMOVED breaking',
  'renamed Position MESSAGE_RENAMED breaking',
  'changed Quote MNUM_CHANGED breaking',
  'changed RiskLimit TOKEN_CHANGED breaking',
  'removed RiskOld MESSAGE_REMOVED breaking',
  'changed OrderNew SCHEMA_HASH_CHANGED dangerous',
  'changed OrderFill DESCRIPTION_CHANGED safe',
  'added Trade MESSAGE_ADDED safe',
];

function brief(stdout: string): string[] {
  const report = JSON.parse(stdout) as { changes: Array<{ kind: string; name: string; rule: string; severity: string }> };
  expect(validateJson(reportSchema, report)).toEqual([]);
  return report.changes.map((change) => `${change.kind} ${change.name} ${change.rule} ${change.severity}`);
}

describe('schema-sync diff', () => {
  it('between two commits, as <rev>:<path> from the repository root: exit 1, every rule named', async () => {
    const run = await diff([`${first}:app/schema-sync.lock.json`, `${second}:app/schema-sync.lock.json`, '--format', 'json']);
    expect(run.code, run.stderr).toBe(1);
    expect(brief(run.stdout)).toEqual(EXPECTED);
    expect(run.stderr).toBe('');
  });

  it('head defaults to the working lockfile; --against <rev> is the project lockfile at that revision, also from a subfolder', async () => {
    const explicit = await diff(['HEAD~1:app/schema-sync.lock.json', '--format', 'json']);
    const against = await diff(['--against', 'HEAD~1', '--format', 'json']);
    await mkdir(join(app, 'src'), { recursive: true });
    const fromSubfolder = await diff(['--against', 'HEAD~1', '--lockfile', '../schema-sync.lock.json', '--format', 'json'], { cwd: join(app, 'src') });
    for (const run of [explicit, against, fromSubfolder]) {
      expect(run.code, run.stderr).toBe(1);
      expect(brief(run.stdout)).toEqual(EXPECTED);
    }
  });

  it('- reads one side from standard input', async () => {
    const base = git('show', `${first}:app/schema-sync.lock.json`);
    const run = await diff(['-', '--format', 'json'], { input: base });
    expect(run.code, run.stderr).toBe(1);
    expect(brief(run.stdout)).toEqual(EXPECTED);
    const reversed = await diff(['schema-sync.lock.json', '-', '--format', 'json'], { input: base });
    expect(brief(reversed.stdout)).toContain('renamed PositionOld MESSAGE_RENAMED breaking');
  });

  it('the same lockfile: exit 0, no changes', async () => {
    const run = await diff(['--against', 'HEAD']);
    expect([run.code, run.stdout.trim()]).toEqual([0, 'No changes.']);
  });

  it('--fail-on breaking, severity overrides and acceptances work as in check; an unused acceptance is warned about', async () => {
    const config = {
      rules: { MNUM_CHANGED: 'dangerous', TOKEN_CHANGED: 'off' },
      accept: [
        { rule: 'MESSAGE_RENAMED', message: 'Position*', reason: 'Renamed upstream, consumers updated' },
        { rule: 'ACTION_REMOVED', message: 'OrderCancel', before: ['select', 'insert', 'update', 'replace', 'delete'], after: ['select', 'insert', 'update', 'replace'], reason: 'Deletes go through OrderAmend now' },
        { rule: 'MESSAGE_REMOVED', message: 'Risk*', reason: 'Retired' },
        { rule: 'MESSAGE_REMOVED', message: 'Quote', reason: 'never happened' },
      ],
    };
    await writeFile(join(app, 'schema-sync.config.json'), JSON.stringify(config));
    try {
      const run = await diff(['--against', 'HEAD~1', '--format', 'json', '--fail-on', 'breaking']);
      expect(run.code, run.stderr).toBe(0);
      expect(brief(run.stdout)).toEqual(['changed OrderNew SCHEMA_HASH_CHANGED dangerous', 'changed Quote MNUM_CHANGED dangerous', 'changed OrderFill DESCRIPTION_CHANGED safe', 'added Trade MESSAGE_ADDED safe']);
      const report = JSON.parse(run.stdout) as { accepted: Array<{ name: string; rule: string; reason: string }> };
      expect(report.accepted.map((change) => `${change.name} ${change.rule}: ${change.reason}`)).toEqual([
        'OrderCancel ACTION_REMOVED: Deletes go through OrderAmend now',
        'Position MESSAGE_RENAMED: Renamed upstream, consumers updated',
        'RiskOld MESSAGE_REMOVED: Retired',
      ]);
      expect(run.stderr).toBe('warning: accept[3] (rule MESSAGE_REMOVED, message "Quote") matched no change: remove it once the change it was for is in the lockfile, or fix its rule, message or pinned values.\n');
      expect((await diff(['--against', 'HEAD~1'])).code).toBe(1);
    } finally {
      await writeFile(join(app, 'schema-sync.config.json'), '{}');
    }
  });

  it('--format github: annotations on the head lockfile, from the repository root; the markdown report goes to the step summary', async () => {
    const summary = join(repo, 'summary.md');
    const run = await diff(['--against', 'HEAD~1', '--format', 'github'], { env: { GITHUB_ACTIONS: 'true', GITHUB_WORKSPACE: repo, GITHUB_STEP_SUMMARY: summary } });
    expect(run.code).toBe(1);
    const lockfile = await readFile(join(app, 'schema-sync.lock.json'), 'utf8');
    const line = lockfile.split('\n').findIndex((text) => text.startsWith('    "OrderNew": {')) + 1;
    expect(run.stdout).toContain(`::warning title=Dangerous schema change,file=app/schema-sync.lock.json,line=${line}::changed OrderNew%0AschemaHash:`);
    expect(run.stdout).toMatch(/^::error title=Breaking schema change,file=app\/schema-sync\.lock\.json,line=\d+::renamed PositionOld → Position/m);
    expect(await readFile(summary, 'utf8')).toMatch(/^### Schema changes\n\nChanges: 8 message types \(5 breaking, 1 dangerous, 2 safe\)\n/);
  });

  const troubles: { name: string; args: string[]; setup?: () => Promise<void>; input?: string; message: RegExp }[] = [
    { name: 'a revision that does not exist', args: ['no-such-rev:app/schema-sync.lock.json'], message: /error \[LOCK\]: cannot read the base lockfile no-such-rev:app\/schema-sync\.lock\.json: fatal: invalid object name 'no-such-rev'/ },
    { name: 'a base that is not JSON', args: ['before-broken.json'], setup: () => writeFile(join(app, 'before-broken.json'), '{ "lockfileVersion": 1,'), message: /error \[LOCK\]: the base lockfile \S*\/app\/before-broken\.json is not valid JSON/ },
    { name: 'a base that is no lockfile', args: ['before.json'], message: /error \[LOCK\]: the base lockfile \S*\/app\/before\.json is not a schema-sync lockfile/ },
    { name: 'both sides standard input', args: ['-', '-'], message: /base and head cannot both be -/ },
    { name: 'neither a base nor --against', args: [], message: /diff needs a base lockfile/ },
  ];
  it.each(troubles)('exit 2 naming the side: $name', async ({ args, setup, message }) => {
    await setup?.();
    const run = await diff(args);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(message);
  });

  it('exit 2 for a head lockfile with merge conflict markers', async () => {
    const path = join(app, 'schema-sync.lock.json');
    const clean = await readFile(path, 'utf8');
    try {
      await writeFile(path, clean.replace('      "mNum": 12,\n', '<<<<<<< HEAD\n      "mNum": 12,\n=======\n      "mNum": 13,\n>>>>>>> other\n'));
      const run = await diff(['--against', 'HEAD~1']);
      expect(run.code).toBe(2);
      expect(run.stderr).toMatch(/error \[LOCK\]: the head lockfile .*schema-sync\.lock\.json has git merge conflict markers \(line \d+\)\./);
    } finally {
      await writeFile(path, clean);
    }
  });

  it('--against outside a git repository says so, not "check the revision"', async () => {
    const outside = await tempDir('schema-sync-diff-no-git-');
    try {
      await writeFile(join(outside, 'schema-sync.lock.json'), await readFile(join(app, 'schema-sync.lock.json'), 'utf8'));
      const run = await diff(['--against', 'HEAD'], { cwd: outside });
      expect(run.code).toBe(2);
      expect(run.stderr).toContain('is not a git repository (nor is any folder above it).');
      expect(run.stderr).toContain('run schema-sync inside its checkout, or name the lockfile by its path');
      expect(run.stderr).not.toMatch(/check the revision/i);
    } finally {
      await removeDir(outside);
    }
  });
});
