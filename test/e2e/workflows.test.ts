/**
 * The ready workflows in `examples/`: each parses as YAML with the triggers and permissions it
 * promises, and its `run:` steps are executed as the runner would (bash -eo pipefail, the
 * `${{ … }}` placeholders substituted, `steps.<id>.outputs` carried) in a clone of a temporary
 * repository whose `origin` is a local bare repository: `npx schema-sync` is the built CLI
 * against the reference server, and `gh` is a stand-in that records its calls.
 */
import { execFileSync, spawn } from 'node:child_process';
import { chmod, mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { readInputListing } from '../../src/fetch/index.js';
import { parseLockfile, serializeLockfile } from '../../src/lock/index.js';
import { LOCKFILE_VERSION } from '../../src/model/lockfile.js';
import { startTestServer, type TestServer } from '../helpers/server/index.js';
import { BIN, ROOT, removeDir, tempDir } from '../helpers/cli.js';
import { runCli } from '../helpers/in-process.js';
import { driftListings } from '../helpers/drift-listings.js';
import { wireElement, type WireElement } from '../helpers/listing.js';

interface Step {
  id?: string;
  name?: string;
  uses?: string;
  run?: string;
  if?: string;
  env?: Record<string, string>;
}
interface Workflow {
  on: Record<string, unknown>;
  permissions: Record<string, string>;
  jobs: Record<string, { env?: Record<string, string>; steps: Step[] }>;
}

const workflow = async (name: string) => parse(await readFile(join(ROOT, 'examples', name), 'utf8')) as Workflow;
const DRIFT = 'schema-drift-workflow.yml';
const UPDATE = 'schema-update-workflow.yml';
const REVIEW = 'schema-review-workflow.yml';

let server: TestServer;
let tmp: string;
let origin: string;
let bin: string;

const git = (cwd: string, ...args: string[]) => execFileSync('git', args, { cwd, encoding: 'utf8' }).trim();

beforeAll(async () => {
  server = await startTestServer({ listing: driftListings().before, apiKey: 'workflow-key' });
  tmp = await tempDir('schema-sync-workflows-');
  bin = join(tmp, 'bin');
  await mkdir(bin);
  // `npx schema-sync …` is the built CLI; any other npx use is a mistake in the workflow.
  await writeFile(join(bin, 'npx'), `#!/bin/sh\n[ "$1" = schema-sync ] || { echo "npx $1 is not schema-sync" >&2; exit 127; }\nshift\nexec "${process.execPath}" "${BIN}" "$@"\n`);
  // `gh` records each call (one JSON array per line) and answers `pr list` with $GH_PR_NUMBER.
  await writeFile(join(bin, 'gh'), `#!/usr/bin/env node\nconst fs = require('node:fs');\nconst args = process.argv.slice(2);\nconst at = args.indexOf('--body-file');\nconst body = at < 0 ? undefined : fs.readFileSync(args[at + 1], 'utf8');\nfs.appendFileSync(process.env.GH_LOG, JSON.stringify({ args, body }) + '\\n');\nif (args[0] === 'pr' && args[1] === 'list') console.log(process.env.GH_PR_NUMBER || '');\n`);
  await chmod(join(bin, 'npx'), 0o755);
  await chmod(join(bin, 'gh'), 0o755);

  // The project: its lockfile and generated code committed on main of `origin`.
  origin = join(tmp, 'origin.git');
  execFileSync('git', ['init', '-q', '--bare', '-b', 'main', origin]);
  const seed = join(tmp, 'seed');
  git(tmp, 'clone', '-q', `file://${origin}`, seed);
  configureGit(seed);
  const pulled = await runCli(['pull', '--quiet'], { cwd: seed, env: { SCHEMA_SYNC_BASE_URL: server.url, SCHEMA_SYNC_API_KEY: 'workflow-key', SCHEMA_SYNC_CACHE_DIR: 'off' } });
  expect(pulled.code, pulled.stderr).toBe(0);
  await writeFile(join(seed, '.gitignore'), 'node_modules/\n');
  git(seed, 'add', '-A');
  git(seed, 'commit', '-q', '-m', 'schema');
  git(seed, 'push', '-q', 'origin', 'main');
});
afterAll(async () => {
  await server.close();
  await removeDir(tmp);
});

function configureGit(dir: string): void {
  git(dir, 'config', 'user.name', 'Schema Test');
  git(dir, 'config', 'user.email', 'schema-test@example.com');
  git(dir, 'config', 'commit.gpgsign', 'false');
}

/** A fresh checkout of `ref` (as actions/checkout gives one), optionally on a new branch. */
async function checkout(name: string, ref = 'main'): Promise<string> {
  const dir = join(tmp, name);
  git(tmp, 'clone', '-q', '--branch', ref, `file://${origin}`, dir);
  configureGit(dir);
  return dir;
}

/** What a job run did: each step's exit code and output, the outputs by step id, the gh calls. */
interface JobRun {
  steps: Array<{ name: string; code: number; stdout: string; stderr: string }>;
  outputs: Record<string, Record<string, string>>;
  gh: Array<{ args: string[]; body?: string }>;
}

/**
 * Runs the `run:` steps of a job as the runner does, stopping at the first that fails; `uses:`
 * steps and `npm ci` are the runner's and the project's set-up, not the workflow's logic.
 */
async function runJob(file: string, cwd: string, context: { secrets?: Record<string, string>; vars?: Record<string, string>; github?: Record<string, string>; labels?: string[]; prNumber?: string }): Promise<JobRun> {
  const job = Object.values((await workflow(file)).jobs)[0]!;
  const log = join(tmp, `gh-${Math.random().toString(36).slice(2)}.log`);
  await writeFile(log, '');
  const result: JobRun = { steps: [], outputs: {}, gh: [] };
  const expression = (text: string): string =>
    text.replace(/\$\{\{\s*(.*?)\s*\}\}/g, (_, expr: string) => {
      const ref = /^(secrets|vars|github)\.(\w+)$/.exec(expr);
      if (ref) return (context[ref[1] as 'secrets' | 'vars' | 'github'] ?? {})[ref[2]!] ?? '';
      const output = /^steps\.(\w+)\.outputs\.(\w+)$/.exec(expr);
      if (output) return result.outputs[output[1]!]?.[output[2]!] ?? '';
      const label = /^contains\(github\.event\.pull_request\.labels\.\*\.name, '([^']+)'\)$/.exec(expr);
      if (label) return String((context.labels ?? []).includes(label[1]!));
      throw new Error(`the test does not know the expression ${expr}`);
    });
  for (const step of job.steps) {
    if (step.run === undefined || step.run === 'npm ci') continue;
    if (step.if !== undefined) {
      const condition = /^steps\.(\w+)\.outputs\.(\w+) == '([^']*)'$/.exec(step.if);
      if (!condition) throw new Error(`the test does not know the condition ${step.if}`);
      if (result.outputs[condition[1]!]?.[condition[2]!] !== condition[3]) continue;
    }
    const outputFile = join(tmp, `output-${Math.random().toString(36).slice(2)}`);
    await writeFile(outputFile, '');
    const env: Record<string, string> = {
      PATH: `${bin}:${process.env['PATH']}`,
      HOME: process.env['HOME'] ?? tmp,
      NO_COLOR: '1',
      // The runner's node_modules/.cache after `npm ci`: schema-sync's caches start empty for each
      // checkout (they are kept per output folder); the CLI's compiled code is shared.
      SCHEMA_SYNC_CACHE_DIR: join(tmp, 'runner-cache'),
      GITHUB_ACTIONS: 'true',
      GITHUB_WORKSPACE: cwd,
      GITHUB_OUTPUT: outputFile,
      GITHUB_STEP_SUMMARY: join(tmp, 'step-summary.md'),
      GITHUB_REF_NAME: context.github?.['ref_name'] ?? 'main',
      RUNNER_TEMP: tmp,
      GH_LOG: log,
      GH_PR_NUMBER: context.prNumber ?? '',
    };
    for (const [key, value] of Object.entries({ ...job.env, ...step.env })) env[key] = expression(value);
    // Not spawnSync: the reference server answers from this very process.
    const ran = await bash(expression(step.run), cwd, env);
    result.steps.push({ name: step.name ?? step.run, ...ran });
    if (step.id !== undefined) {
      const lines = (await readFile(outputFile, 'utf8')).split('\n').filter(Boolean);
      result.outputs[step.id] = Object.fromEntries(lines.map((line) => [line.slice(0, line.indexOf('=')), line.slice(line.indexOf('=') + 1)]));
    }
    if (ran.code !== 0) break;
  }
  result.gh = (await readFile(log, 'utf8')).split('\n').filter(Boolean).map((line) => JSON.parse(line) as { args: string[]; body?: string });
  return result;
}

