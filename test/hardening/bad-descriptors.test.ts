/**
 * Bad descriptors through the CLI (`pull --input`, validated exactly like a fetched listing; the
 * CLI runs in this process, see test/helpers/in-process.ts):
 * each is either accepted as the spec says, or refused with exit 2 and a message naming the
 * element index, its name and the field, with the lockfile and the output folder left byte for
 * byte as they were. The API key in the environment never shows, even when a bad element
 * carries it.
 */
import { cp, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readTree, removeDir, tempDir, type CliRun } from '../helpers/cli.js';
import { runCli } from '../helpers/in-process.js';
import { smallListing, wireElement, type WireElement } from '../helpers/listing.js';
import { leaks } from './helpers.js';

const KEY = 'sk-live-KEY-0b7d21';
let template: string;
const dirs: string[] = [];

beforeAll(async () => {
  template = await tempDir();
  await writeFile(join(template, 'good.json'), JSON.stringify(smallListing(3)));
  const run = await runCli(['pull', '--input', 'good.json', '--out', 'out', '--quiet'], { cwd: template });
  expect(run.code, run.stderr).toBe(0);
});
afterAll(async () => {
  await Promise.all([template, ...dirs].map(removeDir));
});

/** The types the folder already has (so a pull that passes validation is not a mass removal). */
const KEPT = smallListing(3);

/** Runs `pull --input` with the given listing on a copy of the pulled folder. */
async function pullListing(listing: unknown, command = 'pull'): Promise<{ run: CliRun; dir: string; before: Map<string, string>; after: Map<string, string> }> {
  const dir = await tempDir();
  dirs.push(dir);
  await cp(template, dir, { recursive: true });
  await writeFile(join(dir, 'listing.json'), JSON.stringify(listing));
  const before = await readTree(dir);
  const run = await runCli([command, '--input', 'listing.json', '--out', 'out'], { cwd: dir, env: { SCHEMA_SYNC_API_KEY: KEY } });
  const after = await readTree(dir);
  const written = [...after].filter(([path]) => path !== 'listing.json');
  expect(leaks([KEY], [['stdout', run.stdout], ['stderr', run.stderr], ...written])).toEqual([]);
  return { run, dir, before, after };
}

/** Two good elements around the bad one, so the index is not trivially 0. */
function around(bad: unknown): unknown[] {
  return [wireElement({ name: 'First', mNum: 10 }), bad, wireElement({ name: 'Last', mNum: 30 })];
}

function without(field: string, name = 'Missing'): WireElement {
  const element = wireElement({ name, mNum: 20 });
  delete element.message[field];
  return element;
}

/**
 * One bad element per case, each with its own name and number; all go into one listing, since
 * the CLI reports every invalid element at once (and a listing with one bad element is refused
 * just the same: see the single-element cases below).
 */
