import { readFile, writeFile } from 'node:fs/promises';
import { createServer, type AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server/index.js';
import { ROOT, removeDir, tempDir } from '../helpers/cli.js';
import { smallListing } from '../helpers/listing.js';
import { runInProcess } from './fake-io.js';

const ESC = '\u001b[';
const KEY = 'k3y-MANNERS-4711';
const VERSION = (JSON.parse(await readFile(join(ROOT, 'package.json'), 'utf8')) as { version: string }).version;

let server: TestServer;
let dir: string;
beforeAll(async () => {
  server = await startTestServer({ listing: smallListing(3) });
  dir = await tempDir();
});
afterAll(async () => {
  await server.close();
  await removeDir(dir);
});

const cli = (argv: string[], options: { env?: NodeJS.ProcessEnv; tty?: boolean; cwd?: string } = {}) =>
  runInProcess(argv, { cwd: options.cwd ?? dir, env: options.env ?? {}, tty: options.tty });

describe('help', () => {
  it('lists every command, with examples and the exit codes', async () => {
    const run = await cli(['--help']);
    expect(run.code).toBe(0);
    for (const command of ['pull', 'check', 'generate', 'serve', 'init']) expect(run.stdout).toContain(`schema-sync ${command} `);
    expect(run.stdout).toContain('Examples:');
    expect(run.stdout).toMatch(/Exit codes: 0 .*1 drift.*2/s);
    expect(run.stderr).toBe('');
  });

  it.each(['pull', 'check', 'generate', 'serve', 'init'])('%s --help shows its options and at least one example of itself', async (command) => {
    const run = await cli([command, '--help']);
    expect(run.code).toBe(0);
    const examples = run.stdout.slice(run.stdout.indexOf('Examples:'));
    expect(run.stdout).toContain('Examples:');
    expect(examples).toContain(`schema-sync ${command}`);
    for (const flag of ['--config', '--quiet', '--verbose', '--color', '--help']) expect(run.stdout).toContain(flag);
  });

  it('-h is --help', async () => {
    expect((await cli(['pull', '-h'])).stdout).toBe((await cli(['pull', '--help'])).stdout);
  });
});

describe('version', () => {
  it('--version prints the package version alone', async () => {
    expect(await cli(['--version'])).toEqual({ code: 0, stdout: `${VERSION}\n`, stderr: '' });
  });
});

describe('usage errors', () => {
  it('an unknown flag is exit 2 with a suggestion and the command help to read', async () => {
    const run = await cli(['pull', '--bsae-url', 'x']);
    expect(run.code).toBe(2);
    expect(run.stdout).toBe('');
    expect(run.stderr).toMatch(/^error \[USAGE\]: Unknown argument: --bsae-url\nhint: Did you mean --base-url\? Run schema-sync pull --help\.\n$/);
  });

  it('a flag of another command says so instead of suggesting itself', async () => {
    const run = await cli(['generate', '--base-url', 'x']);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('hint: --base-url is not an option of this command. Run schema-sync generate --help.');
  });

  it('the placeholder base URL of init is refused at once by pull and check, naming what to set', async () => {
    // "At once" is "before any request": every request goes to a proxy that counts and refuses it.
    const proxy = createServer();
    const seen: string[] = [];
    proxy.on('connection', (socket) => {
      seen.push('connection');
      socket.once('data', () => socket.end('HTTP/1.1 502 Bad Gateway\r\nContent-Length: 0\r\n\r\n'));
    });
    await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
    // The fetch layer reads the proxy from the process environment, not the CLI's io.
    vi.stubEnv('HTTPS_PROXY', `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`);
    vi.stubEnv('NO_PROXY', '');
    try {
      for (const command of ['pull', 'check']) {
        const run = await cli([command, '--base-url', 'https://schemas.example.com', '--retries', '3']);
        expect(run.code).toBe(2);
        expect(run.stderr).toMatch(/^error \[CONFIG\]: the base URL https:\/\/schemas\.example\.com is the placeholder/);
        expect(run.stderr).toContain('SCHEMA_SYNC_BASE_URL');
        expect(seen, `${command} sent no request`).toEqual([]);
      }
      // The proxy does see what a run sends: another host goes through it (and fails there).
      const other = await cli(['pull', '--base-url', 'https://schemas.example.org', '--retries', '0', '--dry-run']);
      expect(other.code, other.stderr).toBe(2);
      expect(seen.length).toBeGreaterThan(0);
    } finally {
      vi.unstubAllEnvs();
      await new Promise((resolve) => proxy.close(resolve));
    }
  });

  it.each([
    [['pull', '--timeout', 'abc'], '--timeout takes a whole number of milliseconds from 1 (got "abc")'],
    [['pull', '--retries', '-1'], '--retries takes a whole number from 0 to 10 (got -1)'],
    [['check', '--retries', 'abc'], '--retries takes a whole number from 0 to 10 (got "abc")'],
    [['generate', '--lock-wait', 'abc'], '--lock-wait takes a whole number of milliseconds from 0 (got "abc")'],
  ])('%j is refused as its config key would be (exit 2, in the config\'s words)', async (argv, problem) => {
    const run = await cli(argv);
    expect(run).toEqual({ code: 2, stdout: '', stderr: `error [CONFIG]: invalid flags:\n  ${problem}\nhint: Run schema-sync ${argv[0]} --help.\n` });
  });

  it('an unknown command suggests the closest one', async () => {
    const run = await cli(['chekc']);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('Did you mean check?');
  });

  it('no command is exit 2 and names the commands', async () => {
    const run = await cli([]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('pull, check, diff, generate, rules, serve or init');
  });

  it('a bad choice names the choices', async () => {
    const run = await cli(['check', '--fail-on', 'some']);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/Choices: "any", "breaking"/);
  });

  it('an API key given as a flag never appears in a usage error', async () => {
    const run = await cli(['pull', '--api-key', KEY, '--bogus', KEY]);
    expect(run.code).toBe(2);
    expect(run.stderr).not.toContain(KEY);
  });
});

describe('config errors through the CLI', () => {
  it('names every wrong key at once, exit 2, and never echoes a literal key', async () => {
    const cwd = await tempDir();
    try {
      await writeFile(join(cwd, 'schema-sync.config.json'), JSON.stringify({ apiKey: KEY, limit: 0, fromat: 'prettier' }));
      const run = await cli(['generate'], { cwd });
      expect(run.code).toBe(2);
      expect(run.stderr).toMatch(/^error \[CONFIG\]: config file .*schema-sync.config.json is invalid:/);
      expect(run.stderr).toContain('"apiKey": a literal credential is not allowed in a config file (use SCHEMA_SYNC_API_KEY)');
      expect(run.stderr).toContain('"limit"');
      expect(run.stderr).toContain('"fromat": unknown key (did you mean "format"?)');
      expect(run.stderr).not.toContain(KEY);
    } finally {
      await removeDir(cwd);
    }
  });

  it('--config names another file; a missing one is exit 2', async () => {
    const run = await cli(['generate', '--config', 'nope.json']);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/error \[CONFIG\]: cannot read config file .*nope\.json/);
  });
});

