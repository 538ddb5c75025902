// Part 4, planted folders: each hostile output folder of planted-cases.mjs meets `generate`,
// `pull` and `check`, each on a fresh copy of the project. Nothing found in the output folder may
// make schema-sync read, move or delete anything outside what it generated: a sentinel folder
// beside the project and the home folder are fingerprinted before and after (and their access
// times watched, for reads), and so are the hand-made files in the output folder.
import { cp, mkdir, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { startReferenceServer } from '../../dist/server/index.js';
import { syntheticElement, syntheticListing } from '../../test/helpers/folder-states.mjs';
import { changedPaths, chownTree, errorCode, fingerprint, nobodyCanRun, readSince, watchReads } from './common.mjs';
import { CASES, HAND_FILES, SENTINEL_FILES } from './planted-cases.mjs';

const KILL_AT = pathToFileURL(fileURLToPath(new URL('../../test/hardening/kill-at.mjs', import.meta.url))).href;
const NOBODY = 65534;
/** Long enough for any honest run here; a run still going then is a spin. */
const KILL_AFTER_MS = 30_000;
const LOCK_WAIT = '3000';
/** What git leaves in the output folder on a checkout: what it does not track. */
const UNTRACKED = ['.schema-sync-txn', '.schema-sync-run.lock'];

/** Runs every case with every command and prints what was touched, by whom. */
export async function planted(root, options, tally) {
  await mkdir(root, { recursive: true });
  const main = syntheticListing(40);
  // What pull and check meet: one type changed, one removed.
  const changed = main.slice(0, 39).map((element, i) => (i === 0 ? syntheticElement(0, 1) : element));
  const server = await startReferenceServer({ listing: main });
  const nobody = nobodyCanRun();
  const template = join(root, 'template');
  try {
    await mkdir(template);
    await tally.run('planted: template pull', ['pull', '--base-url', server.url, '--out', 'out', '--quiet'], { cwd: template, env: { SCHEMA_SYNC_CACHE_DIR: 'off' } });
    for (const [path, text] of Object.entries(HAND_FILES)) {
      await mkdir(join(template, 'out', path, '..'), { recursive: true });
      await writeFile(join(template, 'out', path), text);
    }
    server.setListing(changed);
    const commands = [
      ['generate', '--out', 'out', '--lock-wait', LOCK_WAIT],
      ['pull', '--base-url', server.url, '--out', 'out', '--lock-wait', LOCK_WAIT],
      ['check', '--base-url', server.url, '--out', 'out'],
    ];
    const faults = [];
    const skipped = [];
    const exits = new Map();
    let tried = 0;
    let runs = 0;
    let caseNumber = 0;
    for (const [name, spec] of CASES) {
      caseNumber++;
      if (spec.asNobody && !nobody.ok) {
        skipped.push(`${name}: ${nobody.reason}`);
        continue;
      }
      tried++;
      const outcomes = [];
      for (const args of commands) {
        const dir = join(root, `case-${caseNumber}-${args[0]}`);
        const ctx = await setUp(dir, template);
        ctx.feat = () => featJournal(ctx, server, main, changed, tally);
        if (spec.asNobody) await chownTree(dir, NOBODY);
        await spec.plant(ctx);
        const before = { outside: await outside(ctx), hand: await handFiles(ctx) };
        const watched = await watchReads([ctx.sentinel, ctx.home]);
        const env = { HOME: ctx.home, SCHEMA_SYNC_CACHE_DIR: ctx.cache };
        const label = `planted: ${name}: ${args[0]}`;
        const result = await tally.start(label, [...args, ...(spec.args ?? [])], { cwd: ctx.project, env, asUser: spec.asNobody ? 'nobody' : undefined, killAfterMs: KILL_AFTER_MS }).done;
        runs++;
        const code = errorCode(result.stderr);
        const exit = `${result.timedOut ? 'killed' : result.code}${code ? ` ${code}` : ''}`;
        exits.set(exit, (exits.get(exit) ?? 0) + 1);
        outcomes.push(`${args[0]} ${exit}`);
        const read = (await readSince(watched)).map((path) => path.slice(ctx.dir.length + 1));
        const problems = [
          ...read.map((path) => `read outside: ${path}`),
          ...changedPaths(before.outside, await outside(ctx)).map((path) => `touched outside: ${path}`),
          ...changedPaths(before.hand, await handFiles(ctx)).map((path) => `hand-made file deleted, moved or changed: out/${path}`),
          ...(result.timedOut ? [`still running after ${KILL_AFTER_MS / 1000} s`] : []),
          ...(spec.judge?.(ctx) ?? []),
        ];
        if (problems.length > 0) faults.push({ label, problems, stderr: result.stderr.trim().split('\n').slice(0, 3).join(' / ') });
        await rm(dir, { recursive: true, force: true });
      }
      if (options.verbose) console.log(`  ${name}: ${outcomes.join(', ')}`);
    }
    const outsideTouched = faults.flatMap((f) => f.problems.filter((p) => p.startsWith('touched outside')));
    const handTouched = faults.flatMap((f) => f.problems.filter((p) => p.startsWith('hand-made')));
    const readOutside = faults.flatMap((f) => f.problems.filter((p) => p.startsWith('read outside')));
    const other = faults.reduce((n, f) => n + f.problems.length, 0) - outsideTouched.length - handTouched.length - readOutside.length;
    console.log(`planted folders: ${tried} cases tried${skipped.length ? ` (${skipped.length} skipped)` : ''}, ${runs} runs (generate, pull and check, each on a fresh copy)`);
    for (const reason of skipped) console.log(`  skipped: ${reason}`);
    console.log(`  files touched outside the output folder (a sentinel folder beside the project, the home folder): ${outsideTouched.length}`);
    console.log(`  files and folders read or listed outside the output folder (by their access times): ${readOutside.length}`);
    console.log(`  hand-made files in the output folder deleted, moved or changed: ${handTouched.length}`);
    console.log(`  other faults (another branch's journal replayed, a lockfile that does not parse, a run past ${KILL_AFTER_MS / 1000} s): ${other}`);
    console.log(`  exits: ${[...exits].sort().map(([exit, n]) => `${exit} ×${n}`).join(', ')}`);
    for (const fault of faults) {
      const shown = fault.problems.length > 4 ? [...fault.problems.slice(0, 3), `and ${fault.problems.length - 3} more`] : fault.problems;
      console.log(`  FAULT ${fault.label}: ${shown.join('; ')} (stderr: ${fault.stderr || 'empty'})`);
    }
  } finally {
    await server.close();
    await rm(template, { recursive: true, force: true });
  }
}

/** A fresh copy of the template project in `dir`, with a sentinel folder and a home folder beside it. */
async function setUp(dir, template) {
  const ctx = { dir, project: join(dir, 'project'), sentinel: join(dir, 'sentinel'), home: join(dir, 'home'), cache: join(dir, 'cache') };
  ctx.out = join(ctx.project, 'out');
  ctx.lockfile = join(ctx.project, 'schema-sync.lock.json');
  await cp(template, ctx.project, { recursive: true, verbatimSymlinks: true });
  for (const [path, text] of Object.entries(SENTINEL_FILES)) {
    await mkdir(join(ctx.sentinel, path, '..'), { recursive: true });
    await writeFile(join(ctx.sentinel, path), text);
  }
  await mkdir(join(ctx.home, '.ssh'), { recursive: true });
  await writeFile(join(ctx.home, '.ssh', 'id_ed25519'), 'not a real key either\n', { mode: 0o600 });
  await writeFile(join(ctx.home, '.gitconfig'), '[user]\n\tname = someone\n');
  await mkdir(ctx.cache);
  return ctx;
}

/** The fingerprints of everything outside the project that a run must leave alone. */
async function outside(ctx) {
  const [sentinel, home] = await Promise.all([fingerprint(ctx.sentinel), fingerprint(ctx.home)]);
  return new Map([...[...sentinel].map(([path, print]) => [`sentinel/${path}`, print]), ...[...home].map(([path, print]) => [`home/${path}`, print])]);
}

/** The hand-made files of the output folder, by path: their bytes, or missing. */
async function handFiles(ctx) {
  const entries = await Promise.all(Object.keys(HAND_FILES).map(async (path) => [path, await readFile(join(ctx.out, path), 'utf8').catch(() => 'missing')]));
  return new Map(entries);
}

/**
 * Leaves the journal of another branch in the project, as issue 30 item 3 tells: on `feat` (a
 * listing with a type main lacks) a pull is killed right after its commit point; then `git
 * checkout main` puts main's lockfile and generated files back, and the transaction folder,
 * which git does not track, stays.
 */
async function featJournal(ctx, server, main, changed, tally) {
  const feat = [...main, syntheticElement(500, 0, { name: 'FeatOnly' })];
  const env = { HOME: ctx.home, SCHEMA_SYNC_CACHE_DIR: 'off' };
  const pull = ['pull', '--base-url', server.url, '--out', 'out', '--quiet'];
  const saved = { lockfile: await readFile(ctx.lockfile), dir: join(ctx.dir, 'main-out') };
  await cp(ctx.out, saved.dir, { recursive: true });
  try {
    server.setListing(feat);
    await tally.run('planted: feat pull', pull, { cwd: ctx.project, env });
    server.setListing([...feat.slice(1), syntheticElement(501, 0, { name: 'FeatOnlyToo' })]);
    const killAt = { KILL_AT_ROOT: ctx.project, KILL_AT: JSON.stringify([{ op: 'renameSync', path: 'journal\\.json\\.tmp -> ', n: 1 }]), KILL_AT_SIGNAL: 'SIGKILL' };
    const killed = await tally.start('planted: feat pull killed at its commit point', pull, { cwd: ctx.project, env: { ...env, ...killAt }, nodeArgs: ['--import', KILL_AT] }).done;
    if (killed.signal !== 'SIGKILL') throw new Error(`the feat pull was not killed at its commit point: ${killed.code} ${killed.stderr}`);
  } finally {
    server.setListing(changed);
  }
  // git checkout main: the tracked files as main has them; the transaction folder and run lock stay.
  for (const entry of await readdir(ctx.out)) if (!UNTRACKED.includes(entry)) await rm(join(ctx.out, entry), { recursive: true });
  await cp(saved.dir, ctx.out, { recursive: true });
  await writeFile(ctx.lockfile, saved.lockfile);
  await rm(saved.dir, { recursive: true });
}
