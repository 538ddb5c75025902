/**
 * Drift impact (issue 28) at the library seam: the consumer's own project type-checked against
 * the old and the new generated output, in memory, each new error tied to the message type
 * (and field) whose change caused it.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { emitFiles, type EmittedFile } from '../../src/emit/index.js';
import { ts } from 'ts-morph';
import { impact, impactKind, type ImpactResult } from '../../src/impact/impact.js';
import { LibFiles } from '../../src/impact/overlay-host.js';
import type { Descriptor } from '../../src/model/descriptor.js';
import { ConfigError } from '../../src/model/errors.js';
import { readTree, removeDir, tempDir } from '../helpers/cli.js';
import { AFTER, BEFORE, CONSUMER, writeConsumer } from './evolution.js';

const SOURCE = { baseUrl: 'http://127.0.0.1:1', query: {} } as const;
const output = (messages: Descriptor[], extra: { package?: string } = {}): Promise<EmittedFile[]> => emitFiles({ messages, source: SOURCE, fields: true, ...extra });

let dir: string;
beforeEach(async () => {
  dir = await tempDir('schema-sync-impact-');
});
afterEach(() => removeDir(dir));

/** The places of a message's broken uses, as `file:line code field`. */
const brokenOf = (result: ImpactResult, message: string) => result.messages[message]?.broken.map((b) => `${b.file}:${b.line} TS${b.code}${b.field === undefined ? '' : ` ${b.field}`}`);
const referencedOf = (result: ImpactResult, message: string) => result.messages[message]?.referenced.map((r) => `${r.file}:${r.line}${r.field === undefined ? '' : ` ${r.field}`}`);

describe('a consumer project beside the output folder', () => {
  it('ties each new error to its change, tells used from unused, and counts no error the project had before', async () => {
    await writeConsumer(dir);
    const result = impact({ project: join(dir, 'tsconfig.json'), outputRoot: join(dir, 'gen'), before: await output(BEFORE), after: await output(AFTER), root: dir });
    expect(result.projects).toEqual(['tsconfig.json']);
    expect(brokenOf(result, 'OldType')).toEqual(['src/old.ts:1 TS2305']);
    expect(brokenOf(result, 'Quote')).toEqual(['src/quotes.ts:4 TS2339 bidPrice', 'src/quotes.ts:11 TS2678 side']);
    expect(brokenOf(result, 'Trade')).toEqual(['src/trades.ts:3 TS2345 actions']);
    // Quote.mNum still compiles: referenced, not broken; UsedStill changed and is used.
    expect(referencedOf(result, 'Quote')).toContain('src/quotes.ts:17 mNum');
    expect(brokenOf(result, 'UsedStill')).toEqual([]);
    expect(referencedOf(result, 'UsedStill')).toEqual(['src/used.ts:3 name']);
    expect(impactKind(result.messages['UsedStill'])).toBe('referenced');
    // Changed and unused: no impact; unchanged: not listed at all.
    expect(result.messages['Unused']).toEqual({ broken: [], referenced: [] });
    expect(impactKind(result.messages['Unused'])).toBe('unused');
    expect(result.messages['Steady']).toBeUndefined();
    // src/own-error.ts fails with both outputs: not counted anywhere.
    expect(result.unattributed).toEqual([]);
    expect(JSON.stringify(result)).not.toContain('own-error');
    expect(result.messages['Quote']!.broken[0]).toMatchObject({ column: 17, message: "Property 'bidPrice' does not exist on type 'QuoteRecord'." });
  });

  it('reads the output folder from memory only and writes nothing', async () => {
    await writeConsumer(dir);
    // The folder on disk holds something else entirely: what counts is the output given.
    await mkdir(join(dir, 'gen'), { recursive: true });
    await writeFile(join(dir, 'gen/index.ts'), 'export const broken: number = "on disk";\n');
    const before = await readTree(dir);
    const result = impact({ project: join(dir, 'tsconfig.json'), outputRoot: join(dir, 'gen'), before: await output(BEFORE), after: await output(BEFORE), root: dir });
    expect(result.messages).toEqual({});
    expect(result.unattributed).toEqual([]);
    expect(await readTree(dir)).toEqual(before);
  });

  it('lists a new error it cannot tie to a message type as unattributed, never drops it', async () => {
    await writeConsumer(dir, {
      ...CONSUMER,
      'src/registry.ts': ["import { messageNames } from '../gen/index.js';", '', 'export const count: 6 = messageNames.length;', ''].join('\n'),
    });
    const result = impact({ project: join(dir, 'tsconfig.json'), outputRoot: join(dir, 'gen'), before: await output(BEFORE), after: await output(AFTER), root: dir });
    expect(result.unattributed.map((u) => `${u.file}:${u.line} TS${u.code}`)).toEqual(['src/registry.ts:3 TS2322']);
  });
});

