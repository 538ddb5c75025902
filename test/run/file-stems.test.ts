/**
 * A type keeps its module's file when a pull adds a type whose name differs from its only by
 * case (issue 30 item 10): the newcomer gets the suffixed file name, the report says so, the
 * lockfile records the stems, and `generate` from that lockfile alone gives the same bytes.
 */
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { renderReport, type DriftReport } from '../../src/diff/index.js';
import { readTree, ROOT } from '../helpers/cli.js';
import { validateJson } from '../helpers/json-schema.js';
import { runCli } from '../helpers/in-process.js';
import { wireElement } from '../helpers/listing.js';

const foo = wireElement({ name: 'Foo', mNum: 1, schemaHash: 'AAAA' });
const FOO = wireElement({ name: 'FOO', mNum: 2, schemaHash: 'BBBB' });
const other = wireElement({ name: 'Other', mNum: 3, schemaHash: 'CCCC' });
/** The suffix the naming rule gives a name: `__` and 8 hex digits. */
const SUFFIXED = /^messages\/(FOO|Foo)__[0-9a-f]{8}\.ts$/;

let root: string;
beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'schema-sync-stems-'));
});
afterAll(() => rm(root, { recursive: true, force: true }));

/** A folder of its own with the listings given as files `l0.json`, `l1.json`, … */
async function project(name: string, ...listings: unknown[][]): Promise<string> {
  const dir = join(root, name);
  await mkdir(dir);
  for (const [index, listing] of listings.entries()) await writeFile(join(dir, `l${index}.json`), JSON.stringify(listing));
  return dir;
}

async function pull(dir: string, listing: number, ...args: string[]) {
  const run = await runCli(['pull', '--input', `l${listing}.json`, '--out', 'gen', ...args], { cwd: dir });
  expect(run.code, run.stderr).toBe(0);
  return run;
}

const lockOf = async (dir: string) => JSON.parse(await readFile(join(dir, 'schema-sync.lock.json'), 'utf8')) as { messages: Record<string, Record<string, unknown>> };
const messageFiles = async (dir: string) => [...(await readTree(join(dir, 'gen'))).keys()].filter((path) => path.startsWith('messages/')).sort();

