/**
 * Real deployments as they come (SPEC "The service, as real deployments behave"), end to end:
 * the CLI (run in this process, see test/helpers/in-process.ts) against the reference server
 * over loopback playing each kind of deployment: an older one that sends fewer fields, every
 * encoding of `actions` and of the key flags, values no encoding reads, and message numbers that
 * move.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadListingFile } from '../../src/server/index.js';
import { startTestServer, type ActionsEncoding, type FlagEncoding, type TestServer } from '../helpers/server/index.js';
import { readTree, removeDir, ROOT, tempDir } from '../helpers/cli.js';
import { runCli } from '../helpers/in-process.js';
import { wireElement, type WireElement } from '../helpers/listing.js';
import { runTsc } from '../emit/helpers.js';

const ALL = ['select', 'insert', 'update', 'replace', 'delete'];
const servers: TestServer[] = [];
const dirs: string[] = [];

async function serve(listing: unknown[], options: Omit<Parameters<typeof startTestServer>[0], 'listing'> = {}): Promise<TestServer> {
  const server = await startTestServer({ listing, ...options });
  servers.push(server);
  return server;
}

async function project(): Promise<string> {
  const dir = await tempDir();
  dirs.push(dir);
  return dir;
}

const run = (command: string, server: TestServer, dir: string, ...args: string[]) =>
  runCli([command, '--base-url', server.url, '--out', 'out', ...args], { cwd: dir });

const lockOf = async (dir: string) => JSON.parse(await readFile(join(dir, 'schema-sync.lock.json'), 'utf8')) as { messages: Record<string, Record<string, unknown>> };

afterAll(async () => {
  await Promise.all(servers.map((s) => s.close()));
  await Promise.all(dirs.map(removeDir));
});

describe('an older deployment (examples/older-deployment.json)', () => {
  let server: TestServer;
  let dir: string;
  let pulled: Awaited<ReturnType<typeof run>>;
  beforeAll(async () => {
    server = await serve(await loadListingFile(join(ROOT, 'examples/older-deployment.json')));
    dir = await project();
    pulled = await run('pull', server, dir);
  });

  it('pulls: exit 0, the lockfile records only what was sent, mCat kept', async () => {
    expect(pulled.code, pulled.stderr).toBe(0);
    const lock = await lockOf(dir);
    expect(Object.keys(lock.messages)).toHaveLength(25);
    expect(lock.messages['OptionNbboQuote']).toEqual({ mNum: 2745, schemaHash: 'B04D0510FFF0531C', hasTKey: true, hasEKey: true, hasOKey: true, mCat: 'MarketData', pkey: {} });
    const module = await readFile(join(dir, 'out/messages/OptionNbboQuote.ts'), 'utf8');
    expect(module).not.toMatch(/actions|hasCF|mToken|staticFilterFields/);
  });

  it('the output compiles under tsc --strict (exactOptionalPropertyTypes too)', async () => {
    await writeFile(join(dir, 'package.json'), JSON.stringify({ type: 'module' }));
    await writeFile(
      join(dir, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: { strict: true, exactOptionalPropertyTypes: true, noUncheckedIndexedAccess: true, module: 'nodenext', moduleResolution: 'nodenext', target: 'es2022', noEmit: true, types: [], skipDefaultLibCheck: true },
        include: ['out/**/*.ts'],
      }),
    );
    const tsc = await runTsc(join(dir, 'tsconfig.json'));
    expect(tsc.output).toBe('');
    expect(tsc.code).toBe(0);
  });

  it('check is in sync afterwards', async () => {
    const check = await run('check', server, dir);
    expect(check.code, check.stdout + check.stderr).toBe(0);
  });
});

describe('a deployment that stops sending fields', () => {
  it('reports each known field that disappears as dangerous', async () => {
    const server = await serve([wireElement({ name: 'Order', mNum: 1, mCat: 'Trading' })]);
    const dir = await project();
    expect((await run('pull', server, dir)).code).toBe(0);
    server.setOptions({ shape: { older: true } });
    const check = await run('check', server, dir, '--format', 'json');
    expect(check.code).toBe(1);
    const [change] = JSON.parse(check.stdout).changes;
    expect(change).toMatchObject({ kind: 'changed', name: 'Order', rule: 'FIELD_DISAPPEARED', severity: 'dangerous' });
    expect(change.fields).toEqual([
      { field: 'actions', rule: 'FIELD_DISAPPEARED', before: ALL, severity: 'dangerous' },
      { field: 'hasCF', rule: 'FIELD_DISAPPEARED', before: false, severity: 'dangerous' },
      { field: 'mToken', rule: 'FIELD_DISAPPEARED', before: 'Trading', severity: 'dangerous' },
      { field: 'staticFilterFields', rule: 'FIELD_DISAPPEARED', before: ['accnt', 'ticker'], severity: 'dangerous' },
    ]);
  });
});