describe('quiet, verbose and colour', () => {
  const pullArgs = () => ['pull', '--base-url', server.url, '--out', 'q-out', '--lockfile', 'q.lock.json'];

  it('--quiet prints nothing on success, and only the error on failure', async () => {
    server.setListing(smallListing(3));
    expect(await cli([...pullArgs(), '--quiet'])).toEqual({ code: 0, stdout: '', stderr: '' });
    server.setListing(smallListing(4));
    const check = await cli(['check', '--base-url', server.url, '--out', 'q-out', '--lockfile', 'q.lock.json', '--quiet']);
    expect(check).toEqual({ code: 1, stdout: '', stderr: '' });
    const failed = await cli(['generate', '--lockfile', 'missing.lock.json', '--quiet']);
    expect(failed.code).toBe(2);
    expect(failed.stdout).toBe('');
    expect(failed.stderr).toMatch(/^error \[LOCK\]: .*\n( {2}no config file found .*\n)?hint: .*\n$/);
  });

  it('without --quiet, pull ends with the one-line summary', async () => {
    server.setListing(smallListing(5));
    const run = await cli(pullArgs());
    expect(run.code).toBe(0);
    expect(run.stderr).toMatch(/^5 types · 2 added · \d+ files? written in \d+\.\d s$/m);
  });

  it('--verbose shows the request with the key redacted', async () => {
    const run = await cli([...pullArgs(), '--verbose'], { env: { SCHEMA_SYNC_API_KEY: KEY } });
    expect(run.code).toBe(0);
    expect(run.stderr).toMatch(/GET http:\/\/127\.0\.0\.1:\d+\/rest\/proto\?.*apikey=\*\*\*.* \(try 1\)/);
    expect(run.stderr).toMatch(/HTTP 200, \d+ bytes in \d+ ms/);
    expect(run.stdout + run.stderr).not.toContain(KEY);
    const quiet = await cli([...pullArgs(), '--verbose', '--quiet']);
    expect(quiet.stderr).toBe('');
  });

  it('colours a terminal report, never with NO_COLOR or --no-color, never when not a terminal', async () => {
    server.setListing(smallListing(2)); // drift: removed types
    const check = ['check', '--base-url', server.url, '--out', 'q-out', '--lockfile', 'q.lock.json'];
    const tty = await cli(check, { tty: true });
    expect(tty.code).toBe(1);
    expect(tty.stdout).toContain(ESC);
    for (const run of [
      await cli(check, { tty: true, env: { NO_COLOR: '1' } }),
      await cli([...check, '--no-color'], { tty: true }),
      await cli(check, { tty: false }),
      await cli([...check, '--color'], { tty: true, env: { NO_COLOR: '1' } }),
    ]) {
      expect(run.code).toBe(1);
      expect(run.stdout + run.stderr).not.toContain(ESC);
    }
    const forced = await cli([...check, '--color'], { tty: false });
    expect(forced.stdout).toContain(ESC);
  });
});

