/**
 * Several files formatted in one prettier call must give, byte for byte, what formatting each
 * file alone gives: checked over generated modules of arbitrary descriptors under several
 * prettier configurations, and over hand-written files that would tell the difference (leading
 * blank lines, directives, `#!`, comments at either end, embedded CSS, `prettier-ignore`).
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { emitFiles, type EmittedFile } from '../../src/emit/index.js';
import { canBatch, canJoin, joinTexts, splitFormatted } from '../../src/emit/prettier-batch.js';
import { createPrettierFormatter } from '../../src/emit/prettier.js';
import type { Descriptor } from '../../src/model/descriptor.js';
import { EmitError } from '../../src/model/errors.js';
import { descriptor, formatEachAlone, hostileDescriptors, makeTempDir, removeTempDir } from './helpers.js';

const SOURCE = { baseUrl: 'https://schema.example.com/api', query: {} };

/** Configurations unlike each other and prettier's defaults, each in its own folder. */
const CONFIGS: Record<string, Record<string, unknown> | undefined> = {
  defaults: undefined,
  terse: { semi: false, singleQuote: false, printWidth: 40, trailingComma: 'none', quoteProps: 'consistent', bracketSpacing: false },
  tabs: { useTabs: true, tabWidth: 4, arrowParens: 'avoid', objectWrap: 'collapse' },
  crlf: { endOfLine: 'crlf', printWidth: 120, trailingComma: 'es5' },
  typescriptParser: { semi: false, overrides: [{ files: '*.ts', options: { parser: 'typescript' } }] },
};

let tempDir: string;
const folders = new Map<string, string>();

beforeAll(async () => {
  tempDir = await makeTempDir('prettier-batch');
  for (const [name, config] of Object.entries(CONFIGS)) {
    const dir = join(tempDir, name);
    await mkdir(dir, { recursive: true });
    if (config !== undefined) await writeFile(join(dir, '.prettierrc'), JSON.stringify(config));
    folders.set(name, dir);
  }
});

afterAll(async () => {
  await removeTempDir(tempDir);
});

/** The formatter's result, and how many files each of its prettier calls formatted. */
async function formatBatched(files: readonly EmittedFile[], outDir: string): Promise<{ files: EmittedFile[]; calls: number[] }> {
  const calls: number[] = [];
  const format = await createPrettierFormatter(outDir, { onFormatCall: (count) => calls.push(count) });
  return { files: await format(files), calls };
}

const word = fc.stringMatching(/^[A-Za-z][A-Za-z0-9_]{0,12}$/);
const anyText = fc.string({ maxLength: 30, unit: fc.constantFrom('a', 'Z', ' ', "'", '"', '`', '\\', '*/', '/*', '\n', '\u2028', '${', '// @schema-sync', 'é', '0') });
const arbitraryDescriptor = fc
  .record({
    name: fc.oneof(word, anyText.filter((s) => s.trim() !== '')),
    mNum: fc.nat(),
    schemaHash: anyText,
    actions: fc.array(fc.oneof(word, anyText), { maxLength: 12 }),
    hasTKey: fc.boolean(),
    hasEKey: fc.boolean(),
    hasOKey: fc.boolean(),
    hasCF: fc.boolean(),
    mToken: anyText,
    staticFilterFields: fc.array(fc.oneof(word, anyText), { maxLength: 12 }),
    desc: fc.option(anyText, { nil: undefined }),
  })
  .map(({ desc, ...fields }): Descriptor => descriptor({ ...fields, extra: desc === undefined ? {} : { desc } }));

describe('a batch of generated modules', () => {
  it('formats to the bytes of each module alone, under every configuration and target', async () => {
    await fc.assert(
      // js+dts: the `.d.ts` and `.js` modules interleave in path order, each kind in batches of its own.
      fc.asyncProperty(fc.array(arbitraryDescriptor, { minLength: 2, maxLength: 30 }), fc.constantFrom(...Object.keys(CONFIGS)), fc.constantFrom('ts', 'js+dts'), async (messages, config, target) => {
        // Unique after mapping to identifiers (`'` and `` ` `` both become `_`): an index suffix.
        const numbered = messages.map((m, i) => ({ ...m, name: `${m.name}_${i}`, mNum: i }));
        const files = (await emitFiles({ messages: numbered, source: SOURCE, target: target as 'ts' | 'js+dts' })).filter((f) => f.path.startsWith('messages/'));
        const outDir = folders.get(config)!;
        const { files: batched, calls } = await formatBatched(files, outDir);
        expect(batched).toEqual(await formatEachAlone(files, outDir));
        // Batched indeed: fewer calls than files.
        expect(calls.length).toBeLessThan(files.length);
      }),
      { numRuns: 25 },
    );
  });

  it('does the same for the hostile descriptors and the shared files, which are formatted alone', async () => {
    const files = await emitFiles({ messages: hostileDescriptors(), source: SOURCE, package: 'acme-schema' });
    for (const outDir of folders.values()) {
      const { files: batched } = await formatBatched(files, outDir);
      expect(batched).toEqual(await formatEachAlone(files, outDir));
    }
  });
});

