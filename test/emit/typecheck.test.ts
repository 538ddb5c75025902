/**
 * The generated output as a consumer sees it: type-checked by the project's `tsc` under
 * `module: nodenext` and under `moduleResolution: bundler` (also as a package through
 * `node_modules`), with literal types asserted at the type level, then imported at run time.
 * Both targets: the `js+dts` output of each listing must declare exactly the types of its `ts`
 * output (a type-level identity of the two modules' exports) and hold the same values.
 *
 * One temp project holds the example listing, the hostile one, an older deployment's and a mixed
 * one (the first two and the mixed one in both targets), so each configuration costs one `tsc`
 * run; both runs go in parallel.
 */
import { mkdir, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { emitFiles } from '../../src/emit/index.js';
import type { Descriptor } from '../../src/model/descriptor.js';
import {
  hostileDescriptors,
  loadExampleDescriptors,
  makeTempDir,
  removeTempDir,
  writeEmitted,
} from './helpers.js';
import { compileProjects, type TscResult } from '../helpers/tsc.js';

const EXAMPLE_CONSUMER = `
import {
  AccountRiskRecordV5,
  AggregateCount,
  messages,
  messagesByNumber,
  messageNames,
  type KnownMessageAction,
  type MessageAction,
  type MessageByName,
  type MessageByNumber,
  type MessageDescriptor,
  type MessageName,
  type MessageNumber,
  type MessageToken,
} from './example/index.js';

type Equal<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;
function assertType<T extends true>(): T | undefined {
  return undefined;
}

export const n: 1000 = AccountRiskRecordV5.mNum;
export const nameLiteral: 'AccountRiskRecordV5' = messagesByNumber[1000].name;
export const token: 'ClientRisk' = AccountRiskRecordV5.mToken;
export const hash: '01DBE4F471A65AC0' = AccountRiskRecordV5.schemaHash;
assertType<Equal<typeof AccountRiskRecordV5.actions, readonly ['select', 'insert', 'update', 'replace', 'delete']>>();
assertType<Equal<typeof AggregateCount.actions, readonly ['select']>>();
assertType<Equal<typeof AccountRiskRecordV5.hasTKey, true>>();
assertType<Equal<typeof AccountRiskRecordV5.hasOKey, false>>();
assertType<Equal<typeof AggregateCount.staticFilterFields, readonly []>>();
assertType<
  Equal<typeof AccountRiskRecordV5.staticFilterFields, readonly ['accnt', 'currency', 'tradeDate', 'riskSession', 'clientFirm']>
>();
assertType<Equal<MessageByName<'AccountRiskRecordV5'>, typeof AccountRiskRecordV5>>();
assertType<Equal<MessageByNumber<1000>, typeof AccountRiskRecordV5>>();
assertType<Equal<(typeof messages)['AccountRiskRecordV5'], AccountRiskRecordV5>>();
assertType<Equal<(typeof messageNames)[0], 'AccountRiskRecordV5'>>();
assertType<Equal<MessageAction, KnownMessageAction>>();
assertType<Equal<'ClientRisk' extends MessageToken ? true : false, true>>();
assertType<Equal<string extends MessageName ? true : false, false>>();
assertType<Equal<number extends MessageNumber ? true : false, false>>();

export const someName: MessageName = 'AccountRiskRecordV5';
export const someNumber: MessageNumber = 1000;
export const asDescriptor: MessageDescriptor = AccountRiskRecordV5;
export const all: readonly MessageDescriptor[] = Object.values(messages);

// @ts-expect-error not a message type
messages['NoSuchType'];
// @ts-expect-error not a message name
export const badName: MessageName = 'NoSuchType';
// @ts-expect-error not a message number
export const badNumber: MessageNumber = 1;
// @ts-expect-error the constants are readonly
AccountRiskRecordV5.mNum = 1;
`;

const HOSTILE_CONSUMER = `
import { messages, messagesByNumber, _class, ___proto__, _u540D_u524D, type MessageName } from './hostile/index.js';

type Equal<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;
function assertType<T extends true>(): T | undefined {
  return undefined;
}

export const proto: '__proto__' = messages['__proto__'].name;
export const cls: 'class' = messages['class'].name;
export const passwd: '../../etc/passwd' = messages['../../etc/passwd'].name;
export const japanese: '名前' = _u540D_u524D.name;
export const byNumber: 'class' = messagesByNumber[0].name;
assertType<Equal<typeof _class, (typeof messages)['class']>>();
assertType<Equal<typeof ___proto__.name, '__proto__'>>();
assertType<Equal<typeof _class.actions, readonly ['select', 'X']>>();
export const names: MessageName[] = ['__proto__', 'constructor', 'toString', "'); globalThis.pwned=1; ('", '\${process.exit(1)}'];
`;

/** An older deployment sends no actions, tokens, CF or filter fields; a mixed listing some. */
const OLDER_CONSUMER = `
import { messages, OptionNbboQuote, type MessageAction, type MessageDescriptor, type MessageToken } from './older/index.js';
import { Full, type MessageAction as MixedAction, type MessageToken as MixedToken } from './mixed/index.js';

type Equal<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;
function assertType<T extends true>(): T | undefined {
  return undefined;
}

export const n: 2745 = OptionNbboQuote.mNum;
assertType<Equal<typeof OptionNbboQuote.hasTKey, true>>();
assertType<Equal<MessageAction, never>>();
assertType<Equal<MessageToken, never>>();
assertType<Equal<MixedAction, 'select' | 'delete'>>();
assertType<Equal<MixedToken, 'Tok'>>();
assertType<Equal<typeof Full.actions, readonly ['select', 'delete']>>();
// @ts-expect-error an older deployment sends no actions, so the constant has none
OptionNbboQuote.actions;
// A consumer handles an absent field.
export function actionsOf(descriptor: MessageDescriptor): readonly string[] {
  return descriptor.actions ?? [];
}
// @ts-expect-error actions may be absent
export const unchecked: readonly string[] = (messages.OptionNbboQuote as MessageDescriptor).actions;
export const all: readonly MessageDescriptor[] = Object.values(messages);
`;

/** The js+dts output of each listing declares exactly the types of its ts output. */
const SAME_TYPES_CONSUMER = `
import * as exampleTs from './example/index.js';
import * as exampleDts from './example-dts/index.js';
import * as hostileTs from './hostile/index.js';
import * as hostileDts from './hostile-dts/index.js';
import type * as ExampleTs from './example/index.js';
import type * as ExampleDts from './example-dts/index.js';
import * as mixedTs from './mixed/index.js';
import * as mixedDts from './mixed-dts/index.js';

type Equal<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;
function assertType<T extends true>(): T | undefined {
  return undefined;
}

assertType<Equal<typeof exampleTs, typeof exampleDts>>();
assertType<Equal<typeof hostileTs, typeof hostileDts>>();
assertType<Equal<typeof mixedTs, typeof mixedDts>>();
assertType<Equal<typeof exampleDts.AccountRiskRecordV5.mNum, 1000>>();
assertType<Equal<typeof exampleDts.AggregateCount.actions, readonly ['select']>>();
assertType<Equal<ExampleTs.MessageByName<'AccountRiskRecordV5'>, ExampleDts.MessageByName<'AccountRiskRecordV5'>>>();
assertType<Equal<ExampleTs.MessageByNumber<1000>, ExampleDts.MessageByNumber<1000>>>();
assertType<Equal<ExampleTs.MessageName, ExampleDts.MessageName>>();
assertType<Equal<ExampleTs.MessageNumber, ExampleDts.MessageNumber>>();
assertType<Equal<ExampleTs.MessageToken, ExampleDts.MessageToken>>();
assertType<Equal<ExampleTs.MessageAction, ExampleDts.MessageAction>>();
assertType<Equal<ExampleTs.MessageDescriptor, ExampleDts.MessageDescriptor>>();
assertType<Equal<ExampleTs.AccountRiskRecordV5, ExampleDts.AccountRiskRecordV5>>();
// The check itself tells types apart: a widened literal is not the same type.
assertType<Equal<Equal<typeof exampleDts.AccountRiskRecordV5.mNum, number>, false>>();
`;

const PACKAGE_CONSUMER = `
import { AccountRiskRecordV5, messages, type MessageName } from '@acme/schema';

export const n: 1000 = AccountRiskRecordV5.mNum;
export const viaRegistry: 1000 = messages['AccountRiskRecordV5'].mNum;
export const name: MessageName = 'AccountRiskRecordV5';
`;

/** Strict settings a demanding consumer may use; the output must pass all of them. */
const STRICT = {
  strict: true,
  noUncheckedIndexedAccess: true,
  exactOptionalPropertyTypes: true,
  noImplicitOverride: true,
  noPropertyAccessFromIndexSignature: true,
  noImplicitReturns: true,
  noFallthroughCasesInSwitch: true,
  isolatedModules: true,
  verbatimModuleSyntax: true,
  erasableSyntaxOnly: true,
  forceConsistentCasingInFileNames: true,
  target: 'es2022',
  lib: ['es2022'],
  types: [],
  // TypeScript's own lib files are not what is tested (the generated .d.ts files are still checked).
  skipDefaultLibCheck: true,
};

let dir: string;
let example: Descriptor[];
let hostile: Descriptor[];
let older: Descriptor[];
let results: { nodenext: TscResult; bundler: TscResult };

beforeAll(async () => {
  dir = await makeTempDir('typecheck');
  example = await loadExampleDescriptors();
  hostile = hostileDescriptors();
  const source = { baseUrl: 'https://schema.example.com/api', query: {} };
  const hostileSource = { baseUrl: 'https://h.example/x\n globalThis.pwned = 1; //*/\u2028', query: {} };
  const exampleFiles = await emitFiles({ messages: example, source, package: '@acme/schema', target: 'ts' });
  await writeEmitted(join(dir, 'example'), exampleFiles);
  await writeEmitted(join(dir, 'hostile'), await emitFiles({ messages: hostile, source: hostileSource }));
  older = await loadExampleDescriptors('older-deployment.json');
  const full: Descriptor = { name: 'Full', mNum: 1, schemaHash: 'F', actions: ['select', 'delete'], mToken: 'Tok', extra: {} };
  await writeEmitted(join(dir, 'older'), await emitFiles({ messages: older, source }));
  await writeEmitted(join(dir, 'mixed'), await emitFiles({ messages: [...older, full], source }));
  await writeEmitted(join(dir, 'example-dts'), await emitFiles({ messages: example, source, target: 'js+dts' }));
  await writeEmitted(join(dir, 'hostile-dts'), await emitFiles({ messages: hostile, source: hostileSource, target: 'js+dts' }));
  await writeEmitted(join(dir, 'mixed-dts'), await emitFiles({ messages: [...older, full], source, target: 'js+dts' }));
  // The same output, installed as a package the way npm installs a folder (a `file:` dependency
  // or a workspace): a link in node_modules, resolved through the package's package.json.
  await mkdir(join(dir, 'node_modules/@acme'), { recursive: true });
  await symlink(join(dir, 'example'), join(dir, 'node_modules/@acme/schema'));

  await writeFile(join(dir, 'package.json'), JSON.stringify({ name: 'consumer', private: true, type: 'module' }));
  await writeFile(join(dir, 'consumer-example.ts'), EXAMPLE_CONSUMER);
  await writeFile(join(dir, 'consumer-hostile.ts'), HOSTILE_CONSUMER);
  await writeFile(join(dir, 'consumer-older.ts'), OLDER_CONSUMER);
  await writeFile(join(dir, 'consumer-package.ts'), PACKAGE_CONSUMER);
  await writeFile(join(dir, 'consumer-same-types.ts'), SAME_TYPES_CONSUMER);
  const include = ['*.ts', ...['example', 'hostile', 'older', 'mixed', 'example-dts', 'hostile-dts', 'mixed-dts'].map((folder) => `${folder}/**/*.ts`)];
  await writeFile(
    join(dir, 'tsconfig.nodenext.json'),
    JSON.stringify({
      compilerOptions: { ...STRICT, module: 'nodenext', moduleResolution: 'nodenext', outDir: 'out', rootDir: '.' },
      include,
    }),
  );
  await writeFile(
    join(dir, 'tsconfig.bundler.json'),
    JSON.stringify({
      compilerOptions: { ...STRICT, module: 'esnext', moduleResolution: 'bundler', noEmit: true },
      include,
    }),
  );
  const [nodenext, bundler] = compileProjects(join(dir, 'tsconfig.nodenext.json'), join(dir, 'tsconfig.bundler.json'));
  results = { nodenext: nodenext!, bundler: bundler! };
});

afterAll(async () => {
  await removeTempDir(dir);
});

describe('generated output under tsc --strict', () => {
  it('compiles under module nodenext (consumers of the folder and of the package)', () => {
    expect(results.nodenext.output).toBe('');
    expect(results.nodenext.code).toBe(0);
  });

  it('compiles under moduleResolution bundler (consumers of the folder and of the package)', () => {
    expect(results.bundler.output).toBe('');
    expect(results.bundler.code).toBe(0);
  });
});

/** The runtime view of one descriptor, as the generated constant holds it. */
function expected(d: Descriptor) {
  return {
    name: d.name,
    mNum: d.mNum,
    schemaHash: d.schemaHash,
    actions: d.actions,
    hasTKey: d.hasTKey,
    hasEKey: d.hasEKey,
    hasOKey: d.hasOKey,
    hasCF: d.hasCF,
    mToken: d.mToken,
    staticFilterFields: d.staticFilterFields,
  };
}

type Registry = Record<string, unknown>;
interface GeneratedIndex {
  messages: Registry;
  messagesByNumber: Registry;
  messageNames: readonly string[];
}

/** The index of a folder: as tsc compiled it (`ts` target), or as written (`js+dts`). */
async function importIndex(folder: string): Promise<GeneratedIndex> {
  const compiled = !folder.endsWith('-dts');
  return (await import(pathToFileURL(join(dir, ...(compiled ? ['out'] : []), folder, 'index.js')).href)) as GeneratedIndex;
}

function checkRegistries(index: GeneratedIndex, descriptors: readonly Descriptor[]): void {
  const names = descriptors.map((d) => d.name).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  expect(Object.getPrototypeOf(index.messages)).toBe(Object.prototype);
  expect(Object.keys(index.messages)).toEqual(names);
  expect(index.messageNames).toEqual(names);
  for (const d of descriptors) {
    expect(Object.hasOwn(index.messages, d.name), d.name).toBe(true);
    expect(index.messages[d.name]).toEqual(expected(d));
    expect(index.messagesByNumber[String(d.mNum)]).toBe(index.messages[d.name]);
  }
  expect(Object.keys(index.messagesByNumber)).toHaveLength(descriptors.length);
}

describe.each(['', '-dts'])('generated output at run time (%s)', (flavour) => {
  it('holds exactly the example listing', async () => {
    expect(results.nodenext.code).toBe(0);
    const index = await importIndex(`example${flavour}`);
    checkRegistries(index, example);
    expect((index as unknown as Record<string, unknown>)['AccountRiskRecordV5']).toBe(index.messages['AccountRiskRecordV5']);
  });

  it('holds an older deployment’s listing, with the fields it does not send absent', async () => {
    expect(results.nodenext.code).toBe(0);
    const index = await importIndex('older');
    checkRegistries(index, older);
    expect(Object.keys(index.messages['OptionNbboQuote'] as object)).toEqual(['name', 'mNum', 'schemaHash', 'hasTKey', 'hasEKey', 'hasOKey']);
  });

  it('keeps hostile names as own keys, hostile values verbatim, and runs no injected code', async () => {
    expect(results.nodenext.code).toBe(0);
    const index = await importIndex(`hostile${flavour}`);
    expect((globalThis as Record<string, unknown>)['pwned']).toBeUndefined();
    checkRegistries(index, hostile);
    const proto = Object.getOwnPropertyDescriptor(index.messages, '__proto__');
    expect(proto?.enumerable).toBe(true);
    expect((proto?.value as { name: string }).name).toBe('__proto__');
    expect((index.messages['constructor'] as { name: string }).name).toBe('constructor');
  });
});