describe('exit codes', () => {
  it('pull: 0 done, 2 error', async () => {
    server.setListing(smallListing(3));
    const cwd = await tempDir();
    try {
      expect((await cli(['pull', '--base-url', server.url, '--quiet'], { cwd })).code).toBe(0);
      expect((await cli(['pull', '--base-url', server.url, '--dry-run', '--quiet'], { cwd })).code).toBe(0);
      expect((await cli(['pull', '--quiet'], { cwd })).code).toBe(2); // no base URL
      server.setOptions({ apiKey: 'right' });
      const denied = await cli(['pull', '--base-url', server.url], { cwd, env: { SCHEMA_SYNC_API_KEY: KEY } });
      expect(denied.code).toBe(2);
      expect(denied.stderr).toMatch(/error \[NETWORK\]/);
      expect(denied.stderr).not.toContain(KEY);
    } finally {
      server.setOptions({ apiKey: undefined });
      await removeDir(cwd);
    }
  });

  it('check: 0 in sync, 1 drift, 2 error', async () => {
    server.setListing(smallListing(3));
    const cwd = await tempDir();
    try {
      expect((await cli(['pull', '--base-url', server.url, '--quiet'], { cwd })).code).toBe(0);
      expect((await cli(['check', '--base-url', server.url], { cwd })).code).toBe(0);
      server.setListing(smallListing(4));
      expect((await cli(['check', '--base-url', server.url], { cwd })).code).toBe(1);
      expect((await cli(['check', '--base-url', server.url, '--fail-on', 'breaking'], { cwd })).code).toBe(0); // only an addition
      expect((await cli(['check', '--base-url', server.url, '--lockfile', 'none.json'], { cwd })).code).toBe(2);
      expect((await cli(['check'], { cwd })).code).toBe(2); // no base URL
    } finally {
      await removeDir(cwd);
    }
  });

  it('generate: 0 done, 2 error (and never the network)', async () => {
    server.setListing(smallListing(3));
    const cwd = await tempDir();
    try {
      expect((await cli(['generate'], { cwd })).code).toBe(2); // no lockfile yet
      expect((await cli(['pull', '--base-url', server.url, '--quiet'], { cwd })).code).toBe(0);
      const requests = server.requests.length;
      const run = await cli(['generate', '--base-url', 'http://127.0.0.1:9'], { cwd }).catch(() => undefined);
      // --base-url is not an option of generate: a usage error, exit 2
      expect(run?.code).toBe(2);
      expect((await cli(['generate'], { cwd })).code).toBe(0);
      expect(server.requests.length).toBe(requests);
    } finally {
      await removeDir(cwd);
    }
  });

  it('init: 0 written, 2 refused', async () => {
    const cwd = await tempDir();
    try {
      expect((await cli(['init', '--quiet'], { cwd })).code).toBe(0);
      expect((await cli(['init', '--quiet'], { cwd })).code).toBe(2);
      expect((await cli(['init', '--quiet', '--force'], { cwd })).code).toBe(0);
    } finally {
      await removeDir(cwd);
    }
  });

  it('serve: 2 without --file or with a missing file; 0 when stopped', async () => {
    expect((await cli(['serve'])).code).toBe(2);
    expect((await cli(['serve', '--file', 'missing.json'])).code).toBe(2);
    const stopped = await runInProcess(['serve', '--file', join(ROOT, 'examples/descriptors.json')], { cwd: dir, env: {} });
    expect(stopped.code).toBe(0);
  });
});