/** Files that differ from a plain module where a batch could differ from formatting alone. */
const TRICKY: EmittedFile[] = [
  { path: 'messages/A.ts', text: 'export const a = {b:1}\n' },
  { path: 'messages/Blank.ts', text: '\n\nexport const blank = 1\n' },
  { path: 'messages/Directive.ts', text: '// banner\n"use strict"\nexport const d = "x"\n' },
  { path: 'messages/Shebang.ts', text: '#!/usr/bin/env node\nexport const s = 1\n' },
  { path: 'messages/TrailingComment.ts', text: 'export const t = [1,2,3]\n// the end\n' },
  { path: 'messages/Trailing.ts', text: 'export const u = 1\n\n\n' },
  { path: 'messages/Css.ts', text: 'const css = (s: TemplateStringsArray) => s;\nexport const style = css`a{color:red}`;\n' },
  { path: 'messages/Ignore.ts', text: '// prettier-ignore\nexport const m = [1,0,0,\n  0,1,0]\n' },
  { path: 'messages/OnlyComment.ts', text: '// nothing here\n' },
  { path: 'messages/Empty.ts', text: '' },
  { path: 'messages/Boundary.ts', text: '// @schema-sync-file-boundary\nexport const w = 1\n' },
  { path: 'messages/Crlf.ts', text: 'export const c = 1\r\nexport const e = 2\r\n' },
  { path: 'messages/Jsdoc.ts', text: '/**\n * Doc.\n */\nexport const j = {  }\n' },
  { path: 'messages/Z.ts', text: "export type Z = 'z'\n" },
  { path: 'messages/A.js', text: 'export const a = {b:1}\n' },
  { path: 'messages/Directive.js', text: '"use strict"\nexport const d = "x"\n' },
  { path: 'messages/Jsdoc.js', text: '/** @type {number} */\nexport const j = 1\n' },
];

describe('files that would tell a batch from formatting alone', () => {
  it('format to the bytes of each file alone, whatever their order', async () => {
    await fc.assert(
      fc.asyncProperty(fc.shuffledSubarray(TRICKY, { minLength: 1 }), fc.constantFrom(...Object.keys(CONFIGS)), async (files, config) => {
        const outDir = folders.get(config)!;
        expect((await formatBatched(files, outDir)).files).toEqual(await formatEachAlone(files, outDir));
      }),
      { numRuns: 40 },
    );
  });

  it('are kept out of batches where joining them could change a byte', () => {
    const joinable = new Set(TRICKY.filter((f) => canJoin(f.text)).map((f) => f.path));
    expect([...joinable].sort()).toEqual(['messages/A.js', 'messages/A.ts', 'messages/Css.ts', 'messages/Ignore.ts', 'messages/Jsdoc.js', 'messages/Jsdoc.ts', 'messages/TrailingComment.ts', 'messages/Z.ts']);
  });

  it('name the file prettier cannot format, as formatting alone does', async () => {
    const files = [TRICKY[0]!, { path: 'messages/Broken.ts', text: 'export const = ;\n' }, TRICKY.find((f) => f.path === 'messages/Z.ts')!];
    const failed = formatBatched(files, folders.get('defaults')!);
    await expect(failed).rejects.toBeInstanceOf(EmitError);
    await expect(failed).rejects.toThrow(/Prettier could not format messages\/Broken\.ts/);
  });
});

describe('canBatch', () => {
  it('accepts options that shape statement by statement, and nothing else', () => {
    expect(canBatch({ parser: 'babel-ts', semi: false, printWidth: 40, endOfLine: 'crlf' })).toBe(true);
    expect(canBatch({ parser: 'typescript', plugins: undefined })).toBe(true);
    // babel: the `.js` modules of js+dts (prettier's own parser for them, named by resolveOptions).
    expect(canBatch({ parser: 'babel' })).toBe(true);
    expect(canBatch({ parser: 'flow' })).toBe(false);
    expect(canBatch({ parser: 'json' })).toBe(false);
    expect(canBatch({ parser: 'babel-ts', plugins: ['prettier-plugin-x'] })).toBe(false);
    for (const key of ['requirePragma', 'insertPragma', 'checkIgnorePragma', 'rangeStart', 'rangeEnd', 'cursorOffset', 'somethingNew']) {
      expect(canBatch({ parser: 'babel-ts', [key]: 1 }), key).toBe(false);
    }
  });
});

describe('splitFormatted', () => {
  it('gives up unless the text cuts into exactly the files joined', () => {
    const joined = joinTexts(['a\n', 'b\n', 'c\n']);
    expect(splitFormatted(joined, 3)).toEqual(['a\n', 'b\n', 'c\n']);
    expect(splitFormatted(joined, 2)).toBeUndefined();
    expect(splitFormatted(joined.replace('a\n', 'a'), 3)).toBeUndefined();
  });
});