function bash(script: string, cwd: string, env: Record<string, string>): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn('bash', ['--noprofile', '--norc', '-eo', 'pipefail', '-c', script], { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (data: Buffer) => (stdout += data.toString()));
    child.stderr.on('data', (data: Buffer) => (stderr += data.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code: code ?? -1, stdout, stderr }));
  });
}

const serviceContext = () => ({ secrets: { SCHEMA_SYNC_API_KEY: 'workflow-key', SCHEMA_SYNC_SECRET: '', GITHUB_TOKEN: 'gh-token' }, vars: { SCHEMA_SYNC_BASE_URL: server.url } });
const codes = (run: JobRun) => run.steps.map((step) => step.code);

/** The `run:` scripts of every job of a workflow, one string. */
const scripts = (parsed: Workflow) => Object.values(parsed.jobs).flatMap((job) => job.steps.map((step) => step.run ?? '')).join('\n');
const onPullRequests = (parsed: Workflow) => Object.keys(parsed.on).some((trigger) => trigger.startsWith('pull_request'));

describe('examples/*.yml parse as the workflows docs/ci-workflows.md promises', () => {
  it('drift check: on a schedule and by hand, never on pull requests, check --format github', async () => {
    const parsed = await workflow(DRIFT);
    expect(Object.keys(parsed.on)).toEqual(['schedule', 'workflow_dispatch']);
    expect(onPullRequests(parsed)).toBe(false);
    expect(parsed.jobs['check']!.steps.map((step) => step.run).filter(Boolean)).toEqual(['npm ci', 'npx schema-sync check --format github']);
  });

  it('pull request workflows: never ask the live service (no check, no pull), and no step needs a secret a fork pull request lacks', async () => {
    const files = (await readdir(join(ROOT, 'examples'))).filter((name) => name.endsWith('.yml'));
    expect(files.sort()).toEqual([DRIFT, REVIEW, UPDATE].sort());
    const onPr: string[] = [];
    for (const file of files) {
      const parsed = await workflow(file);
      if (!onPullRequests(parsed)) continue;
      onPr.push(file);
      expect(scripts(parsed), file).not.toMatch(/schema-sync (?:check|pull)\b/);
      const text = await readFile(join(ROOT, 'examples', file), 'utf8');
      // GitHub gives fork pull requests no secrets but a read-only GITHUB_TOKEN.
      expect([...text.matchAll(/secrets\.(\w+)/g)].map((m) => m[1]).filter((name) => name !== 'GITHUB_TOKEN'), file).toEqual([]);
      expect(text, file).not.toContain('SCHEMA_SYNC_BASE_URL');
    }
    expect(onPr).toEqual([REVIEW]);
  });

  it('update: on a schedule, may push and open pull requests, one fixed branch, git and gh only', async () => {
    const parsed = await workflow(UPDATE);
    expect(parsed.on['schedule']).toEqual([{ cron: '41 5 * * 1-5' }]);
    expect(parsed.permissions).toEqual({ contents: 'write', 'pull-requests': 'write' });
    const job = parsed.jobs['update']!;
    expect(job.env?.['BRANCH']).toBe('schema-sync/update');
    const script = job.steps.map((step) => step.run ?? '').join('\n');
    for (const label of ['schema: breaking', 'schema: dangerous', 'schema: safe']) expect(script).toContain(`gh label create "${label}"`);
    const commands = new Set(script.split('\n').map((line) => line.trim().split(/\s+/)[0]).filter((word) => /^[a-z]+$/.test(word ?? '')));
    expect([...commands].filter((command) => !['npm', 'npx', 'git', 'gh', 'node', 'if', 'then', 'else', 'fi', 'echo', 'exit', 'others', 'number', 'severity', 'commit'].includes(command!))).toEqual([]);
  });

  it('review: on pull requests touching the lockfile (and on label changes), no secrets', async () => {
    const parsed = await workflow(REVIEW);
    expect(parsed.on['pull_request']).toEqual({ paths: ['schema-sync.lock.json'], types: ['opened', 'synchronize', 'reopened', 'labeled', 'unlabeled'] });
    expect(parsed.permissions).toEqual({ contents: 'read' });
    const script = parsed.jobs['review']!.steps.map((step) => step.run ?? '').join('\n');
    expect(script).toContain('npx schema-sync diff --against origin/${{ github.base_ref }} --format github --fail-on breaking');
    expect(script).not.toContain('secrets.');
  });
});

