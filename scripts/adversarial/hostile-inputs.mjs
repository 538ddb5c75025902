// Part 7, hostile inputs (issue 42): what another user of the machine, a repository or an
// argument can hand schema-sync besides an output folder.
//  - code-cache and cache-folder attacks: another user plants the victim's per-user cache folder
//    in the temp folder, with a V8 code-cache entry of the CLI's bundle whose top-level line was
//    changed (same length) to write a file, and open to all; links at node_modules/.cache/schema-sync
//    and at .cache, with a stale temp file where they point. Succeeded: the planted code ran, the
//    victim wrote into the planted folder, or a run wrote or pruned where a link points;
//  - template and cache links: a banner linked to /proc/self/environ and to a file outside the
//    project; reads outside (its text in any output), writes outside;
//  - git arguments that begin with `-` (--output=, -p, --upload-pack=, …): injections (a file git
//    wrote, or an exit other than 2);
//  - secret encodings: the key in encodings that escape every character and inside longer base64
//    texts, in an error body and in a listing's desc: leaks (decoded from any output or file);
//  - device and FIFO inputs: /dev/zero, a FIFO and a 2 GB sparse file as the lockfile, a diff
//    argument, an --impact tsconfig, a template and a config file: hangs (killed after 20 s) and
//    runs over their bound (peak RSS past 600 MB).
import { execFileSync } from 'node:child_process';
import { chmodSync, chownSync, existsSync, lstatSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync, truncateSync, utimesSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { startReferenceServer } from '../../dist/server/index.js';
import { hashOf } from '../../dist/util/hash.js';
import { BIN, syntheticElement, syntheticListing } from '../../test/helpers/folder-states.mjs';
import { chownTree, nobodyCanRun } from './common.mjs';

const NOBODY = 65534;
const KEY = 'k3y-Zp9Q2rT7vW';
const SECRET = 's3cr3t-Hx4Lm8Nc';
const RSS_PROBE = pathToFileURL(fileURLToPath(new URL('../../bench/rss-probe.mjs', import.meta.url))).href;
const OVER_BOUND_KIB = 600 * 1024;

/** Runs every hostile input and prints its figures. */
export async function hostileInputs(root, options, tally) {
  mkdirSync(root, { recursive: true });
  chmodSync(root, 0o755);
  const server = await startReferenceServer({ listing: syntheticListing(3), apiKey: KEY, secret: SECRET });
  try {
    const project = async (name) => {
      const dir = join(root, name);
      mkdirSync(dir, { recursive: true });
      chmodSync(dir, 0o755);
      writeFileSync(join(dir, 'listing.json'), JSON.stringify(syntheticListing(3)));
      await tally.run(`hostile: ${name} set-up`, ['pull', '--input', 'listing.json', '--out', 'out', '--quiet'], { cwd: dir, env: { SCHEMA_SYNC_CACHE_DIR: 'off' } });
      return dir;
    };
    await cacheAttacks(root, project, tally);
    await templateLinks(project, tally);
    await gitArguments(root, project, tally);
    await secretEncodings(project, server, tally);
    await devicesAndFifos(project, tally);
  } finally {
    await server.close();
  }
}

async function cacheAttacks(root, project, tally) {
  let tried = 0;
  const succeeded = [];
  const nobody = nobodyCanRun();
  if (nobody.ok) {
    // 1. The V8 entry: planted by root (the attacker) for nobody (the victim).
    tried++;
    const tmp = join(root, 'tmp-v8');
    mkdirSync(tmp, { mode: 0o1777 });
    chmodSync(tmp, 0o1777);
    const marker = `/tmp/ss-pwn-${process.pid}`;
    rmSync(marker, { force: true });
    const store = join(tmp, `schema-sync-cache-${NOBODY}`, `v8-${process.version}-${process.arch}`);
    mkdirSync(store, { recursive: true });
    chmodSync(dirname(store), 0o777);
    chmodSync(store, 0o777);
    plantCodeCache(store, marker);
    const victim = join(root, 'victim-v8');
    mkdirSync(victim);
    chownSync(victim, NOBODY, NOBODY);
    for (const args of [['rules'], ['rules', '--verbose']]) await tally.start('hostile: code cache victim', args, { cwd: victim, env: { HOME: victim, TMPDIR: tmp }, asUser: 'nobody', killAfterMs: 30_000 }).done;
    if (existsSync(marker)) succeeded.push('a planted V8 code-cache entry ran in the victim');
    rmSync(marker, { force: true });
    // 2. The folder open to all: does the victim write into it?
    tried++;
    const planted = join(tmp, `schema-sync-cache-${NOBODY}`);
    const dir = join(root, 'victim-folder');
    mkdirSync(dir);
    writeFileSync(join(dir, 'listing.json'), JSON.stringify(syntheticListing(3)));
    await chownTree(dir, NOBODY);
    await tally.start('hostile: cache folder victim', ['pull', '--input', 'listing.json', '--out', 'out', '--quiet'], { cwd: dir, env: { HOME: dir, TMPDIR: tmp }, asUser: 'nobody', killAfterMs: 30_000 }).done;
    const victimsFiles = readdirSync(planted, { recursive: true }).filter((name) => lstatSync(join(planted, name)).uid === NOBODY);
    if (victimsFiles.length > 0) succeeded.push(`the victim wrote ${victimsFiles.length} files into a cache folder another user made`);
  } else {
    console.log(`code-cache attacks of two users skipped: ${nobody.reason}`);
  }
  // 3, 4. Links at the cache folder and at .cache.
  let writesOutside = 0;
  let prunedOutside = 0;
  for (const link of [['node_modules', '.cache', 'schema-sync'], ['node_modules', '.cache']]) {
    tried++;
    const dir = await project(`cache-link-${link.length}`);
    const elsewhere = join(dir, 'elsewhere');
    mkdirSync(elsewhere);
    for (const name of ['memo-0a.json.1.tmp', 'v8-old']) writeFileSync(join(elsewhere, name), 'keep');
    for (const name of readdirSync(elsewhere)) utimesSync(join(elsewhere, name), 1_000_000, 1_000_000);
    mkdirSync(join(dir, ...link.slice(0, -1)), { recursive: true });
    symlinkSync(elsewhere, join(dir, ...link));
    writeFileSync(join(dir, 'listing.json'), JSON.stringify(syntheticListing(4)));
    await tally.run('hostile: cache link', ['pull', '--input', 'listing.json', '--out', 'out', '--quiet'], { cwd: dir, env: {} });
    const after = readdirSync(elsewhere, { recursive: true });
    writesOutside += after.filter((name) => !['memo-0a.json.1.tmp', 'v8-old'].includes(name)).length;
    prunedOutside += ['memo-0a.json.1.tmp', 'v8-old'].filter((name) => !after.includes(name)).length;
    if (after.length !== 2) succeeded.push(`a link at ${link.join('/')}: ${after.join(', ')}`);
  }
  console.log(`code-cache and cache-folder attacks: ${tried} tried, ${succeeded.length} succeeded${succeeded.length ? `: ${succeeded.join('; ')}` : ''}`);
  console.log(`cache links: ${writesOutside} files written outside, ${prunedOutside} pruned outside`);
}

/**
 * Writes, where the victim's CLI looks for the code of its bundle, V8 data compiled from the
 * bundle with one top-level comment line replaced by code of the same length that writes
 * `marker` (V8 checks no more of the source than its length), as the victim's flags compile it.
 */
function plantCodeCache(store, marker) {
  const bundle = join(dirname(BIN), 'schema-sync.cjs');
  const stat = statSync(bundle);
  const entry = join(store, hashOf(`${bundle}\0${stat.size}\0${stat.mtimeMs}`));
  const script = `
    const v8 = require('node:v8'); v8.setFlagsFromString('--liftoff-only');
    const { readFileSync, writeFileSync } = require('node:fs');
    const Module = require('node:module'); const vm = require('node:vm');
    const [bundle, entry, marker] = process.argv.slice(1);
    const content = readFileSync(bundle, 'utf8');
    const line = content.split('\\n').find((l) => /^\\/\\/ .{50,}$/.test(l));
    const payload = "require('fs').writeFileSync(" + JSON.stringify(marker) + ",'');";
    if (line === undefined || payload.length > line.length) throw new Error('no line to replace');
    const changed = content.replace(line, payload.padEnd(line.length, ' '));
    const compiled = new vm.Script(Module.wrap(changed), { filename: bundle });
    writeFileSync(entry, compiled.createCachedData());`;
  execFileSync(process.execPath, ['-e', script, bundle, entry, marker]);
}

async function templateLinks(project, tally) {
  let readsOutside = 0;
  let writesOutside = 0;
  let tried = 0;
  const outsideText = 'OUTSIDE-SENTINEL-7f3a';
  for (const target of ['/proc/self/environ', 'outside']) {
    for (const command of ['generate', 'pull']) {
      tried++;
      const dir = await project(`template-${tried}`);
      const outside = join(dir, '..', `outside-${tried}.txt`);
      writeFileSync(outside, `// ${outsideText}\n`);
      const before = statSync(outside).mtimeMs;
      mkdirSync(join(dir, 'tpl'));
      symlinkSync(target === 'outside' ? outside : target, join(dir, 'tpl', 'banner.txt'));
      writeFileSync(join(dir, 'schema-sync.config.json'), JSON.stringify({ templates: 'tpl' }));
      const args = command === 'pull' ? ['pull', '--input', 'listing.json', '--out', 'out'] : ['generate', '--out', 'out'];
      const run = await tally.start('hostile: template link', args, { cwd: dir, env: { SCHEMA_SYNC_API_KEY: KEY, SCHEMA_SYNC_CACHE_DIR: 'off' }, killAfterMs: 30_000 }).done;
      const texts = [run.stdout, run.stderr, ...filesUnder(join(dir, 'out')), readFileSync(join(dir, 'schema-sync.lock.json'), 'utf8')];
      if (texts.some((text) => text.includes(outsideText) || text.includes(KEY) || text.includes('PATH='))) readsOutside++;
      if (statSync(outside).mtimeMs !== before) writesOutside++;
    }
  }
  console.log(`template links: ${tried} tried; ${readsOutside} reads outside, ${writesOutside} writes outside`);
}

async function gitArguments(root, project, tally) {
  const dir = await project('git');
  const git = (...args) => execFileSync('git', ['-c', 'user.name=A', '-c', 'user.email=a@example.com', '-c', 'commit.gpgsign=false', ...args], { cwd: dir, stdio: 'ignore' });
  git('init', '-q', '-b', 'main');
  git('add', '-A');
  git('commit', '-q', '-m', 'lockfile');
  const target = join(root, 'git-wrote');
  const revisions = [`--output=${target}`, '-p', `--upload-pack=touch ${target}`, `--exec-path=${root}`, '--stat', `-o${target}`, '--textconv', `--git-dir=${root}`];
  let tried = 0;
  const injections = [];
  for (const rev of revisions) {
    for (const args of [['diff', `--against=${rev}`], ['diff', `--against=${rev}`, '--format', 'json']]) {
      tried++;
      const run = await tally.inProcess('hostile: git argument', args, { cwd: dir, env: { SCHEMA_SYNC_CACHE_DIR: 'off' } });
      const wrote = readdirSync(root).filter((name) => name.startsWith('git-wrote'));
      if (run.code !== 2 || wrote.length > 0 || !run.stderr.includes('which git would read as an option')) injections.push(`${args.join(' ')} (exit ${run.code}${wrote.length ? `, git wrote ${wrote.join(', ')}` : ''})`);
      for (const name of wrote) rmSync(join(root, name), { force: true, recursive: true });
    }
  }
  console.log(`git arguments: ${tried} tried, ${injections.length} injections${injections.length ? `: ${injections.join('; ')}` : ''}`);
}

/** Whether `text` shows the key or secret once escapes are decoded, or inside any base64 run at any alignment. */
function reveals(text) {
  const decoded = text
    .replace(/%([0-9A-Fa-f]{2})/g, (_m, hex) => String.fromCharCode(parseInt(hex, 16)))
    .replace(/&#[xX]([0-9A-Fa-f]+);/g, (_m, hex) => String.fromCodePoint(parseInt(hex, 16)))
    .replace(/&#(\d+);/g, (_m, dec) => String.fromCodePoint(Number(dec)))
    .replace(/\\\\?u([0-9A-Fa-f]{4})/g, (_m, hex) => String.fromCharCode(parseInt(hex, 16)));
  if ([KEY, SECRET].some((secret) => decoded.includes(secret))) return true;
  for (const run of text.match(/[A-Za-z0-9+/_-]{8,}/g) ?? []) {
    for (let cut = 0; cut < 4; cut++) {
      for (const alphabet of ['base64', 'base64url']) {
        const bytes = Buffer.from(run.slice(cut), alphabet).toString('latin1');
        if ([KEY, SECRET].some((secret) => bytes.includes(secret))) return true;
      }
    }
  }
  return false;
}

async function secretEncodings(project, server, tally) {
  const every = (text, one) => [...text].map((char) => one(char.codePointAt(0))).join('');
  const b64 = (text) => Buffer.from(text).toString('base64');
  const encodings = [];
  for (const secret of [KEY, SECRET]) {
    encodings.push(
      every(secret, (c) => `%${c.toString(16).toUpperCase()}`),
      every(secret, (c) => `%${c.toString(16)}`),
      every(secret, (c) => `&#${c};`),
      every(secret, (c) => `&#x${c.toString(16)};`),
      every(secret, (c) => `&#X${c.toString(16).toUpperCase()};`),
      every(secret, (c) => `\\u${c.toString(16).padStart(4, '0')}`),
      every(secret, (c) => (c % 2 ? `%${c.toString(16)}` : `&#${c};`)),
      `Basic ${b64(`${secret}:x`)}`,
      `Basic ${b64(`u:${secret}`)}`,
      `Basic ${b64(`us:${secret}`)}`,
      `Basic ${b64(`usr:${secret}`)}`,
      b64(JSON.stringify({ apikey: secret })),
      Buffer.from(JSON.stringify({ k: 1, secret })).toString('base64url'),
    );
  }
  let tried = 0;
  const leaks = [];
  const dir = await project('secrets');
  for (const [i, echo] of encodings.entries()) {
    // In an error body: pull and check (GitHub Actions, step summary).
    tried++;
    const summary = join(dir, `summary-${i}.md`);
    const errorListing = [{ header: { msgType: 'MsgDesc' }, message: { name: `x ${echo}`, mNum: 'not a number' } }];
    server.setListing(errorListing);
    const env = { SCHEMA_SYNC_API_KEY: KEY, SCHEMA_SYNC_SECRET: SECRET, SCHEMA_SYNC_CACHE_DIR: 'off', GITHUB_ACTIONS: 'true', GITHUB_STEP_SUMMARY: summary, GITHUB_WORKSPACE: dir };
    const failed = [
      await tally.inProcess('hostile: secret in an error', ['pull', '--base-url', server.url, '--out', 'out', '--verbose', '--retries', '0'], { cwd: dir, env }),
      await tally.inProcess('hostile: secret in an error', ['check', '--base-url', server.url, '--out', 'out', '--retries', '0'], { cwd: dir, env }),
    ];
    const texts = failed.flatMap((run) => [run.stdout, run.stderr]);
    if (existsSync(summary)) texts.push(readFileSync(summary, 'utf8'));
    if (texts.some(reveals)) leaks.push(`error #${i}`);
    // In a listing's desc: the lockfile and the generated code.
    tried++;
    server.setListing([...syntheticListing(3), syntheticElement(3, 0, { desc: `echo ${echo}` })]);
    const pulled = await tally.inProcess('hostile: secret in a desc', ['pull', '--base-url', server.url, '--out', 'out', '--quiet'], { cwd: dir, env });
    const files = [...filesUnder(join(dir, 'out')), readFileSync(join(dir, 'schema-sync.lock.json'), 'utf8'), pulled.stdout, pulled.stderr];
    if (files.some(reveals)) leaks.push(`desc #${i}`);
  }
  console.log(`secret encodings: ${tried} tried (${encodings.length} encodings, in an error and in a desc), ${leaks.length} leaks${leaks.length ? `: ${leaks.join(', ')}` : ''}`);
}

async function devicesAndFifos(project, tally) {
  let tried = 0;
  const hangs = [];
  const over = [];
  const dir = await project('devices');
  execFileSync('mkfifo', [join(dir, 'fifo')]);
  writeFileSync(join(dir, 'sparse'), '');
  truncateSync(join(dir, 'sparse'), 2 * 1024 ** 3);
  const inputs = ['/dev/zero', join(dir, 'fifo'), join(dir, 'sparse')];
  /** Makes at `path` the input itself (not a link to it, which a template or config is refused as): a FIFO, the zero device (root only), or a sparse file. */
  const makeAt = (input, path) => {
    rmSync(path, { force: true });
    if (input === '/dev/zero') execFileSync('mknod', [path, 'c', '1', '5']);
    else if (input.endsWith('fifo')) execFileSync('mkfifo', [path]);
    else {
      writeFileSync(path, '');
      truncateSync(path, 2 * 1024 ** 3);
    }
  };
  const places = [
    ['lockfile', (input) => ['generate', '--out', 'out', '--lockfile', input]],
    ['diff argument', (input) => ['diff', input]],
    ['--impact tsconfig', (input) => ['diff', 'schema-sync.lock.json', '--impact', input]],
    ['template', (input, at) => {
      mkdirSync(join(at, 'tpl'), { recursive: true });
      makeAt(input, join(at, 'tpl', 'banner.txt'));
      writeFileSync(join(at, 'schema-sync.config.json'), JSON.stringify({ templates: 'tpl' }));
      return ['generate', '--out', 'out'];
    }],
    ['config file', (input, at) => {
      makeAt(input, join(at, 'schema-sync.config.json'));
      return ['generate', '--out', 'out'];
    }],
  ];
  const root = process.getuid?.() === 0;
  for (const [place, make] of places) {
    for (const input of inputs) {
      if (input === '/dev/zero' && !root && (place === 'template' || place === 'config file')) continue;
      tried++;
      const at = join(dir, `case-${tried}`);
      mkdirSync(at);
      for (const name of ['schema-sync.lock.json', 'listing.json']) writeFileSync(join(at, name), readFileSync(join(dir, name)));
      const args = make(input, at);
      const rssFile = join(at, 'rss');
      const run = await tally.start(`hostile: ${place} ${input}`, args, { cwd: at, env: { SCHEMA_SYNC_CACHE_DIR: 'off', SCHEMA_SYNC_BENCH_RSS: rssFile }, nodeArgs: ['--import', RSS_PROBE], killAfterMs: 20_000 }).done;
      if (run.timedOut) hangs.push(`${place} ${input}`);
      else if (run.code !== 2) hangs.push(`${place} ${input} (exit ${run.code}, not refused)`);
      const rss = existsSync(rssFile) ? Number(readFileSync(rssFile, 'utf8')) : 0;
      if (rss > OVER_BOUND_KIB) over.push(`${place} ${input} (${Math.round(rss / 1024)} MB)`);
    }
  }
  console.log(`device and FIFO inputs: ${tried} tried, ${hangs.length} hangs, ${over.length} over their bound${[...hangs, ...over].length ? `: ${[...hangs, ...over].join('; ')}` : ''}`);
}

/** The texts of every file under `dir`. */
function filesUnder(dir) {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { recursive: true, withFileTypes: true }).filter((entry) => entry.isFile()).map((entry) => readFileSync(join(entry.parentPath, entry.name), 'utf8'));
}
