/**
 * Adding a known descriptor field is one row of the field table (`src/model/descriptor-fields.ts`)
 * and nothing else: this test adds `mCat`, the category older deployments send (SPEC), as a row
 * with a rule of its own, by replacing the table module alone (everything else derives from it
 * where it is used), and follows it end to end through the CLI run in this process against the
 * reference server playing an older deployment (examples/older-deployment.json): validated on the
 * wire and in the lockfile, recorded in the table's order, typed in the generated constant and in
 * `MessageDescriptor` (tsc --strict), listed by `schema-sync rules`, and its changes named by
 * its own rule id. Without the row, `mCat` is an unknown field kept in `extra`
 * (test/e2e/deployments.test.ts).
 */
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { loadListingFile, startReferenceServer, type ReferenceServer } from '../../src/server/index.js';
import { removeDir, ROOT, tempDir } from '../helpers/cli.js';
import { runCli } from '../helpers/in-process.js';
import { runTsc } from '../emit/helpers.js';

vi.mock('../../src/model/descriptor-fields.js', async (importOriginal) => {
  const { z } = await import('zod');
  const table = await importOriginal<typeof import('../../src/model/descriptor-fields.js')>();
  const mCat = {
    name: 'mCat',
    required: false,
    wire: z.string({ error: 'expected a string' }),
    stored: z.string({ error: 'must be a string' }),
    emit: 'string',
    doc: 'The category of the message (older deployments).',
    rules: { changed: { id: 'CATEGORY_CHANGED', severity: 'dangerous', description: 'mCat changed: the message is filed under another category.' } },
  } as const;
  return { ...table, DESCRIPTOR_FIELDS: [...table.DESCRIPTOR_FIELDS, mCat] };
});

interface WireElement {
  header: Record<string, unknown>;
  message: Record<string, unknown>;
}

let server: ReferenceServer;
let dir: string;
let listing: WireElement[];

const run = (...args: string[]) => runCli([...args, '--base-url', server.url, '--out', 'out'], { cwd: dir });
const read = (path: string) => readFile(join(dir, path), 'utf8');
/** The listing with `mCat` of OptionNbboQuote set to `value`. */
const withCategory = (value: unknown): WireElement[] =>
  listing.map((element) => (element.message['name'] === 'OptionNbboQuote' ? { ...element, message: { ...element.message, mCat: value } } : element));

beforeAll(async () => {
  // An unknown field that sorts before mCat: the known one still comes first.
  listing = ((await loadListingFile(join(ROOT, 'examples/older-deployment.json'))) as WireElement[]).map((element) =>
    element.message['name'] === 'OptionNbboQuote' ? { ...element, message: { ...element.message, dataProducts: ['Nbbo'] } } : element,
  );
  server = await startReferenceServer({ listing });
  dir = await tempDir();
  const pulled = await run('pull');
  expect(pulled.code, pulled.stderr).toBe(0);
});

afterAll(async () => {
  await server.close();
  await removeDir(dir);
});

