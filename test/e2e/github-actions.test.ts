/**
 * Under GitHub Actions, with the CLI (run in this process, see test/helpers/in-process.ts): a run that fails (exit 2) under `--format github`
 * prints one `::error` workflow command instead of the plain error line, and `check` and `pull`
 * append their markdown report (or, on exit 2, the error) to the job's step summary.
 */
import { existsSync } from 'node:fs';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server/index.js';
import { readTree, removeDir, tempDir, type CliRun } from '../helpers/cli.js';
import { runCli } from '../helpers/in-process.js';
import { smallListing, wireElement } from '../helpers/listing.js';

/** A key the service requires: it must never show, escaped or not. */
const KEY = 'ghp-k3y%with,odd:chars';

let server: TestServer;
let closedUrl: string;
let dir: string;
let summary: string;

beforeAll(async () => {
  server = await startTestServer({ listing: smallListing(3), apiKey: KEY });
  // A port nothing listens on: taken from the system, then released.
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as { port: number };
  await new Promise((resolve) => probe.close(resolve));
  closedUrl = `http://127.0.0.1:${port}`;
  dir = await tempDir('schema-sync-gha-');
  summary = join(dir, 'step-summary.md');
  const pulled = await runCli(['pull', '--base-url', server.url, '--out', 'out', '--quiet'], { cwd: dir, env: { SCHEMA_SYNC_API_KEY: KEY } });
  expect(pulled.code, pulled.stderr).toBe(0);
});
afterAll(async () => {
  await server.close();
  await removeDir(dir);
});
beforeEach(async () => {
  server.setListing(smallListing(3));
  await rm(summary, { recursive: true, force: true });
});

/** The CLI under GitHub Actions: the runner's variables and the key from a secret. */
const actions = (args: string[], env: Record<string, string | undefined> = {}) =>
  runCli([...args, '--out', 'out', '--retries', '0'], {
    cwd: dir,
    env: { GITHUB_ACTIONS: 'true', GITHUB_STEP_SUMMARY: summary, GITHUB_WORKSPACE: dir, SCHEMA_SYNC_API_KEY: KEY, SCHEMA_SYNC_CACHE_DIR: 'off', ...env },
  });

/** Every workflow command the run printed, on either stream. */
const commands = (run: CliRun) => `${run.stdout}\n${run.stderr}`.split('\n').filter((line) => line.startsWith('::'));

function expectNoSecret(...texts: string[]): void {
  for (const text of texts) {
    for (const form of [KEY, encodeURIComponent(KEY), 'k3y']) expect(text).not.toContain(form);
  }
}

