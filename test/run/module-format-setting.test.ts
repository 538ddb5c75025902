/**
 * The moduleFormat setting as a generation setting (given over recorded, recorded only when not
 * `esm`, compared, resolved for the plan), and what it changes in the plan with the `ts` target:
 * `commonjs` the folder's package.json type and nothing else, `mts` the files' extensions and
 * import specifiers and nothing else (the `js+dts` target is ES modules whatever it says).
 */
import { describe, expect, it } from 'vitest';
import { emitFiles, type EmitOptions } from '../../src/emit/index.js';
import type { GenerationSettings } from '../../src/model/lockfile.js';
import { makeField } from '../../src/model/field.js';
import { outputSettings, settingsDiffer, settingsOver } from '../../src/run/run-context.js';

const paths = { cwd: '/p', outDir: '/p/out', lockfilePath: '/p/schema-sync.lock.json' };

describe('the moduleFormat setting', () => {
  const rows: { name: string; recorded: GenerationSettings; given: Parameters<typeof settingsOver>[1]; want: GenerationSettings }[] = [
    { name: 'nothing recorded, nothing given: nothing recorded', recorded: {}, given: {}, want: {} },
    { name: 'given: recorded', recorded: {}, given: { moduleFormat: 'commonjs' }, want: { moduleFormat: 'commonjs' } },
    { name: 'not given: as recorded', recorded: { moduleFormat: 'commonjs' }, given: {}, want: { moduleFormat: 'commonjs' } },
    { name: 'the default given: the record cleared', recorded: { moduleFormat: 'commonjs' }, given: { moduleFormat: 'esm' }, want: {} },
  ];
  it.each(rows)('$name', ({ recorded, given, want }) => {
    expect(settingsOver(recorded, given)).toEqual(want);
  });

  it('another format than the recorded one differs; the default against none does not', () => {
    expect(settingsDiffer({}, { moduleFormat: 'commonjs' })).toEqual([{ setting: 'moduleFormat', recorded: undefined, given: 'commonjs' }]);
    expect(settingsDiffer({}, { moduleFormat: 'esm' })).toEqual([]);
    expect(settingsDiffer({ moduleFormat: 'commonjs' }, {})).toEqual([]);
  });

  it('is resolved for the plan: esm when none is recorded', () => {
    expect(outputSettings(paths, {}).moduleFormat).toBe('esm');
    expect(outputSettings(paths, { moduleFormat: 'commonjs' }).moduleFormat).toBe('commonjs');
  });
});

describe('the module format in the output', () => {
  const messages = [{ name: 'Order', mNum: 1, schemaHash: 'A', extra: {} }];
  const filesOf = async (options: Partial<EmitOptions>) => new Map((await emitFiles({ messages, source: { query: {} }, ...options })).map((file) => [file.path, file.text]));
  const typeOf = (files: Map<string, string>) => (JSON.parse(files.get('package.json')!) as { type: string }).type;

  it.each([
    { name: 'no package, esm (default): "type": "module"', options: {}, type: 'module' },
    { name: 'no package, commonjs: "type": "commonjs"', options: { moduleFormat: 'commonjs' }, type: 'commonjs' },
    { name: 'a package of .ts sources, commonjs: "type": "commonjs"', options: { package: 'p', target: 'ts', moduleFormat: 'commonjs' }, type: 'commonjs' },
    { name: 'a package of ES modules (js+dts): "type": "module" whatever the format', options: { package: 'p', moduleFormat: 'commonjs' }, type: 'module' },
    { name: 'no package, mts: "type": "module"', options: { moduleFormat: 'mts' }, type: 'module' },
  ] as const)('$name', async ({ options, type }) => {
    expect(typeOf(await filesOf(options))).toBe(type);
  });

  it('mts: the same modules as .mts files, importing each other as .mjs', async () => {
    const [esm, mts] = await Promise.all([filesOf({}), filesOf({ moduleFormat: 'mts' })]);
    expect([...mts.keys()]).toEqual(['.gitattributes', 'index.mts', 'messages/Order.mts', 'package.json', 'types.mts']);
    for (const [path, text] of esm) {
      const mtsPath = path.replace(/\.ts$/, '.mts');
      expect(mts.get(mtsPath), mtsPath).toBe(text.replace(/(from '\.{1,2}\/[\w/]+)\.js'/g, "$1.mjs'"));
    }
    expect(mts.get('index.mts')).toContain("export { Order } from './messages/Order.mjs';");
  });

  it('mts with record types (fields): every import names the .mjs file', async () => {
    const withFields = [{ ...messages[0]!, fields: [makeField({ name: 'tk', fType: 'TickerKey', isPkey: true }, {}), makeField({ name: 'qty', fType: 'Long' }, {})] }];
    const files = await emitFiles({ messages: withFields, source: { query: {} }, moduleFormat: 'mts', fields: true });
    const specifiers = files.flatMap((file) => [...file.text.matchAll(/from '([^']+)'/g)].map((m) => `${file.path}: ${m[1]}`));
    expect(new Set(specifiers)).toEqual(
      new Set(['index.mts: ./types.mjs', 'index.mts: ./messages/Order.mjs', 'index.mts: ./records-runtime.mjs', 'messages/Order.mts: ../types.mjs', 'messages/Order.mts: ../records-runtime.mjs', 'types.mts: ./records-runtime.mjs']),
    );
  });

  it('changes nothing but package.json: the same source compiles to either format', async () => {
    const [esm, commonjs] = await Promise.all([filesOf({}), filesOf({ moduleFormat: 'commonjs' })]);
    expect([...commonjs.keys()]).toEqual([...esm.keys()]);
    expect([...commonjs].filter(([path, text]) => esm.get(path) !== text).map(([path]) => path)).toEqual(['package.json']);
    expect(commonjs.get('package.json')).toBe(
      '{\n  "//": "Generated by schema-sync, do not edit: makes the files of this folder CommonJS in any project.",\n  "type": "commonjs"\n}\n',
    );
  });
});
