/**
 * The safe-text boundary end to end: a message name, `desc`, `mToken` or enum value holding a
 * character that must never reach a file or a terminal raw (a bidi override, a zero-width space,
 * a line separator, ESC, a lone surrogate) is escaped in every output of the CLI: the text,
 * JSON, markdown and github reports, an error and a warning that name the element, `--verbose`
 * lines, the lockfile (as JSON escapes) and the generated code (string literals and comments).
 * The CLI runs in this process (test/helpers/in-process.ts): what it writes to its streams is
 * what the built CLI writes to the process's, encoded to UTF-8 alike, and the escaping is not
 * about the process.
 */
import { join } from 'node:path';
import { mkdir, readFile } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startReferenceServer, type ReferenceServer, type SchemaSet } from '../../src/server/index.js';
import { readTree, removeDir, tempDir, type CliRun } from '../helpers/cli.js';
import { runCli } from '../helpers/in-process.js';
import { wireElement } from '../helpers/listing.js';

/** One character per row, and how it must read once escaped (JSON's lowercase `\uXXXX`, code's uppercase). */
const CHARACTERS = [
  { name: 'U+202E (right-to-left override)', char: '\u202E', json: '\\u202e', code: '\\u202E' },
  { name: 'U+200B (zero-width space)', char: '\u200B', json: '\\u200b', code: '\\u200B' },
  { name: 'U+2028 (line separator)', char: '\u2028', json: '\\u2028', code: '\\u2028' },
  { name: 'ESC', char: '\u001b', json: '\\u001b', code: '\\u001B' },
  { name: 'a lone surrogate', char: '\uD800', json: '\\ud800', code: '\\uD800' },
];

const REPORT_FORMATS = ['text', 'json', 'markdown', 'github'] as const;

let server: ReferenceServer;
let dir: string;

beforeAll(async () => {
  server = await startReferenceServer({ listing: [] });
  dir = await tempDir();
});
afterAll(async () => {
  await server.close();
  await removeDir(dir);
});

/**
 * Whether `text` holds `char` raw. A lone surrogate written to a stream or file becomes U+FFFD
 * in UTF-8, so that counts as raw too.
 */
function holdsRaw(text: string, char: string): boolean {
  return text.includes(char) || (/[\uD800-\uDFFF]/.test(char) && text.includes('\uFFFD'));
}

/** The outputs of one run, labelled by destination. */
function streams(label: string, run: CliRun): [string, string][] {
  return [
    [`${label} stdout`, run.stdout],
    [`${label} stderr`, run.stderr],
  ];
}

/** A project's pull, then its check in every report format after the server changed. */
async function pullThenCheck(input: {
  cwd: string;
  fields: boolean;
  before: { listing: unknown[]; schemas: SchemaSet };
  after: { listing: unknown[]; schemas: SchemaSet };
}): Promise<{ pulled: CliRun; checked: Record<(typeof REPORT_FORMATS)[number], CliRun>; tree: Map<string, string>; lockfile: string }> {
  await mkdir(input.cwd, { recursive: true });
  const args = ['--base-url', server.url, '--out', 'out', '--verbose', ...(input.fields ? ['--fields'] : [])];
  server.setOptions(input.before);
  const pulled = await runCli(['pull', ...args], { cwd: input.cwd });
  expect(pulled.code, pulled.stderr).toBe(0);
  const tree = await readTree(join(input.cwd, 'out'));
  const lockfile = await readFile(join(input.cwd, 'schema-sync.lock.json'), 'utf8');
  server.setOptions(input.after);
  const checked = {} as Record<(typeof REPORT_FORMATS)[number], CliRun>;
  for (const format of REPORT_FORMATS) {
    checked[format] = await runCli(['check', ...args, '--format', format], { cwd: input.cwd });
    expect(checked[format].code, checked[format].stderr).toBe(1);
  }
  return { pulled, checked, tree, lockfile };
}