describe('the workflows run against the reference server', () => {
  it('drift check: in sync, exit 0', async () => {
    const run = await runJob(DRIFT, await checkout('drift'), serviceContext());
    expect(codes(run), run.steps.at(-1)?.stderr).toEqual([0]);
    expect(run.steps[0]!.stdout).toContain('In sync: no drift.');
  });

  it('update: no change → no pull request', async () => {
    const run = await runJob(UPDATE, await checkout('update-none'), serviceContext());
    expect(codes(run)).toEqual([0, 0]);
    expect(run.outputs['report']).toEqual({ changed: 'false' });
    expect(run.gh).toEqual([]);
  });

  it('update: breaking changes → the branch is pushed and one pull request opened with the report and "schema: breaking"', async () => {
    server.setListing(driftListings().after);
    const run = await runJob(UPDATE, await checkout('update-open'), serviceContext());
    expect(codes(run), run.steps.at(-1)?.stderr).toEqual([0, 0, 0]);
    expect(run.outputs['report']).toEqual({ changed: 'true', severity: 'breaking' });
    expect(run.gh.map((call) => call.args.slice(0, 2).join(' '))).toEqual(['label create', 'label create', 'label create', 'pr list', 'pr create']);
    const create = run.gh.at(-1)!;
    expect(create.args).toEqual(expect.arrayContaining(['--head', 'schema-sync/update', '--base', 'main', '--label', 'schema: breaking', '--title', 'Schema update (breaking changes)']));
    expect(create.body).toMatch(/^### Schema changes\n\nChanges: 8 message types \(5 breaking, 1 dangerous, 2 safe\)\n/);
    expect(create.body).toContain('| breaking | removed | `RiskOld` | mNum 21 [MESSAGE_REMOVED] |');
    // The branch on origin holds the pulled lockfile; main is untouched.
    const pushed = git(origin, 'show', 'schema-sync/update:schema-sync.lock.json');
    expect(pushed).toContain('"Trade"');
    expect(git(origin, 'show', 'main:schema-sync.lock.json')).not.toContain('"Trade"');
  });

  it('update again with only a safe change: the same branch is force-pushed, the pull request edited and relabelled', async () => {
    server.setListing([...driftListings().before, wireElement({ name: 'Zeta', mNum: 90, mToken: 'Market' })]);
    const run = await runJob(UPDATE, await checkout('update-edit'), { ...serviceContext(), prNumber: '7' });
    expect(codes(run), run.steps.at(-1)?.stderr).toEqual([0, 0, 0]);
    expect(run.outputs['report']).toEqual({ changed: 'true', severity: 'safe' });
    const edit = run.gh.at(-1)!;
    expect(edit.args).toEqual(['pr', 'edit', '7', '--title', 'Schema update (safe changes)', '--body-file', join(tmp, 'schema-report.md'), '--remove-label', 'schema: breaking,schema: dangerous', '--add-label', 'schema: safe']);
    expect(edit.body).toContain('| safe | added | `Zeta` | mNum 90 [MESSAGE_ADDED] |');
    expect(git(origin, 'show', 'schema-sync/update:schema-sync.lock.json')).toContain('"Zeta"');
    expect(git(origin, 'log', '--format=%s', '-1', 'schema-sync/update')).toBe('Update the schema lockfile and generated code (safe changes)');
  });

  it('drift check: once the service changed, the scheduled run fails (exit 1) and annotates the changes', async () => {
    const run = await runJob(DRIFT, await checkout('drift-changed'), serviceContext());
    expect(codes(run)).toEqual([1]);
    expect(run.steps[0]!.stdout).toMatch(/^::/m);
  });

  describe('review', () => {
    /**
     * A pull request branch whose lockfile is that of `listing` (the review reads lockfiles only,
     * so the generated code is left as it was).
     */
    async function pullRequest(name: string, listing: WireElement[]): Promise<string> {
      const dir = await checkout(name);
      git(dir, 'switch', '-q', '-c', name);
      const path = join(dir, 'schema-sync.lock.json');
      const { source, settings } = parseLockfile(await readFile(path, 'utf8'), path);
      const { descriptors } = await readInputListing({ input: '-', stdin: Readable.from([JSON.stringify(listing)]) });
      await writeFile(path, serializeLockfile({ lockfileVersion: LOCKFILE_VERSION, source, settings, messages: descriptors }));
      git(dir, 'commit', '-q', '-am', `lockfile of ${name}`);
      return dir;
    }
    let feature: string;
    beforeAll(async () => {
      feature = await pullRequest('feature', driftListings().after);
    });

    it('breaking changes fail the job, annotated on the lockfile', async () => {
      const run = await runJob(REVIEW, feature, { github: { base_ref: 'main' } });
      expect(codes(run)).toEqual([0, 1]);
      const annotations = run.steps[1]!.stdout.split('\n').filter((line) => line.startsWith('::'));
      expect(annotations.filter((line) => line.startsWith('::error title=Breaking schema change,file=schema-sync.lock.json'))).toHaveLength(5);
      expect(annotations.some((line) => line.startsWith('::warning title=Dangerous schema change,file=schema-sync.lock.json,line='))).toBe(true);
    });

    it('with the label approved-breaking-change: passes, saying so', async () => {
      const run = await runJob(REVIEW, feature, { github: { base_ref: 'main' }, labels: ['approved-breaking-change'] });
      expect(codes(run)).toEqual([0, 0]);
      expect(run.steps[1]!.stdout).toContain('::notice title=Breaking schema change approved::');
    });

    it('without breaking changes: passes without the label', async () => {
      const safe = await pullRequest('safe', [...driftListings().before, wireElement({ name: 'Zeta', mNum: 90, mToken: 'Market' })]);
      const run = await runJob(REVIEW, safe, { github: { base_ref: 'main' } });
      expect(codes(run)).toEqual([0, 0]);
      expect(run.steps[1]!.stdout).toContain('::notice title=Safe schema change,file=schema-sync.lock.json');
    });
  });
});