describe('a type whose name differs only by case from an existing one', () => {
  let dir: string;
  let report: DriftReport;
  let fooBefore: string;

  beforeAll(async () => {
    dir = await project('added', [foo, other], [foo, other, FOO], [other, FOO]);
    await pull(dir, 0);
    await writeFile(join(dir, 'base.lock.json'), await readFile(join(dir, 'schema-sync.lock.json')));
    fooBefore = await readFile(join(dir, 'gen/messages/Foo.ts'), 'utf8');
    report = JSON.parse((await pull(dir, 1, '--format', 'json')).stdout) as DriftReport;
  });

  // Same path, same bytes: a deep import of messages/Foo.js keeps compiling (a tsc run here would
  // cost more than the rest of this file).
  it('leaves the existing type its file and bytes; the newcomer gets the suffixed file name', async () => {
    expect(await readFile(join(dir, 'gen/messages/Foo.ts'), 'utf8')).toBe(fooBefore);
    const files = await messageFiles(dir);
    expect(files).toHaveLength(3);
    expect(files).toContain('messages/Foo.ts');
    expect(files).toContain('messages/Other.ts');
    expect(files.find((path) => path.startsWith('messages/FOO'))).toMatch(SUFFIXED);
  });

  it('records the stem that is not the rule\'s in the lockfile, and no other', async () => {
    const lock = await lockOf(dir);
    expect(lock.messages['Foo']!['$file']).toBe('Foo');
    expect(lock.messages['FOO']!['$file']).toBeUndefined();
    expect(lock.messages['Other']!['$file']).toBeUndefined();
  });

  it('says so in the report: json, text and markdown', async () => {
    const added = report.changes.find((change) => change.name === 'FOO')!;
    const module = (await messageFiles(dir)).find((path) => path.startsWith('messages/FOO'))!.slice(0, -'.ts'.length);
    expect(added).toMatchObject({ kind: 'added', rule: 'MESSAGE_ADDED', note: { module, caseClashWith: 'Foo' } });
    const schema = JSON.parse(await readFile(join(ROOT, 'report.schema.json'), 'utf8')) as Record<string, unknown>;
    expect(validateJson(schema, report)).toEqual([]);
    expect(validateJson(schema, { ...report, changes: [{ ...added, note: { module } }] })).not.toEqual([]);
    const line = `note: module ${module}, as its name and Foo's would share a file on case-insensitive file systems`;
    expect(renderReport(report, { format: 'text', command: 'pull' })).toContain(`  added FOO (mNum 2) [MESSAGE_ADDED]\n    ${line}`);
    expect(renderReport(report, { format: 'markdown', command: 'pull' })).toContain(`mNum 2 [MESSAGE_ADDED]<br>note: module \`${module}\`, as its name and \`Foo\`'s would share`);
  });

  it('diff of the two lockfiles tells the same', async () => {
    const diff = await runCli(['diff', 'base.lock.json', 'schema-sync.lock.json', '--format', 'json'], { cwd: dir });
    expect(diff.code, diff.stderr).toBe(1);
    expect((JSON.parse(diff.stdout) as DriftReport).changes).toEqual(report.changes);
  });

  it('generate from the lockfile alone, without a cache, gives the same bytes', async () => {
    const fresh = await project('fresh');
    await writeFile(join(fresh, 'schema-sync.lock.json'), await readFile(join(dir, 'schema-sync.lock.json')));
    const run = await runCli(['generate', '--out', 'gen'], { cwd: fresh, env: { SCHEMA_SYNC_CACHE_DIR: 'off' } });
    expect(run.code, run.stderr).toBe(0);
    expect(await readTree(join(fresh, 'gen'))).toEqual(await readTree(join(dir, 'gen')));
  });

  it('keeps the newcomer its file once the older type is gone', async () => {
    const module = (await messageFiles(dir)).find((path) => path.startsWith('messages/FOO'))!;
    await pull(dir, 2);
    expect(await messageFiles(dir)).toEqual([module, 'messages/Other.ts']);
    const lock = await lockOf(dir);
    expect(lock.messages['FOO']!['$file']).toBe(module.slice('messages/'.length, -'.ts'.length));
  });
});

describe('two such names new in the same pull', () => {
  it('both get the suffix, as the rule says, nothing is recorded, and the report tells of both', async () => {
    const dir = await project('both-new', [foo, FOO, other]);
    const report = JSON.parse((await pull(dir, 0, '--format', 'json')).stdout) as DriftReport;
    const files = await messageFiles(dir);
    expect(files.filter((path) => SUFFIXED.test(path))).toHaveLength(2);
    expect(Object.values((await lockOf(dir)).messages).every((entry) => !('$file' in entry))).toBe(true);
    const notes = report.changes.flatMap((change) => (change.kind === 'added' && change.note !== undefined ? [[change.name, change.note.caseClashWith]] : []));
    expect(notes).toEqual([['FOO', 'Foo'], ['Foo', 'FOO']]);
  });
});

describe('generate with another scope', () => {
  it('moves no type\'s file: leaving out the older type keeps the newcomer its suffixed file', async () => {
    const dir = await project('scope', [foo, other], [foo, other, FOO]);
    await pull(dir, 0);
    await pull(dir, 1);
    const module = (await messageFiles(dir)).find((path) => path.startsWith('messages/FOO'))!;
    await writeFile(join(dir, 'schema-sync.config.json'), JSON.stringify({ exclude: ['Foo'] }));
    const run = await runCli(['generate', '--out', 'gen'], { cwd: dir });
    expect(run.code, run.stderr).toBe(0);
    expect(await messageFiles(dir)).toEqual([module, 'messages/Other.ts']);
    const lock = await lockOf(dir);
    expect([lock.messages['Foo']!['$file'], lock.messages['FOO']!['$file']]).toEqual([undefined, module.slice('messages/'.length, -'.ts'.length)]);
  });
});