describe.each(CHARACTERS)('$name', ({ char, json, code }) => {
  const name = `Ord${char}er`;
  const element = (version: 'before' | 'after') =>
    wireElement({ name, mNum: 1, desc: `d${char}esc ${version}`, mToken: version === 'before' ? `T${char}ok` : `U${char}tok` });
  // Fields are fetched by name (getschema), so the enum value sits on a plainly named type.
  const fielded = (version: 'before' | 'after') => ({
    listing: [wireElement({ name: 'Plain', mNum: 2, schemaHash: version === 'before' ? 'AAAA' : 'BBBB' })],
    schemas: { Plain: [{ pos: 1, name: 'side', fNum: 10, isPkey: 'No', fType: 'Enum', eSet: version === 'before' ? `Buy,S${char}ell` : 'Buy', desc: `f${char}d` }] },
  });

  it('is escaped in every destination', async () => {
    const cwd = join(dir, String(char.charCodeAt(0)));
    const outputs: [destination: string, text: string, escaped: string][] = [];

    // A name, desc and mToken: the lockfile, generated literals and TSDoc, every report, --verbose lines.
    const named = await pullThenCheck({
      cwd: join(cwd, 'named'),
      fields: false,
      before: { listing: [element('before'), wireElement({ name: 'Plain', mNum: 2 })], schemas: {} },
      after: { listing: [element('after'), wireElement({ name: 'Plain', mNum: 2 })], schemas: {} },
    });
    outputs.push(...streams('pull --verbose', named.pulled).map(([destination, text]): [string, string, string] => [destination, text, '']));
    outputs.push(['lockfile', named.lockfile, `"Ord${json}er"`], ['lockfile, desc', named.lockfile, `d${json}esc before`], ['lockfile, mToken', named.lockfile, `T${json}ok`]);
    expect(Object.keys((JSON.parse(named.lockfile) as { messages: Record<string, unknown> }).messages)).toContain(name);
    const generated = [...named.tree.entries()].filter(([path]) => /\.(ts|js)$/.test(path));
    for (const [path, text] of generated) outputs.push([`generated ${path}`, text, '']);
    const modules = generated.map(([, text]) => text).join('\n');
    outputs.push(['generated string literal', modules, `'Ord${code}er'`], ['generated mToken literal', modules, `'T${code}ok'`]);
    // A line separator ends a TSDoc line (the comment goes on on the next); anything else is escaped in it.
    outputs.push(['generated comment', modules, char === '\u2028' ? 'esc before' : `d${code}esc before`]);
    for (const format of REPORT_FORMATS) {
      outputs.push([`${format} report`, named.checked[format].stdout, `Ord${json}er`]);
      outputs.push([`${format} report, desc`, named.checked[format].stdout, `d${json}esc after`]);
      outputs.push([`${format} report, mToken`, named.checked[format].stdout, `U${json}tok`]);
      outputs.push([`check --format ${format} --verbose stderr`, named.checked[format].stderr, '']);
    }

    // An enum value (fields on): the lockfile, the generated record type, every report.
    const enums = await pullThenCheck({ cwd: join(cwd, 'enums'), fields: true, before: fielded('before'), after: fielded('after') });
    outputs.push(...streams('pull --fields --verbose', enums.pulled).map(([destination, text]): [string, string, string] => [destination, text, '']));
    outputs.push(['lockfile, enum value', enums.lockfile, `S${json}ell`]);
    const records = [...enums.tree.entries()].filter(([path]) => /\.(ts|js)$/.test(path));
    for (const [path, text] of records) outputs.push([`generated ${path} (fields)`, text, '']);
    outputs.push(['generated enum literal', records.map(([, text]) => text).join('\n'), `'S${code}ell'`]);
    for (const format of REPORT_FORMATS) {
      outputs.push([`${format} report, enum value`, enums.checked[format].stdout, `S${json}ell`]);
      outputs.push([`check --fields --format ${format} --verbose stderr`, enums.checked[format].stderr, '']);
    }

    // A warning that names the element (an unknown action letter is kept, and said so).
    server.setOptions({ listing: [wireElement({ name, mNum: 1, actions: 'SQ' })], schemas: {} });
    await mkdir(cwd, { recursive: true });
    const warned = await runCli(['pull', '--base-url', server.url, '--out', 'warned', '--lockfile', 'warned.lock.json', '--dry-run'], { cwd });
    expect(warned.code, warned.stderr).toBe(0);
    outputs.push(['warning naming the element', warned.stderr, `"Ord${json}er": unknown action letter`]);

    // An error that names the element (its mNum is not a number).
    server.setOptions({ listing: [wireElement({ name, mNum: 'x' })] });
    const failed = await runCli(['pull', '--base-url', server.url, '--out', 'failed', '--lockfile', 'failed.lock.json'], { cwd });
    expect(failed.code).toBe(2);
    outputs.push(['error naming the element', failed.stderr, `element 0 ("Ord${json}er"), field message.mNum`]);

    expect(outputs.filter(([, text]) => holdsRaw(text, char)).map(([destination]) => destination)).toEqual([]);
    expect(outputs.filter(([, text, escaped]) => !text.includes(escaped)).map(([destination]) => destination)).toEqual([]);
  });
});
