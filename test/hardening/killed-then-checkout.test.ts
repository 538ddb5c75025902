/**
 * Issue 42, item 18: a pull killed (SIGKILL) while it moves its files in, then a checkout of
 * another branch's lockfile. The journal was made from the lockfile before the checkout, so the
 * next run discards it rather than replay it over another state; the files the killed run had
 * moved in stay behind, untracked. No manifest names them, but they carry schema-sync's banner:
 * `check` reports each as stale ("extra"), and the next writing run deletes them.
 */
import { existsSync } from 'node:fs';
import { copyFile, mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { messageText } from '../../src/model/message.js';
import { recoverPending, TXN_DIR } from '../../src/write/index.js';
import { readTree, removeDir, tempDir } from '../helpers/cli.js';
import { runCli } from '../helpers/in-process.js';
import { startCli, syntheticElement, syntheticListing } from './helpers.js';

const KILL_AT = fileURLToPath(new URL('./kill-at.mjs', import.meta.url));
/** Types on both branches; the killed pull adds as many again. */
const TYPES = 30;

let dir: string;
const out = () => join(dir, 'out');
const lockfile = () => join(dir, 'schema-sync.lock.json');
beforeAll(async () => {
  dir = await tempDir('schema-sync-killed-checkout-');
}, 60_000);
afterAll(() => removeDir(dir));

it('check reports the files a killed run left as stale once its journal is discarded, and the next run deletes them', async () => {
  const listing = (name: string, elements: unknown[]) => writeFile(join(dir, name), JSON.stringify(elements));
  await listing('main.json', syntheticListing(TYPES));
  // The other branch's listing: one type's schema changed.
  await listing('other.json', [syntheticElement(0, 1), ...syntheticListing(TYPES).slice(1)]);
  await listing('added.json', [...syntheticListing(TYPES), ...Array.from({ length: TYPES }, (_, i) => syntheticElement(TYPES + i))]);
  const pull = (input: string) => ['pull', '--input', input, '--out', 'out', '--quiet'];

  // The other branch's lockfile, as a checkout would bring it.
  await mkdir(join(dir, 'other'));
  await copyFile(join(dir, 'other.json'), join(dir, 'other', 'other.json'));
  expect((await runCli(pull('other.json'), { cwd: join(dir, 'other') })).code).toBe(0);
  expect((await runCli(pull('main.json'), { cwd: dir })).code).toBe(0);
  const before = await readTree(out());

  // A pull that adds 30 types, killed after it moved 10 of its prepared files into the folder.
  const env = { KILL_AT_ROOT: dir, KILL_AT: JSON.stringify([{ op: 'renameSync', path: `^out/\\${TXN_DIR}/files/messages/`, n: 10 }]), KILL_AT_SIGNAL: 'SIGKILL' };
  const killed = await startCli(pull('added.json'), { cwd: dir, nodeArgs: ['--import', KILL_AT], env }).done;
  expect(killed.signal, killed.stderr).toBe('SIGKILL');
  expect(existsSync(join(out(), TXN_DIR, 'journal.json'))).toBe(true);
  const left = [...(await readTree(out())).keys()].filter((path) => !before.has(path) && !path.startsWith('.schema-sync')).sort();
  // (The run lock it left is taken over by the next run: its process is gone.)
  expect(left).toHaveLength(10);

  // git checkout other: the lockfile (tracked) changes; the output's new files (untracked) stay.
  await copyFile(join(dir, 'other', 'schema-sync.lock.json'), lockfile());
  const warnings: string[] = [];
  expect(await recoverPending(out(), lockfile(), (text) => warnings.push(messageText(text)))).toBe('discarded');
  expect(warnings.join('\n')).toMatch(/was made from another state of the lockfile \(e\.g\. before a git checkout\): discarded, not replayed/);
  for (const path of left) expect(existsSync(join(out(), path)), path).toBe(true);

  const check = await runCli(['check', '--input', 'other.json', '--out', 'out', '--format', 'json'], { cwd: dir });
  expect(check.code, check.stderr).toBe(1);
  const stale = (JSON.parse(check.stdout) as { staleFiles: Array<{ path: string; reason: string }> }).staleFiles;
  for (const path of left) expect(stale, path).toContainEqual({ path, reason: 'extra' });

  // The next writing run deletes them (they still hold the bytes they were judged by); then the folder is in sync.
  expect((await runCli(['generate', '--out', 'out', '--quiet'], { cwd: dir })).code).toBe(0);
  for (const path of left) expect(existsSync(join(out(), path)), path).toBe(false);
  const again = await runCli(['check', '--input', 'other.json', '--out', 'out', '--format', 'json'], { cwd: dir });
  expect(again.code, again.stdout).toBe(0);
}, 120_000);