describe('every encoding of actions and key flags', () => {
  /** Letters as the listing file has them; flags in every combination. */
  const listing: WireElement[] = [
    wireElement({ name: 'All', mNum: 1, actions: 'SIURD', hasTKey: 'Yes', hasEKey: 'No', hasOKey: 'No', hasCF: 'Yes' }),
    wireElement({ name: 'SelectInsert', mNum: 2, actions: 'SI', hasTKey: 'No', hasEKey: 'Yes', hasOKey: 'Yes', hasCF: 'No' }),
    wireElement({ name: 'SelectOnly', mNum: 3, actions: 'S' }),
    wireElement({ name: 'NoActions', mNum: 4, actions: '' }),
    wireElement({ name: 'UpdateDelete', mNum: 5, actions: 'UD' }),
  ];
  // Each actions encoding with one flag encoding; together they cover both lists.
  const shapes: Array<[ActionsEncoding, FlagEncoding]> = [
    ['letters', 'yes-no'],
    ['names', 'boolean'],
    ['names-pipes', 'enum'],
    ['names-spaces', 'number'],
    ['enum', 'number'],
    ['mask', 'enum'],
    ['mask-string', 'boolean'],
    ['array', 'yes-no'],
  ];
  let baseline: string;
  const pulls = new Map<string, { code: number; stderr: string; lockfile: string; served: Array<{ message: Record<string, unknown> }> }>();

  beforeAll(async () => {
    await Promise.all(
      shapes.map(async ([actions, flags]) => {
        // One server per shape, side by side; their URLs differ by port, masked before comparing.
        const server = await serve(listing, { shape: { actions, flags } });
        const dir = await project();
        const pulled = await run('pull', server, dir);
        const served = (await (await fetch(`${server.url}/rest/proto`)).json()) as Array<{ message: Record<string, unknown> }>;
        const lockfile = (await readFile(join(dir, 'schema-sync.lock.json'), 'utf8').catch(() => '')).replace(server.url, 'URL');
        pulls.set(`${actions}/${flags}`, { code: pulled.code, stderr: pulled.stderr, lockfile, served });
      }),
    );
    baseline = pulls.get('letters/yes-no')!.lockfile;
  });

  it.each(shapes)('actions as %s, flags as %s: the same lockfile as letters and Yes/No', (actions, flags) => {
    const pulled = pulls.get(`${actions}/${flags}`)!;
    expect(pulled.code, pulled.stderr).toBe(0);
    expect(pulled.stderr).not.toContain('warning');
    expect(pulled.lockfile).toBe(baseline);
  });

  it('reads "Select,Insert" as select and insert, 31 as all five, and no actions as none', async () => {
    const lock = JSON.parse(baseline) as { messages: Record<string, { actions: string[]; hasTKey: boolean; hasCF: boolean }> };
    expect(pulls.get('names/boolean')!.served[1]!.message['actions']).toBe('Select,Insert');
    expect(lock.messages['SelectInsert']!.actions).toEqual(['select', 'insert']);
    expect(pulls.get('mask/enum')!.served[0]!.message['actions']).toBe(31);
    expect(lock.messages['All']!.actions).toEqual(ALL);
    expect(pulls.get('mask/enum')!.served[3]!.message['actions']).toBe(0);
    expect(lock.messages['NoActions']!.actions).toEqual([]);
    expect(lock.messages['UpdateDelete']!.actions).toEqual(['update', 'delete']);
    expect(pulls.get('names-spaces/number')!.served[0]!.message['hasTKey']).toBe(1);
    expect(pulls.get('names-spaces/number')!.served[0]!.message['hasEKey']).toBe(2);
    expect(lock.messages['All']).toMatchObject({ hasTKey: true, hasEKey: false, hasCF: true });
  });

  it('reads a listing that mixes encodings element by element, keeping an unknown letter with a warning', async () => {
    const server = await serve([
      wireElement({ name: 'Array', mNum: 1, actions: ['Select', 4, '8', 'mlinkactions_delete'], hasTKey: 'YESNO_NO', hasCF: 2 }),
      wireElement({ name: 'Pipes', mNum: 2, actions: 'insert | SELECT', hasTKey: '1', hasCF: true }),
      wireElement({ name: 'Letters', mNum: 3, actions: 'DSX', hasTKey: ' yes ' }),
      wireElement({ name: 'EmptyArray', mNum: 4, actions: [] }),
      wireElement({ name: 'MaskString', mNum: 5, actions: '31' }),
    ]);
    const dir = await project();
    const pulled = await run('pull', server, dir);
    expect(pulled.code, pulled.stderr).toBe(0);
    expect(pulled.stderr).toContain('element 2: message "Letters": unknown action letter "X" kept as is');
    const { messages } = await lockOf(dir);
    expect(messages['Array']).toMatchObject({ actions: ['select', 'update', 'replace', 'delete'], hasTKey: false, hasCF: false });
    expect(messages['Pipes']).toMatchObject({ actions: ['select', 'insert'], hasTKey: true, hasCF: true });
    expect(messages['Letters']).toMatchObject({ actions: ['select', 'delete', 'X'], hasTKey: true });
    expect(messages['EmptyArray']!['actions']).toEqual([]);
    expect(messages['MaskString']!['actions']).toEqual(ALL);
  });
});