const BAD_FIELDS: Array<[label: string, element: unknown, expected: string]> = [
  ['a missing name', without('name', 'unused'), 'field message.name: expected a string, but it is missing'],
  ['a missing mNum', without('mNum', 'NoNum'), '("NoNum"), field message.mNum: expected a non-negative integer, but it is missing'],
  ['a missing schemaHash', without('schemaHash', 'NoHash'), '("NoHash"), field message.schemaHash: expected a string (schema-sync needs the schema hash to detect drift), but it is missing'],
  ['hasCF null', wireElement({ name: 'NoCF', mNum: 20, hasCF: null }), '("NoCF"), field message.hasCF: expected "Yes" or "No" (any case), a boolean, YESNO_YES or YESNO_NO, or 1 (yes) or 2 (no), got null'],
  ['actions "Selct,Insert"', wireElement({ name: 'Typo', mNum: 19, actions: 'Selct,Insert' }), '("Typo"), field message.actions: expected action letters ("SIURD"), flag names separated by commas, pipes or spaces ("Select,Insert", "MLINKACTIONS_SELECT"), a bit mask 0..31, or an array of these; "Selct" is none of these, got "Selct,Insert"'],
  ['a missing message', { header: { msgType: 'MsgDesc' } }, 'field message: expected an object, but it is missing'],
  ['mNum "abc"', wireElement({ name: 'Abc', mNum: 'abc' }), '("Abc"), field message.mNum: expected a non-negative integer, got "abc"'],
  ['mNum "20" (a numeric string)', wireElement({ name: 'Str', mNum: '20' }), '("Str"), field message.mNum: expected a non-negative integer, got "20"'],
  ['a negative mNum', wireElement({ name: 'Neg', mNum: -4 }), '("Neg"), field message.mNum: expected a non-negative integer, got -4'],
  ['a fractional mNum', wireElement({ name: 'Frac', mNum: 20.5 }), '("Frac"), field message.mNum: expected a non-negative integer, got 20.5'],
  ['an mNum beyond 2^53', wireElement({ name: 'Huge', mNum: 2 ** 60 }), '("Huge"), field message.mNum: expected a non-negative integer, got 1152921504606847000'],
  ['an empty name', wireElement({ name: '', mNum: 21 }), 'field message.name: expected a non-empty string, got ""'],
  ['a numeric name', wireElement({ name: 42, mNum: 22 }), 'field message.name: expected a string, got 42'],
  ['hasCF "Maybe"', wireElement({ name: 'Maybe', mNum: 23, hasCF: 'Maybe' }), '("Maybe"), field message.hasCF: expected "Yes" or "No" (any case), a boolean, YESNO_YES or YESNO_NO, or 1 (yes) or 2 (no), got "Maybe"'],
  ['hasTKey 3', wireElement({ name: 'Three', mNum: 24, hasTKey: 3 }), '("Three"), field message.hasTKey: expected "Yes" or "No" (any case), a boolean, YESNO_YES or YESNO_NO, or 1 (yes) or 2 (no), got 3'],
  ['actions 42', wireElement({ name: 'Act', mNum: 25, actions: 42 }), '("Act"), field message.actions: expected action letters ("SIURD"), flag names separated by commas, pipes or spaces ("Select,Insert", "MLINKACTIONS_SELECT"), a bit mask 0..31, or an array of these, got 42'],
  ['staticFilterFields 7', wireElement({ name: 'Sff', mNum: 26, staticFilterFields: 7 }), '("Sff"), field message.staticFilterFields: expected a comma-separated string or an array of strings, got 7'],
  ['schemaHash null', wireElement({ name: 'Nul', mNum: 27, schemaHash: null }), '("Nul"), field message.schemaHash: expected a string (schema-sync needs the schema hash to detect drift), got null'],
  ['a string element', 'MsgDesc', 'field (element): expected an object { header, message }, got "MsgDesc"'],
  ['the API key inside a bad element', wireElement({ name: `leak-${KEY}`, mNum: 'abc' }), '("leak-***"), field message.mNum: expected a non-negative integer, got "abc"'],
];

describe('bad fields through the CLI', () => {
  let all: Awaited<ReturnType<typeof pullListing>>;
  beforeAll(async () => {
    all = await pullListing([wireElement({ name: 'Good', mNum: 1 }), ...BAD_FIELDS.map(([, element]) => element)]);
  });

  it('refuses the listing: exit 2, every problem once, a hint, nothing written', () => {
    expect(all.run.code, all.run.stderr).toBe(2);
    expect(all.run.stderr).toContain(`${BAD_FIELDS.length} invalid fields in the listing`);
    const lines = all.run.stderr.split('\n').filter((line) => line.startsWith('  element '));
    expect(lines).toHaveLength(BAD_FIELDS.length);
    expect(all.run.stderr).toMatch(/^hint: The service sent descriptors schema-sync cannot use; nothing was written/m);
    expect(all.after).toEqual(all.before);
  });

  it.each(BAD_FIELDS.map(([label, , expected], i) => [label, i + 1, expected] as const))('names %s: element %i, its name, the field', (_label, index, expected) => {
    expect(all.run.stderr).toContain(`  element ${index}${expected.startsWith('(') ? ' ' : ', '}${expected}`);
  });
});