describe('other shapes of consumer project', () => {
  it('a consumer of the generated package installed under node_modules', async () => {
    const files = {
      'tsconfig.json': JSON.stringify({ compilerOptions: { strict: true, module: 'nodenext', target: 'es2022', lib: ['es2022'], noEmit: true }, include: ['src'] }),
      'package.json': JSON.stringify({ name: 'app', private: true, type: 'module' }),
      'src/app.ts': ["import { Trade, type QuoteRecord } from '@acme/schema';", '', "export const canDelete = Trade.actions.includes('delete');", 'export const bid = (r: QuoteRecord) => r.bidPrice;', ''].join('\n'),
    };
    await writeConsumer(dir, files);
    const result = impact({
      project: dir,
      outputRoot: join(dir, 'node_modules/@acme/schema'),
      before: await output(BEFORE, { package: '@acme/schema' }),
      after: await output(AFTER, { package: '@acme/schema' }),
      root: dir,
    });
    expect(brokenOf(result, 'Trade')).toEqual(['src/app.ts:3 TS2345 actions']);
    expect(brokenOf(result, 'Quote')).toEqual(['src/app.ts:4 TS2339 bidPrice']);
  });

  it('a tsconfig with references and extends: every referenced project is checked', async () => {
    await writeConsumer(dir, {
      'tsconfig.base.json': JSON.stringify({ compilerOptions: { strict: true, module: 'nodenext', target: 'es2022', lib: ['es2022'], noEmit: true } }),
      'tsconfig.json': JSON.stringify({ files: [], references: [{ path: './packages/app' }] }),
      'package.json': JSON.stringify({ name: 'mono', private: true, type: 'module' }),
      'packages/app/tsconfig.json': JSON.stringify({ extends: '../../tsconfig.base.json', include: ['src'] }),
      'packages/app/src/old.ts': ["import { OldType } from '../../../gen/index.js';", '', 'export const n = OldType.mNum;', ''].join('\n'),
    });
    const result = impact({ project: join(dir, 'tsconfig.json'), outputRoot: join(dir, 'gen'), before: await output(BEFORE), after: await output(AFTER), root: dir });
    expect(result.projects).toEqual(['tsconfig.json', 'packages/app/tsconfig.json']);
    expect(brokenOf(result, 'OldType')).toEqual(['packages/app/src/old.ts:1 TS2305']);
  });

  it('a JavaScript consumer with checkJs', async () => {
    await writeConsumer(dir, {
      'tsconfig.json': JSON.stringify({ compilerOptions: { allowJs: true, checkJs: true, strict: true, module: 'nodenext', target: 'es2022', lib: ['es2022'], noEmit: true }, include: ['src'] }),
      'package.json': JSON.stringify({ name: 'js-app', private: true, type: 'module' }),
      'src/use.js': [
        "import { Trade } from '../gen/index.js';",
        '',
        "export const canDelete = Trade.actions.includes('delete');",
        "/** @param {import('../gen/index.js').QuoteRecord} r */",
        'export const bid = (r) => r.bidPrice;',
        "/** @param {import('../gen/index.js').UsedStillRecord} r */",
        'export const keep = (r) => r;',
        '',
      ].join('\n'),
    });
    const result = impact({ project: join(dir, 'tsconfig.json'), outputRoot: join(dir, 'gen'), before: await output(BEFORE), after: await output(AFTER), root: dir });
    expect(brokenOf(result, 'Trade')).toEqual(['src/use.js:3 TS2345 actions']);
    expect(brokenOf(result, 'Quote')).toEqual(['src/use.js:5 TS2339 bidPrice']);
    // A type named only in JSDoc is a use: a change of it is referenced, not "not used".
    expect(referencedOf(result, 'UsedStill')).toEqual(['src/use.js:6']);
  });

  it('a library of the consumer compiled to declaration files: its values followed by their types', async () => {
    await writeConsumer(dir, {
      'tsconfig.json': JSON.stringify({ compilerOptions: { strict: true, module: 'nodenext', target: 'es2022', lib: ['es2022'], noEmit: true, skipLibCheck: true }, include: ['src'] }),
      'package.json': JSON.stringify({ name: 'app', private: true, type: 'module' }),
      'node_modules/quote-lib/package.json': JSON.stringify({ name: 'quote-lib', type: 'module', types: 'index.d.ts' }),
      'node_modules/quote-lib/index.d.ts': ["import type { QuoteRecord } from '../../gen/index.js';", "export declare function sideOf(r: unknown): NonNullable<QuoteRecord['side']>;", ''].join('\n'),
      'src/use.ts': ["import { sideOf } from 'quote-lib';", 'export function name(x: unknown): number {', '  switch (sideOf(x)) {', "    case 'Sell':", '      return 1;', '  }', '  return 0;', '}', ''].join('\n'),
    });
    const result = impact({ project: join(dir, 'tsconfig.json'), outputRoot: join(dir, 'gen'), before: await output(BEFORE), after: await output(AFTER), root: dir });
    expect(result.unattributed).toEqual([]);
    expect(brokenOf(result, 'Quote')).toEqual(['src/use.ts:4 TS2678 side']);
  });

  it('a missing tsconfig is a CONFIG error that says what to name', async () => {
    let error: unknown;
    try {
      impact({ project: join(dir, 'nope/tsconfig.json'), outputRoot: join(dir, 'gen'), before: [], after: [], root: dir });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ConfigError);
    expect(String((error as Error).message)).toBe(`--impact: no TypeScript project at ${join(dir, 'nope/tsconfig.json')}`);
    expect((error as ConfigError).hint).toMatch(/Name the tsconfig\.json of a project that imports the generated code/);
  });
});

describe("TypeScript's lib files", () => {
  it('are parsed once a process for each way a program reads them, and shared by every check', () => {
    const libs = LibFiles.shared();
    expect(LibFiles.shared()).toBe(libs);
    const path = `${LibFiles.folder}/lib.es2022.d.ts`;
    const es2022 = { languageVersion: ts.ScriptTarget.ES2022 };
    const parsed = libs.sourceFile(path, es2022, {});
    expect(parsed?.text).toBe(libs.textOf(path));
    expect(libs.sourceFile(path, { ...es2022 }, {})).toBe(parsed);
    expect(libs.sourceFile(path, { languageVersion: ts.ScriptTarget.ES2020 }, {})).not.toBe(parsed);
    expect(libs.sourceFile(path, es2022, { moduleDetection: ts.ModuleDetectionKind.Force })).not.toBe(parsed);
    expect(libs.sourceFile(`${LibFiles.folder}/nope.d.ts`, es2022, {})).toBeUndefined();
  });
});
