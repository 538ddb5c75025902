/**
 * Record types (fields on): what each field type becomes, hostile field names and values, the
 * checks before anything is emitted, and the output under tsc --strict (one tsc run).
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { emitFiles, plan as planFiles, planSettingsKey } from '../../src/emit/index.js';
import type { Int64Type } from '../../src/model/lockfile.js';
import type { EmitOptions } from '../../src/emit/index.js';

const planOutput = ({ messages, source, ...settings }: EmitOptions) => planFiles({ messages, source }, settings);
import type { Descriptor } from '../../src/model/descriptor.js';
import { EmitError, LockError } from '../../src/model/errors.js';
import { FIELD_TYPES, makeField, type FieldDescriptor } from '../../src/model/field.js';
import { descriptor, HOSTILE_NAMES, makeTempDir, removeTempDir, runTsc, shuffled, writeEmitted } from './helpers.js';

const field = (name: string, fType: string | undefined, more: Partial<FieldDescriptor> = {}): FieldDescriptor =>
  makeField({ name, fType, ...more }, {});

/** One field of every type, in `pos` order, plus enums, flags and types the service may send. */
const EVERY_TYPE: FieldDescriptor[] = [
  ...FIELD_TYPES.filter((type) => type !== 'Repeater').map((type, i) => field(`f${type}`, type, { pos: i + 1 })),
  field('side', 'Enum', { pos: 30, eSet: ['Buy', 'Sell', 'Buy'], isPkey: true }),
  field('noValues', 'Flag', { pos: 31, eSet: [] }),
  field('flagged', 'Flag', { pos: 32, eSet: ['Halted', 'Closing'] }),
  field('legs', 'Repeater', { pos: 40, desc: 'The legs.' }),
  field('legQty', 'Int', { pos: 41, inRepeater: 'legs' }),
  field('legKey', 'OptionKey', { pos: 42, inRepeater: 'legs', isPkey: true }),
  field('novel', 'Decimal128', { pos: 50 }),
  field('untyped', undefined, { pos: 51 }),
  field('fNone', 'None', { pos: 52 }),
  field('orphanQty', 'Int', { pos: 60, inRepeater: 'fills' }),
];

const order = descriptor({ name: 'Order', mNum: 1, fields: EVERY_TYPE });

async function moduleText(d: Descriptor): Promise<string> {
  const files = await emitFiles({ messages: [d], source: { query: {} }, fields: true });
  return files.find((file) => file.path.startsWith('messages/'))!.text;
}