describe.concurrent('bad listings through the CLI', () => {
  it.each([
    ['mNum "abc"', wireElement({ name: 'Abc', mNum: 'abc' }), 'element 1 ("Abc"), field message.mNum: expected a non-negative integer, got "abc"'],
    ['an empty name', wireElement({ name: '', mNum: 20 }), 'element 1, field message.name: expected a non-empty string, got ""'],
    ['hasCF "Maybe"', wireElement({ name: 'Maybe', mNum: 20, hasCF: 'Maybe' }), 'element 1 ("Maybe"), field message.hasCF: expected "Yes" or "No" (any case), a boolean, YESNO_YES or YESNO_NO, or 1 (yes) or 2 (no), got "Maybe"'],
  ])('one bad element alone (%s) refuses the whole listing, nothing written', async (_label, element, expected) => {
    const { run, before, after } = await pullListing(around(element));
    expect(run.code, run.stderr).toBe(2);
    expect(run.stderr).toContain(expected);
    expect(after).toEqual(before);
  });

  it('refuses duplicate names and numbers, naming both elements of each, nothing written', async () => {
    const { run, before, after } = await pullListing([
      ...KEPT,
      wireElement({ name: 'Dup', mNum: 1 }),
      wireElement({ name: 'One', mNum: 7 }),
      wireElement({ name: 'Dup', mNum: 3 }),
      wireElement({ name: 'Three', mNum: 7 }),
    ]);
    expect(run.code, run.stderr).toBe(2);
    expect(run.stderr).toContain('name "Dup" appears at elements 3 and 5');
    expect(run.stderr).toContain('mNum 7 is used by element 4 ("One") and element 6 ("Three")');
    expect(run.stderr).toMatch(/^hint: Each message type needs a unique name and mNum; nothing was written/m);
    expect(after).toEqual(before);
  });

  it('refuses two names that map to one identifier, naming both, nothing written', async () => {
    const { run, before, after } = await pullListing([...KEPT, wireElement({ name: 'my-type', mNum: 1 }), wireElement({ name: 'my_type', mNum: 2 })]);
    expect(run.code, run.stderr).toBe(2);
    expect(run.stderr).toContain('"my-type" and "my_type" both map to the identifier my_type');
    expect(after).toEqual(before);
  });

  it('check refuses a bad listing with exit 2 (trouble), not 1 (drift), and writes nothing', async () => {
    const { run, before, after } = await pullListing(around(wireElement({ name: 'Abc', mNum: 'abc' })), 'check');
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('element 1 ("Abc"), field message.mNum');
    expect(after).toEqual(before);
  });

  it('accepts what the spec accepts: flags in any case or as booleans, unknown action letters (warned), unknown fields, a 1 MB description, names that are no identifiers', async () => {
    const desc = `Starts here. ${'All work and no play. '.repeat(50_000)}Ends here.`;
    expect(desc.length).toBeGreaterThan(1_000_000);
    const { run, dir, after } = await pullListing([
      ...KEPT,
      wireElement({ name: 'Flags', mNum: 1, hasTKey: 'YES', hasEKey: 'nO', hasOKey: true, hasCF: false, actions: 'SXD', details: { nested: [1, { a: null }] } }),
      wireElement({ name: 'Big', mNum: 2, desc }),
      wireElement({ name: '   ', mNum: 3 }),
      wireElement({ name: '../../escape', mNum: 4 }),
      wireElement({ name: 'C:\\Windows\\evil', mNum: 5 }),
    ]);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).toContain('unknown action letter "X"');
    const lock = JSON.parse(await readFile(join(dir, 'schema-sync.lock.json'), 'utf8'));
    expect(lock.messages.Flags).toMatchObject({ hasTKey: true, hasEKey: false, hasOKey: true, hasCF: false, actions: ['select', 'delete', 'X'], details: { nested: [1, { a: null }] } });
    expect(lock.messages.Big.desc).toBe(desc);
    const big = await readFile(join(dir, 'out/messages/Big.ts'), 'utf8');
    expect(big).toContain('Starts here.');
    expect(big).toContain('Ends here.');
    // Every file inside the output folder: the odd names were mapped to safe file names.
    expect([...after.keys()].filter((p) => p.startsWith('out/messages/'))).toHaveLength(8);
    for (const path of after.keys()) expect(path.startsWith('out/') || !path.includes('/'), path).toBe(true);
  });
});
