// Part 6, budgets: commands that must end within their --timeout (servers that never answer or
// trickle, a peer that never reads, proxies that close or refuse CONNECT: issue 30 item 5) or
// their --lock-wait (a held run lock, and run locks schema-sync never makes: item 4), or soon
// after a SIGTERM. Each run's wall time minus its budget is its overrun (node's own start-up, the
// `--version` time printed, is part of every one); a proxy's connections per run are counted.
import { hostname } from 'node:os';
import { cp, mkdir, rm, symlink, writeFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import { createServer as createNetServer } from 'node:net';
import { join } from 'node:path';
import { startReferenceServer } from '../../dist/server/index.js';
import { syntheticListing } from '../../test/helpers/folder-states.mjs';
import { chownTree, errorCode, nobodyCanRun } from './common.mjs';

const TIMEOUT = 2_000;
const LOCK_WAIT = 2_000;
/** When a run counts as not ending at all: its budget and this much more. */
const GRACE_MS = 30_000;
const RUN_LOCK = '.schema-sync-run.lock';
/** The lock beside the project's lockfile (write/run-lock.ts, lockfileLockPath). */
const LOCKFILE_LOCK = '.schema-sync.lock.json.schema-sync-lock';

/** Runs every case and prints the longest overrun. */
export async function budgets(root, options, tally) {
  await mkdir(root, { recursive: true });
  const reference = await startReferenceServer({ listing: syntheticListing(5) });
  const stalls = await listen(createServer(stall), 'http');
  const deaf = await listen(createNetServer((socket) => socket.pause()), 'http');
  let connections = 0;
  let proxyBehaviour = () => undefined;
  const proxy = await listen(createNetServer((socket) => {
    connections++;
    socket.on('error', () => undefined);
    proxyBehaviour(socket);
  }), 'http');
  const template = join(root, 'template');
  const results = [];
  const skipped = [];
  try {
    await mkdir(template);
    await tally.run('budgets: template pull', ['pull', '--base-url', reference.url, '--out', 'out', '--quiet'], { cwd: template, env: { SCHEMA_SYNC_CACHE_DIR: 'off' } });
    const startUp = [];
    for (let i = 0; i < 3; i++) {
      const run = tally.start('budgets: --version', ['--version'], { cwd: template });
      startUp.push((await run.done).exitedAt - run.startedAt);
    }

    /** Runs `args` in a fresh copy of the project (after `arrange(dir)`), with `budget` ms to keep. */
    const measure = async (name, args, { budget, env = {}, arrange, asNobody = false, signalAt }) => {
      const dir = join(root, `case-${results.length}`);
      await cp(template, dir, { recursive: true });
      if (asNobody) await chownTree(dir, 65534);
      await arrange?.(dir);
      connections = 0;
      const run = tally.start(`budgets: ${name}`, args, { cwd: dir, env: { SCHEMA_SYNC_CACHE_DIR: 'off', ...env }, asUser: asNobody ? 'nobody' : undefined, killAfterMs: (signalAt ?? budget) + GRACE_MS });
      let signalled;
      if (signalAt !== undefined) {
        setTimeout(() => {
          signalled = Date.now();
          run.child.kill('SIGTERM');
        }, signalAt);
      }
      const result = await run.done;
      const wall = result.exitedAt - run.startedAt;
      const overrun = signalled === undefined ? wall - budget : result.exitedAt - signalled;
      results.push({ name, wall, budget: signalAt === undefined ? `${budget} ms` : 'SIGTERM', overrun, exit: `${result.timedOut ? 'killed' : result.code ?? result.signal} ${errorCode(result.stderr)}`.trim(), connections });
      await rm(dir, { recursive: true, force: true });
    };

    const net = (base, retries = 0) => ['pull', '--base-url', base, '--out', 'out', '--timeout', String(TIMEOUT), '--retries', String(retries)];
    for (const [name, path] of [['a server that never answers', '/silent'], ['a server that sends headers, then nothing', '/headers'], ['a server that trickles a byte every 200 ms', '/trickle']]) {
      await measure(`pull: ${name}`, net(`${stalls.url}${path}`), { budget: TIMEOUT });
      await measure(`check: ${name}`, ['check', '--base-url', `${stalls.url}${path}`, '--out', 'out', '--timeout', String(TIMEOUT), '--retries', '0'], { budget: TIMEOUT });
    }
    await measure('pull: a peer that accepts and never reads', net(deaf.url), { budget: TIMEOUT });
    await measure('pull, SIGTERM while a server never answers (--timeout 60000)', ['pull', '--base-url', `${stalls.url}/silent`, '--out', 'out', '--timeout', '60000'], { budget: 0, signalAt: 1_500 });

    const PROXIES = [
      ['closes every connection at once', (socket) => socket.destroy()],
      ['reads the CONNECT, then closes', (socket) => socket.once('data', () => socket.destroy())],
      ['answers 200 to CONNECT, then closes', (socket) => socket.once('data', () => socket.end('HTTP/1.1 200 Connection Established\r\n\r\n'))],
      ['answers 502 to CONNECT', (socket) => socket.once('data', () => socket.end('HTTP/1.1 502 Bad Gateway\r\ncontent-length: 0\r\n\r\n'))],
      ['answers 407 to CONNECT', (socket) => socket.once('data', () => socket.end('HTTP/1.1 407 Proxy Authentication Required\r\nproxy-authenticate: Basic\r\ncontent-length: 0\r\n\r\n'))],
      ['never answers', () => undefined],
    ];
    for (const [name, behaviour] of PROXIES) {
      proxyBehaviour = behaviour;
      const env = { HTTP_PROXY: proxy.url, HTTPS_PROXY: proxy.url };
      await measure(`pull: a proxy that ${name}`, net(reference.url), { budget: TIMEOUT, env });
      // Three tries, and the longest backoff before the second and third (500 ms, then 1 s).
      await measure(`pull --retries 2: a proxy that ${name}`, net(reference.url, 2), { budget: 3 * TIMEOUT + 1_500, env });
    }
    // Issue 42, item 16: a 407 in schema-sync's words, the proxy named without its user or password.
    const PROXY_PASSWORD = 'pr0xy-Pa55word';
    const wordsOf407 = [];
    for (const credentials of ['', `jdoe:${PROXY_PASSWORD}@`]) {
      proxyBehaviour = PROXIES.find(([name]) => name === 'answers 407 to CONNECT')[1];
      const url = `http://${credentials}${new URL(proxy.url).host}`;
      const run = await tally.start('budgets: a proxy 407, its words', net(reference.url, 2), { cwd: template, env: { SCHEMA_SYNC_CACHE_DIR: 'off', HTTP_PROXY: url, HTTPS_PROXY: url } }).done;
      wordsOf407.push({ own: run.stderr.includes('wants authentication') && !/Tunneling|!==/.test(run.stderr), leaks: run.stderr.includes(PROXY_PASSWORD) || run.stdout.includes(PROXY_PASSWORD) || run.stderr.includes('jdoe') });
    }
    proxyBehaviour = () => undefined;
    for (const [name, value] of [['without a scheme', `127.0.0.1:${new URL(proxy.url).port}`], ['that is not a URL', 'http://[proxy']]) {
      await measure(`pull: HTTP(S)_PROXY ${name}`, net(reference.url), { budget: TIMEOUT, env: { HTTP_PROXY: value, HTTPS_PROXY: value } });
    }

    const wait = (command) => [command, ...(command === 'generate' ? [] : ['--base-url', reference.url]), '--out', 'out', '--lock-wait', String(LOCK_WAIT)];
    const LOCKS = [
      ['held by a live run', (dir) => writeFile(join(dir, 'out', RUN_LOCK), `${process.pid}@${hostname()}`)],
      ['a dangling symbolic link', (dir) => symlink(join(dir, 'nowhere'), join(dir, 'out', RUN_LOCK))],
      ['a symbolic link to a file outside', async (dir) => {
        await writeFile(join(dir, 'outside.txt'), 'precious\n');
        await symlink(join(dir, 'outside.txt'), join(dir, 'out', RUN_LOCK));
      }],
      ['a folder', (dir) => mkdir(join(dir, 'out', RUN_LOCK))],
      ['empty (a run writing it, or one killed then)', (dir) => writeFile(join(dir, 'out', RUN_LOCK), '')],
    ];
    for (const [name, arrange] of LOCKS) {
      for (const command of ['generate', 'pull']) await measure(`${command}: a run lock ${name}`, wait(command), { budget: LOCK_WAIT, arrange });
    }
    // Issue 42, item 9: the lockfile's own lock, beside it.
    const LOCKFILE_LOCKS = [
      ['held by a live run', (dir) => writeFile(join(dir, LOCKFILE_LOCK), `${process.pid}@${hostname()}`)],
      ['a symbolic link to a file outside', async (dir) => {
        await writeFile(join(dir, 'outside.txt'), 'precious\n');
        await symlink(join(dir, 'outside.txt'), join(dir, LOCKFILE_LOCK));
      }],
      ['a folder', (dir) => mkdir(join(dir, LOCKFILE_LOCK))],
      ['empty (a run writing it, or one killed then)', (dir) => writeFile(join(dir, LOCKFILE_LOCK), '')],
    ];
    for (const [name, arrange] of LOCKFILE_LOCKS) {
      for (const command of ['generate', 'pull']) await measure(`${command}: a lockfile lock ${name}`, wait(command), { budget: LOCK_WAIT, arrange });
    }
    const nobody = nobodyCanRun();
    if (nobody.ok) {
      const unreadable = (dir) => writeFile(join(dir, 'out', RUN_LOCK), '1@elsewhere', { mode: 0o600 });
      for (const command of ['generate', 'pull']) await measure(`${command} as nobody: a run lock root left (0600)`, wait(command), { budget: LOCK_WAIT, arrange: unreadable, asNobody: true });
    } else skipped.push(`a run lock root left, run as nobody: ${nobody.reason}`);
    await measure('generate, SIGTERM while waiting for a held run lock (--lock-wait 60000)', ['generate', '--out', 'out', '--lock-wait', '60000'], {
      budget: 0,
      signalAt: 1_500,
      arrange: (dir) => writeFile(join(dir, 'out', RUN_LOCK), `${process.pid}@${hostname()}`),
    });

    const median = startUp.sort((a, b) => a - b)[1];
    const longest = results.reduce((a, b) => (b.overrun > a.overrun ? b : a));
    const proxied = results.filter((r) => r.name.includes('a proxy that'));
    const busiest = proxied.reduce((a, b) => (b.connections > a.connections ? b : a));
    console.log(`budgets: ${results.length} runs with a --timeout ${TIMEOUT} ms, a --lock-wait ${LOCK_WAIT} ms or a SIGTERM to keep${skipped.length ? ` (${skipped.length} skipped)` : ''}; start-up alone (--version) ${median} ms`);
    for (const reason of skipped) console.log(`  skipped: ${reason}`);
    console.log(`  longest run past its budget: ${longest.overrun} ms, ${longest.overrun - median} ms beyond the start-up (${longest.name}: ${longest.wall} ms for ${longest.budget}, exit ${longest.exit})`);
    console.log(`  runs that did not end within their budget and ${GRACE_MS / 1000} s more (killed): ${results.filter((r) => r.exit.startsWith('killed')).length}`);
    console.log(`  most connections one pull opened to a proxy: ${busiest.connections} (${busiest.name})`);
    console.log(`  a proxy's 407 (without and with a user and password in the proxy URL): in schema-sync's words ${wordsOf407.filter((w) => w.own).length} of ${wordsOf407.length}, the proxy's user or password shown ${wordsOf407.filter((w) => w.leaks).length}`);
    for (const r of options.verbose ? results : []) console.log(`  ${r.name}: ${r.wall} ms for ${r.budget} (${r.overrun >= 0 ? '+' : ''}${r.overrun}), exit ${r.exit}${r.name.includes('proxy that') ? `, ${r.connections} connections` : ''}`);
  } finally {
    await Promise.all([reference.close(), stalls.close(), deaf.close(), proxy.close()]);
    await rm(template, { recursive: true, force: true });
  }
}

/** The stalling server's answers, by path: never anything, headers only, or a byte every 200 ms. */
function stall(request, response) {
  const path = new URL(request.url ?? '/', 'http://stall.invalid').pathname;
  if (path.startsWith('/silent')) return;
  response.writeHead(200, { 'content-type': 'application/json' });
  if (path.startsWith('/headers')) return void response.flushHeaders();
  response.write('[');
  const timer = setInterval(() => response.write(' '), 200);
  response.on('close', () => clearInterval(timer));
}

/** Listens on loopback; `close()` drops every connection. */
async function listen(server, scheme) {
  const sockets = new Set();
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `${scheme}://127.0.0.1:${server.address().port}`,
    close: () => {
      for (const socket of sockets) socket.destroy();
      return new Promise((resolve) => server.close(resolve));
    },
  };
}