describe('record types', () => {
  it('types each field from its fType', async () => {
    const text = await moduleText(order);
    const expected: Record<string, string> = {
      fString: 'string', fText1: 'string', fText2: 'string', fByte: 'number', fShort: 'number', fUShort: 'number', fInt: 'number', fUInt: 'number',
      fLong: 'number', fULong: 'number', fFloat: 'number', fDouble: 'number', fEnum: 'string', fFlag: 'string', fDateTime: 'string',
      fTimeSpan: 'string | number', fDateKey: 'string', fTickerKey: 'TickerKey', fExpiryKey: 'ExpiryKey', fOptionKey: 'OptionKey',
      pkey: 'OrderPKey', noValues: 'string', flagged: "'Halted' | 'Closing' | (string & {})", fNone: 'unknown', legs: 'readonly OrderLegsItem[]', novel: 'unknown', untyped: 'unknown', fills: 'readonly OrderFillsItem[]',
      legQty: 'number', legKey: 'OptionKey', orphanQty: 'number',
    };
    for (const [name, type] of Object.entries(expected)) expect(text, name).toContain(`  ${name}?: ${type};\n`);
    expect(text).toContain("import type { ExpiryKey, MessageDescriptor, OptionKey, TickerKey, UnknownEnumName } from '../types.js';");
    // An enum's names, and the case of a name the lockfile does not list (drift, kept by the parser).
    expect(text).toContain('export interface OrderPKey {\n  side: \'Buy\' | \'Sell\' | UnknownEnumName;\n}');
    expect(text).toContain('export interface OrderLegsItem {');
    expect(text).toContain('`Long`: a 64-bit integer. Values beyond 2^53');
    expect(text).toContain("Field type 'Decimal128' is unknown to this schema-sync: typed `unknown`.");
    expect(text).toContain('Field type `None`: typed `unknown`.');
    // A key field is in pkey only.
    expect(text).not.toMatch(/^  side\?:/m);
  });

  it('gives the same bytes for fields in any order, and none without fields on', async () => {
    const text = await moduleText(order);
    expect(await moduleText({ ...order, fields: shuffled(EVERY_TYPE, 7) })).toBe(text);
    const off = await emitFiles({ messages: [order], source: { query: {} } });
    expect(off).toEqual(await emitFiles({ messages: [{ ...order, fields: undefined }], source: { query: {} } }));
    expect(off.map((file) => file.text).join('')).not.toContain('Record');
  });

  it('refuses fields on without recorded fields, record types that clash and a field beside pkey named pkey, before emitting or planning', async () => {
    const bare = descriptor({ name: 'Bare', mNum: 2 });
    for (const work of [() => emitFiles({ messages: [order, bare], source: { query: {} }, fields: true }), () => planOutput({ messages: [order, bare], source: { query: {} }, fields: true })]) {
      await expect(work()).rejects.toThrow(LockError);
      await expect(work()).rejects.toThrow(/no field descriptors for 1 message type \("Bare"\)/);
    }
    const pkeyField = descriptor({ name: 'Keyed', mNum: 4, fields: [field('id', 'Int', { isPkey: true }), field('pkey', 'String')] });
    await expect(planOutput({ messages: [pkeyField], source: { query: {} }, fields: true })).rejects.toThrow(
      'Message type "Keyed" has a field or repeating group named "pkey" besides its key fields, which records hold under "pkey".',
    );
    const unkeyed = descriptor({ name: 'Unkeyed', mNum: 5, fields: [field('pkey', 'String')] });
    expect((await moduleText(unkeyed)).includes('  pkey?: string;\n')).toBe(true);
    const clash = descriptor({ name: 'OrderRecord', mNum: 3, fields: [] });
    await expect(emitFiles({ messages: [order, clash], source: { query: {} }, fields: true })).rejects.toThrow(EmitError);
    await expect(planOutput({ messages: [order, clash], source: { query: {} }, fields: true })).rejects.toThrow(
      'The record type OrderRecord of message type "Order" clashes with the constant of message type "OrderRecord".',
    );
    // The checks come in one order, whichever type is first and whatever else is wrong: names
    // before a field named pkey, both before the templates are read.
    const keyedFirst = descriptor({ name: 'AKeyed', mNum: 6, fields: pkeyField.fields! });
    for (const more of [{}, { templatesDir: '/nonexistent-templates' }]) {
      await expect(planOutput({ messages: [keyedFirst, order, clash], source: { query: {} }, fields: true, ...more })).rejects.toThrow('The record type OrderRecord of message type "Order" clashes');
    }
    await expect(planOutput({ messages: [keyedFirst], source: { query: {} }, fields: true, templatesDir: '/nonexistent-templates' })).rejects.toThrow('Message type "AKeyed" has a field');
  });

  it('plans the index anew when a type gains a primary key, and every file anew when fields are turned on', async () => {
    const plan = (d: Descriptor, fields?: boolean) => planOutput({ messages: [d], source: { query: {} }, fields });
    const index = async (d: Descriptor) => (await plan(d, true)).find((file) => file.path === 'index.ts')!.input;
    const noKey = { ...order, fields: EVERY_TYPE.map((f) => ({ ...f, isPkey: false })) };
    expect(await index(noKey)).not.toBe(await index(order));
    const inputs = async (fields?: boolean) => new Map((await plan(order, fields)).map((file) => [file.path, file.input]));
    const [withFields, without] = [await inputs(true), await inputs()];
    for (const path of ['index.ts', 'messages/Order.ts', 'types.ts']) expect(withFields.get(path), path).not.toBe(without.get(path));
  });

  it('plans anew, for another int64 setting, the modules with a 64-bit field only, and the plan key with them', async () => {
    const plain = descriptor({ name: 'Plain', mNum: 9, fields: [field('qty', 'Int')] });
    const inputs = async (int64?: Int64Type) =>
      new Map((await planOutput({ messages: [order, plain], source: { query: {} }, fields: true, ...(int64 === undefined ? {} : { int64 }) })).map((file) => [file.path, file.input]));
    const [unset, number, bigint] = [await inputs(), await inputs('number'), await inputs('bigint')];
    expect(number).toEqual(unset);
    expect([...bigint].filter(([path, input]) => number.get(path) !== input).map(([path]) => path)).toEqual(['messages/Order.ts']);
    const key = (int64: Int64Type) => planSettingsKey({ fields: true, int64 }, undefined);
    expect(await key('string')).not.toBe(await key('number'));
    // Without fields nothing reads it.
    expect(await planSettingsKey({ int64: 'string' }, undefined)).toBe(await planSettingsKey({}, undefined));
  });

  it('refuses an int64 setting it does not know (a JavaScript caller)', async () => {
    await expect(planOutput({ messages: [order], source: { query: {} }, fields: true, int64: 'bignum' as Int64Type })).rejects.toThrow(
      expect.objectContaining({ code: 'CONFIG', message: 'The int64 setting "bignum" is not one schema-sync knows.', hint: 'Use one of number, bigint, string.' }),
    );
  });
});