describe('a known field added as one row of the field table (mCat)', () => {
  it('is recorded in the lockfile as a known field, in the table order, before the unknown ones', async () => {
    const lockText = await read('schema-sync.lock.json');
    expect(lockText).toContain(
      ['"OptionNbboQuote": {', '"mNum": 2745,', '"schemaHash": "B04D0510FFF0531C",', '"hasTKey": true,', '"hasEKey": true,', '"hasOKey": true,', '"mCat": "MarketData",', '"dataProducts": ["Nbbo"],', '"pkey": {}', '}'].join('\n      ').replace(/ {6}\}$/, '    }'),
    );
  });

  it('is a property of the generated constant and a member of MessageDescriptor, typed under tsc --strict', async () => {
    expect(await read('out/messages/OptionNbboQuote.ts')).toContain("  hasOKey: true,\n  mCat: 'MarketData',\n} as const satisfies MessageDescriptor;");
    expect(await read('out/types.ts')).toContain('  /** The category of the message (older deployments). */\n  readonly mCat?: string;\n}');
    await writeFile(join(dir, 'package.json'), JSON.stringify({ type: 'module' }));
    await writeFile(
      join(dir, 'consumer.ts'),
      `import { OptionNbboQuote, type MessageDescriptor } from './out/index.js';
type Equal<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;
export const literal: 'MarketData' = OptionNbboQuote.mCat;
export const optional: Equal<MessageDescriptor['mCat'], string | undefined> = true;
// @ts-expect-error a category is a string
export const wrong: MessageDescriptor = { name: 'A', mNum: 1, schemaHash: 'h', mCat: 7 };
`,
    );
    await writeFile(
      join(dir, 'tsconfig.json'),
      JSON.stringify({
        // TypeScript's own lib files are not what is tested: no DOM, and they are not checked.
        compilerOptions: { strict: true, exactOptionalPropertyTypes: true, noUncheckedIndexedAccess: true, module: 'nodenext', moduleResolution: 'nodenext', target: 'es2022', lib: ['es2022'], noEmit: true, types: [], skipDefaultLibCheck: true },
        include: ['out/**/*.ts', 'consumer.ts'],
      }),
    );
    const tsc = await runTsc(join(dir, 'tsconfig.json'));
    expect(tsc.output).toBe('');
    expect(tsc.code).toBe(0);
  });

  it('has a rule of its own, listed with its default severity', async () => {
    const listed = await runCli(['rules', '--format', 'json'], { cwd: dir });
    expect(listed.code, listed.stderr).toBe(0);
    const { rules: rows } = JSON.parse(listed.stdout) as { rules: Array<{ id: string; default: string }> };
    expect(rows.find((row) => row.id === 'CATEGORY_CHANGED')).toMatchObject({ default: 'dangerous' });
    // Worst first: after the other dangerous rules of known fields, before the presence rule.
    expect(rows.map((row) => row.id).slice(6, 11)).toEqual(['SCHEMA_HASH_CHANGED', 'CLIENT_FIRM_CHANGED', 'FILTER_FIELDS_CHANGED', 'CATEGORY_CHANGED', 'FIELD_DISAPPEARED']);
  });

  it.each<[string, unknown, string, string]>([
    ['changes', 'Trading', 'CATEGORY_CHANGED', 'dangerous'],
    ['disappears', undefined, 'FIELD_DISAPPEARED', 'dangerous'],
  ])('names its change by its rule when it %s', async (_label, value, rule, severity) => {
    server.setListing(value === undefined ? listing.map((e) => (e.message['name'] === 'OptionNbboQuote' ? { ...e, message: { ...e.message, mCat: undefined } } : e)) : withCategory(value));
    try {
      const check = await run('check', '--format', 'json');
      expect(check.code, check.stderr).toBe(1);
      const report = JSON.parse(check.stdout) as { changes: Array<{ name: string; fields?: Array<{ field: string; rule: string; severity: string }> }> };
      expect(report.changes.map((change) => [change.name, change.fields])).toEqual([['OptionNbboQuote', [expect.objectContaining({ field: 'mCat', rule, severity })]]]);
    } finally {
      server.setListing(listing);
    }
  });

  it('is validated on the wire', async () => {
    server.setListing(withCategory(7));
    try {
      const pulled = await run('pull', '--dry-run');
      expect(pulled.code).toBe(2);
      expect(pulled.stderr).toContain('element 11 ("OptionNbboQuote"), field message.mCat: expected a string, got 7');
    } finally {
      server.setListing(listing);
    }
  });

  it('is validated in the lockfile', async () => {
    const path = join(dir, 'schema-sync.lock.json');
    const good = await readFile(path, 'utf8');
    await writeFile(path, good.replace('"mCat": "MarketData"', '"mCat": 7'));
    try {
      const generated = await runCli(['generate', '--out', 'out'], { cwd: dir });
      expect(generated.code).toBe(2);
      expect(generated.stderr).toContain('messages["OptionNbboQuote"].mCat: must be a string');
    } finally {
      await writeFile(path, good);
    }
  });
});