describe('values no encoding reads', () => {
  it('refuse the listing: exit 2, every element and field named with its value, nothing written', async () => {
    const good = [wireElement({ name: 'Good', mNum: 1 })];
    const server = await serve(good);
    const dir = await project();
    expect((await run('pull', server, dir)).code).toBe(0);
    const before = await readTree(dir);
    server.setListing([
      ...good,
      wireElement({ name: 'Typo', mNum: 2, actions: 'Select,Insrt' }),
      wireElement({ name: 'Word', mNum: 3, actions: 'SELCT' }),
      wireElement({ name: 'BigMask', mNum: 4, actions: 64 }),
      wireElement({ name: 'BadItem', mNum: 5, actions: ['Select', 'Sometimes'] }),
      wireElement({ name: 'NullActions', mNum: 6, actions: null }),
      wireElement({ name: 'Zero', mNum: 7, hasTKey: 0 }),
      wireElement({ name: 'Maybe', mNum: 8, hasEKey: 'Maybe' }),
      wireElement({ name: 'EnumMaybe', mNum: 9, hasCF: 'YESNO_MAYBE' }),
      wireElement({ name: 'NoHash', mNum: 10, schemaHash: undefined }),
    ]);
    const refused = await run('pull', server, dir);
    expect(refused.code, refused.stderr).toBe(2);
    expect(refused.stderr).toContain('9 invalid fields in the listing');
    for (const expected of [
      'element 1 ("Typo"), field message.actions: expected action letters ("SIURD")',
      '"Insrt" is none of these, got "Select,Insrt"',
      'element 2 ("Word"), field message.actions: expected action letters ("SIURD")',
      'a bit mask 0..31, or an array of these, got "SELCT"',
      'element 3 ("BigMask"), field message.actions:',
      'or an array of these, got 64',
      'element 4 ("BadItem"), field message.actions:',
      '"Sometimes" is none of these, got ["Select","Sometimes"]',
      'element 5 ("NullActions"), field message.actions:',
      'element 6 ("Zero"), field message.hasTKey: expected "Yes" or "No" (any case), a boolean, YESNO_YES or YESNO_NO, or 1 (yes) or 2 (no), got 0',
      'element 7 ("Maybe"), field message.hasEKey: expected "Yes" or "No"',
      'got "Maybe"',
      'element 8 ("EnumMaybe"), field message.hasCF: expected "Yes" or "No"',
      'got "YESNO_MAYBE"',
      'element 9 ("NoHash"), field message.schemaHash: expected a string (schema-sync needs the schema hash to detect drift), but it is missing',
    ]) {
      expect(refused.stderr).toContain(expected);
    }
    expect(refused.stderr).not.toMatch(/unknown action letter/);
    expect(await readTree(dir)).toEqual(before);
  });
});

describe('message numbers that move between deployments', () => {
  it('reports a surviving type’s new mNum as an mNum change (breaking), never as a rename', async () => {
    const server = await serve([
      wireElement({ name: 'OptionNbboQuote', mNum: 2745 }),
      wireElement({ name: 'OldType', mNum: 2785 }),
      wireElement({ name: 'Keep', mNum: 1 }),
    ]);
    const dir = await project();
    expect((await run('pull', server, dir)).code).toBe(0);
    // The vendor's files of one month give OptionNbboQuote 2745 and 2785.
    server.setListing([
      wireElement({ name: 'OptionNbboQuote', mNum: 2785 }),
      wireElement({ name: 'NewType', mNum: 2745 }),
      wireElement({ name: 'Keep', mNum: 1 }),
    ]);
    const check = await run('check', server, dir, '--format', 'json');
    expect(check.code).toBe(1);
    const report = JSON.parse(check.stdout);
    expect(report.changes).toEqual([
      { kind: 'removed', name: 'OldType', rule: 'MESSAGE_REMOVED', severity: 'breaking', before: { mNum: 2785 } },
      { kind: 'changed', name: 'OptionNbboQuote', rule: 'MNUM_CHANGED', severity: 'breaking', fields: [{ field: 'mNum', rule: 'MNUM_CHANGED', before: 2745, after: 2785, severity: 'breaking' }] },
      { kind: 'added', name: 'NewType', rule: 'MESSAGE_ADDED', severity: 'safe', after: { mNum: 2745 } },
    ]);
    expect(report.summary.renamed).toBe(0);
    const pulled = await run('pull', server, dir);
    expect(pulled.code, pulled.stderr).toBe(0);
    expect((await lockOf(dir)).messages['OptionNbboQuote']!['mNum']).toBe(2785);
  });
});