/**
 * Hostile field names, values and descriptions, on hostile message names. Not the names of
 * `Object.prototype` members: TypeScript compares an object literal's inherited `constructor`
 * (a Function) with such a property, so no record literal could be assigned.
 */
function hostileRecords(): Descriptor[] {
  const names = HOSTILE_NAMES.filter((name) => !['constructor', 'toString', 'hasOwnProperty'].includes(name));
  return names.slice(0, 6).map((messageName, i) =>
    descriptor({
      name: messageName,
      mNum: i,
      fields: [
        ...names.map((name, pos) => field(name, pos % 2 === 0 ? 'Enum' : 'String', { pos, eSet: [...HOSTILE_NAMES.slice(0, 5), "it's", '*/', '\u2028x'], desc: `d */ globalThis.pwned=1; /*\n@deprecated ${name}` })),
        field("grp'*/", 'Repeater', { pos: 100 }),
        field('__proto__', 'Int', { pos: 101, inRepeater: "grp'*/", isPkey: true }),
      ],
    }),
  );
}

const CONSUMER = `
import type { OrderRecord, OrderPKey, RecordByName, MessageRecords, TickerKey, UnknownEnumName } from './out/index.js';
import type { _classRecord } from './hostile/index.js';
import type { OrderRecord as JsOrderRecord, RecordByName as JsRecordByName, TickerKey as JsTickerKey } from './out-js/index.js';

type Equal<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;
function assertType<T extends true>(): T | undefined {
  return undefined;
}

assertType<Equal<RecordByName<'Order'>, OrderRecord>>();
assertType<Equal<MessageRecords['Order'], OrderRecord>>();
assertType<Equal<OrderRecord['pkey'], OrderPKey | undefined>>();
assertType<Equal<NonNullable<OrderRecord['pkey']>['side'], 'Buy' | 'Sell' | UnknownEnumName>>();
assertType<Equal<OrderPKey, { side: 'Buy' | 'Sell' | UnknownEnumName }>>();
assertType<Equal<NonNullable<OrderRecord['legs']>[number]['legQty'], number | undefined>>();
assertType<Equal<OrderRecord['fTickerKey'], TickerKey | undefined>>();
// The js+dts target declares the same record types in its .d.ts files.
assertType<Equal<JsRecordByName<'Order'>, JsOrderRecord>>();
assertType<Equal<NonNullable<JsOrderRecord['pkey']>['side'], NonNullable<OrderRecord['pkey']>['side']>>();
assertType<Equal<JsOrderRecord['fTickerKey'], JsTickerKey | undefined>>();
export const hostile: _classRecord = { 'line\\nbreak': "it's", class: '*/', default: 'x' };
// @ts-expect-error not one of the enum values
export const wrong: OrderRecord = { pkey: { side: 'Hold' } };
`;

let dir: string;
let compiled: { code: number | null; output: string };

beforeAll(async () => {
  dir = await makeTempDir('records');
  await writeEmitted(join(dir, 'out'), await emitFiles({ messages: [order], source: { query: {} }, fields: true }));
  await writeEmitted(join(dir, 'out-js'), await emitFiles({ messages: [order], source: { query: {} }, fields: true, target: 'js+dts' }));
  await writeEmitted(join(dir, 'hostile'), await emitFiles({ messages: hostileRecords(), source: { query: {} }, fields: true }));
  await writeFile(join(dir, 'consumer.ts'), CONSUMER);
  await writeFile(join(dir, 'package.json'), JSON.stringify({ type: 'module' }));
  const compilerOptions = { strict: true, exactOptionalPropertyTypes: true, noUncheckedIndexedAccess: true, verbatimModuleSyntax: true, isolatedModules: true, module: 'nodenext', moduleResolution: 'nodenext', target: 'es2022', lib: ['es2022'], types: [], noEmit: true, skipDefaultLibCheck: true };
  await writeFile(join(dir, 'tsconfig.json'), JSON.stringify({ compilerOptions, include: ['**/*.ts'] }));
  compiled = await runTsc(join(dir, 'tsconfig.json'));
}, 60_000);
afterAll(() => removeTempDir(dir));

describe('record types under tsc --strict', () => {
  it('compile, hostile names and values included, with the types the consumer expects', () => {
    expect(compiled.output).toBe('');
    expect(compiled.code).toBe(0);
  });
});

describe('record types of the js+dts target', () => {
  it('are types only: the .js files run as plain JavaScript and hold no type syntax', async () => {
    const index = (await import(pathToFileURL(join(dir, 'out-js/index.js')).href)) as { messages: Record<string, { mNum: number }> };
    expect(index.messages['Order']?.mNum).toBe(order.mNum);
  });
});