describe('exit 2 under --format github', () => {
  it('an unreachable service: one ::error with the cause and the hint, no plain error line, and the step summary says so', async () => {
    const run = await actions(['check', '--base-url', closedUrl, '--format', 'github']);
    expect(run.code).toBe(2);
    expect(run.stdout).toBe('');
    const [annotation, ...others] = commands(run);
    expect(others).toEqual([]);
    expect(run.stderr).toBe(`${annotation}\n`);
    expect(annotation).toMatch(/^::error title=schema-sync check failed \(NETWORK\)::could not get http:\/\/127\.0\.0\.1:\d+\/rest\/proto\S* .*connection refused.*%0Ahint: \S/);
    // One line: every newline escaped, none raw.
    expect(annotation).not.toMatch(/[\r\n]/);
    expect(run.stderr).not.toContain('error [NETWORK]');

    const text = await readFile(summary, 'utf8');
    expect(text).toMatch(/^### schema-sync check failed\n\nExit code 2 \(NETWORK\): `check` did not finish; the lockfile and the output folder are as they were\.\n\n```text\ncould not get http:\/\/127\.0\.0\.1:\d+\/rest\/proto\S* .*connection refused.*\nhint: .*\n```\n\n$/);
    expectNoSecret(run.stdout, run.stderr, text);
  });

  it('pull fails alike, changing nothing, and appends to a summary that holds an earlier step\'s text', async () => {
    await writeFile(summary, '## Earlier step\n');
    const before = await readTree(dir);
    const run = await actions(['pull', '--base-url', closedUrl, '--format', 'github']);
    expect(run.code).toBe(2);
    const after = await readTree(dir);
    after.delete('step-summary.md');
    before.delete('step-summary.md');
    expect(after).toEqual(before);
    expect(commands(run)).toHaveLength(1);
    expect(commands(run)[0]).toMatch(/^::error title=schema-sync pull failed \(NETWORK\)::could not get /);
    const text = await readFile(summary, 'utf8');
    expect(text).toMatch(/^## Earlier step\n### schema-sync pull failed\n\nExit code 2 \(NETWORK\)/);
    expectNoSecret(run.stdout, run.stderr, text);
  });

  it('a usage error is one ::error too, and goes to the summary of check', async () => {
    const run = await actions(['check', '--base-url', server.url, '--format', 'github', '--bsae-url', 'x']);
    expect(run.code).toBe(2);
    expect(run.stderr).toBe('::error title=schema-sync check failed (USAGE)::Unknown argument: --bsae-url%0Ahint: Did you mean --base-url? Run schema-sync check --help.\n');
    expect(await readFile(summary, 'utf8')).toContain('### schema-sync check failed\n\nExit code 2 (USAGE)');
  });

  it('a report format given by the config counts as well; other formats keep the plain line; outside Actions no summary is written', async () => {
    await writeFile(join(dir, 'github.json'), JSON.stringify({ report: 'github' }));
    const fromConfig = await actions(['check', '--base-url', closedUrl, '--config', join(dir, 'github.json')]);
    expect(fromConfig.code).toBe(2);
    expect(commands(fromConfig)).toEqual([expect.stringMatching(/^::error title=schema-sync check failed \(NETWORK\)::could not get /)]);

    await rm(summary, { force: true });
    const plain = await actions(['check', '--base-url', closedUrl, '--format', 'markdown'], { GITHUB_ACTIONS: undefined });
    expect(plain.code).toBe(2);
    expect(commands(plain)).toEqual([]);
    expect(plain.stderr).toMatch(/^error \[NETWORK\]: could not get .*\nhint: /);
    expect(existsSync(summary)).toBe(false);
  });
});

describe('the step summary', () => {
  it('a drift check appends its markdown report; a pull appends what it changes', async () => {
    server.setListing([...smallListing(3), wireElement({ name: 'Added', mNum: 7 })]);
    const checked = await actions(['check', '--base-url', server.url, '--format', 'github']);
    expect(checked.code).toBe(1);
    expect(commands(checked).some((line) => line.startsWith('::notice title=Safe schema change,file=schema-sync.lock.json::added Added'))).toBe(true);
    const afterCheck = await readFile(summary, 'utf8');
    expect(afterCheck).toMatch(/^### Schema drift\n\n.*\n\n\| Severity \| Change \| Message \| Details \|\n/);
    expect(afterCheck).toContain('| safe | added | `Added` |');

    const pulled = await actions(['pull', '--base-url', server.url, '--dry-run']);
    expect(pulled.code).toBe(0);
    const afterPull = await readFile(summary, 'utf8');
    expect(afterPull.startsWith(afterCheck)).toBe(true);
    expect(afterPull.slice(afterCheck.length)).toMatch(/^### Schema changes \(dry run\)\n[^]*\| safe \| added \| `Added` \|/);
    expectNoSecret(checked.stdout, checked.stderr, afterPull);
  });

  it('a one-letter key is masked where it stands alone, never inside the wording ("Breaking schema change")', async () => {
    server.setOptions({ apiKey: 'k' });
    try {
      server.setListing(smallListing(2));
      const run = await actions(['check', '--base-url', server.url, '--format', 'github', '--verbose'], { SCHEMA_SYNC_API_KEY: 'k' });
      expect(run.code).toBe(1);
      expect(commands(run)[0]).toMatch(/^::error title=Breaking schema change,file=schema-sync\.lock\.json,line=\d+::removed T0002 \(mNum 1002\) \[MESSAGE_REMOVED\]$/);
      expect(run.stderr).toContain('apikey=***');
      const text = await readFile(summary, 'utf8');
      expect(text).toContain('| breaking | removed | `T0002` |');
      expect(`${run.stdout}${run.stderr}${text}`).not.toMatch(/\*\*\*[a-z]|[a-z]\*\*\*/i);
    } finally {
      server.setOptions({ apiKey: KEY });
    }
  });

  it('that cannot be written is a warning: the check\'s own result stands', async () => {
    await mkdir(summary);
    const run = await actions(['check', '--base-url', server.url]);
    expect(run.code).toBe(0);
    expect(run.stderr).toMatch(/^warning: could not append the report to the step summary .*step-summary\.md: EISDIR/m);
  });
});
