/**
 * The impact matrix (issue 40): every kind of change a drift report names × every way a
 * consumer's code reaches the generated declarations. One listing changes nine message types,
 * each in one way; one consumer project per kind of change uses only its type, a file (or, for
 * aliases behind a barrel, a folder) per way of reaching it. Each cell either breaks the compile
 * (every new error must be attributed to its change and field) or still compiles (the change must
 * be `referenced`).
 */
import { KINDS, type Kind } from './matrix-listing.js';

export { KINDS, MATRIX_AFTER, MATRIX_BEFORE, type Kind } from './matrix-listing.js';

/** One way of reaching a generated declaration: its files in a kind's project. */
export interface Way {
  id: string;
  title: string;
  files(kind: Kind, from: string): Record<string, string>;
}

const lines = (...text: string[]): string => `${text.join('\n')}\n`;
const recordName = (kind: Kind): string => `${kind.message}Record`;
/** The type the changed property belongs to: the constant's type, or the record type. */
const baseType = (kind: Kind): string => (kind.on === 'constant' ? kind.message : recordName(kind));
/** One value of the property read from `base` (an element, for a tuple of actions). */
const scalar = (kind: Kind, base: string): string => (kind.prop === 'actions' ? `${base}.actions[${base}.actions.length - 1]` : `${base}.${kind.prop}`);
/** The property's type (an element's, for actions) in `type`, without `undefined`. */
const propType = (kind: Kind, type: string): string => (kind.prop === 'actions' ? `${type}['actions'][number]` : `NonNullable<${type}['${kind.prop}']>`);
/** A conditional type, `true` for the property's type before, `false` after. */
const probe = (kind: Kind, t: string): string => {
  if (kind.prop === 'actions' || kind.prop === 'side') return `${kind.lit} extends ${t} ? true : false`;
  if (kind.on === 'record') return `[${t}] extends [${kind.type}] ? ([${kind.type}] extends [${t}] ? true : false) : false`;
  return `[${t}] extends [${kind.type}] ? true : false`;
};
/** The pinned type of a scalar read from a record (absent when at its default). */
const pinned = (kind: Kind): string => (kind.on === 'record' ? `${kind.type} | undefined` : kind.type);
/**
 * A read of the changed property (`expr`) that compiles before and not after: the value pinned to
 * its type before, or, where the change only narrows that type (an action or enum value removed),
 * compared with the value that went.
 */
const read = (kind: Kind, expr: string): { type: string; value: string } =>
  kind.prop === 'actions' || kind.prop === 'side' ? { type: 'boolean', value: `${expr} === ${kind.lit}` } : { type: pinned(kind), value: expr };

/**
 * The consumer's use of its kind's type: a function of the base value (the constant, or a record)
 * and how the file gets it. Where a way reaches only the other kind of declaration (a record
 * type for a change of the constant), it uses that declaration in a way that still compiles.
 */
export const WAYS: Way[] = [
  {
    id: 'constant',
    title: 'import of the constant',
    files: (k, g) => ({ 'constant.ts': k.on === 'constant' ? lines(`import { ${k.message} } from '${g}';`, `export const pinned: ${read(k, scalar(k, k.message)).type} = ${read(k, scalar(k, k.message)).value};`) : lines(`import { ${k.message} } from '${g}';`, `export const n: number = ${k.message}.mNum;`) }),
  },
  {
    id: 'type',
    title: 'import of the type',
    files: (k, g) => ({ 'type.ts': k.on === 'constant' ? lines(`import type { ${k.message} } from '${g}';`, `export function read(d: ${k.message}): ${read(k, '').type} {`, `  return ${read(k, scalar(k, 'd')).value};`, '}') : lines(`import type { ${k.message} } from '${g}';`, `export const n = (d: ${k.message}): number => d.mNum;`) }),
  },
  {
    id: 'record-type',
    title: 'import of the record type',
    files: (k, g) => ({ 'record-type.ts': k.on === 'record' ? lines(`import type { ${recordName(k)} } from '${g}';`, `export function read(r: ${recordName(k)}): ${read(k, '').type} {`, `  return ${read(k, scalar(k, 'r')).value};`, '}') : lines(`import type { ${recordName(k)} } from '${g}';`, `export const empty: ${recordName(k)} = {};`) }),
  },
  {
    id: 'messages',
    title: 'messages[…], messages.X',
    files: (k, g) => ({
      'messages.ts': lines(
        `import { messages } from '${g}';`,
        k.on === 'constant' ? `export const pinned: ${read(k, '').type} = ${read(k, scalar(k, `messages['${k.message}']`)).value};` : `export const n: number = messages['${k.message}'].mNum;`,
        `export const byProperty: string = messages.${k.message}.name;`,
      ),
    }),
  },
  {
    id: 'by-number',
    title: 'messagesByNumber',
    files: (k, g) => ({ 'by-number.ts': lines(`import { messagesByNumber } from '${g}';`, k.on === 'constant' ? `export const pinned: ${read(k, '').type} = ${read(k, scalar(k, `messagesByNumber[${k.mNum}]`)).value};` : `export const n: number = messagesByNumber[${k.mNum}].mNum;`) }),
  },
  {
    id: 'message-by-name',
    title: 'MessageByName<N>',
    files: (k, g) => ({ 'message-by-name.ts': lines(`import type { MessageByName } from '${g}';`, k.on === 'constant' ? `export const read = (d: MessageByName<'${k.message}'>): ${read(k, '').type} => ${read(k, scalar(k, 'd')).value};` : `export const read = (d: MessageByName<'${k.message}'>): number => d.mNum;`) }),
  },
  {
    id: 'record-by-name',
    title: 'RecordByName<N>',
    files: (k, g) => ({ 'record-by-name.ts': lines(`import type { RecordByName } from '${g}';`, k.on === 'record' ? `export const read = (r: RecordByName<'${k.message}'>): ${read(k, '').type} => ${read(k, scalar(k, 'r')).value};` : `export const empty: RecordByName<'${k.message}'> = {};`) }),
  },
  {
    id: 'message-records',
    title: 'MessageRecords',
    files: (k, g) => ({ 'message-records.ts': lines(`import type { MessageRecords } from '${g}';`, k.on === 'record' ? `export const read = (r: MessageRecords['${k.message}']): ${read(k, '').type} => ${read(k, scalar(k, 'r')).value};` : `export const empty: MessageRecords['${k.message}'] = {};`) }),
  },
  {
    id: 'indexed',
    title: "X['field'], NonNullable<…>",
    files: (k, g) => ({ 'indexed.ts': lines(`import type { ${baseType(k)} } from '${g}';`, `export const pinned: ${propType(k, baseType(k))} = ${k.lit};`) }),
  },
  {
    id: 'typeof',
    title: 'typeof',
    files: (k, g) => ({
      'typeof.ts':
        k.on === 'constant'
          ? lines(`import { ${k.message} } from '${g}';`, `export const pinned: ${propType(k, `typeof ${k.message}`)} = ${k.lit};`)
          : lines(`import type { ${recordName(k)} } from '${g}';`, `declare const r: ${recordName(k)};`, `export const pinned: NonNullable<typeof r.${k.prop}> = ${k.lit};`),
    }),
  },
  {
    id: 'keyof',
    title: 'keyof',
    files: (k, g) => ({ 'keyof.ts': lines(`import type { ${baseType(k)} } from '${g}';`, `export const key: keyof ${baseType(k)} = '${k.prop}';`) }),
  },
  {
    id: 'mapped',
    title: 'mapped type',
    files: (k, g) => ({ 'mapped.ts': lines(`import type { ${baseType(k)} } from '${g}';`, `type Mapped = { -readonly [K in keyof ${baseType(k)}]-?: ${baseType(k)}[K] };`, `export const pinned: ${propType(k, 'Mapped')} = ${k.lit};`) }),
  },
  {
    id: 'conditional',
    title: 'conditional type',
    files: (k, g) => ({ 'conditional.ts': lines(`import type { ${baseType(k)} } from '${g}';`, `type Probe = ${probe(k, propType(k, baseType(k)))};`, 'export const probe: Probe = true;') }),
  },
  {
    id: 'alias',
    title: 'own alias and interface, another file, own barrel',
    files: (k, g) => ({
      'alias/model.ts': lines(
        `import type { ${baseType(k)} } from '../${g}';`,
        `export type Value = ${propType(k, baseType(k))};`,
        `export interface Holder { value: Value }`,
        k.on === 'constant' ? `export interface Mine extends ${k.message} { readonly ${k.prop}: ${k.prop === 'actions' ? `readonly [${k.value.slice(1, -1)}]` : k.type} }` : `export interface Mine extends ${recordName(k)} { ${k.prop}?: ${k.type} }`,
      ),
      'alias/index.ts': lines("export * from './model.js';"),
      'alias/use.ts': lines(
        "import type { Holder, Mine, Value } from './index.js';",
        `export const pinned: Value = ${k.lit};`,
        'export function name(h: Holder): number {',
        '  switch (h.value) {',
        `    case ${k.lit}:`,
        '      return 1;',
        '  }',
        '  return 0;',
        '}',
        `export const mine = (m: Mine): unknown => m.${k.prop};`,
      ),
    }),
  },
  {
    id: 'destructuring',
    title: 'destructuring',
    files: (k, g) => ({
      'destructuring.ts':
        k.on === 'constant'
          ? lines(`import { ${k.message} } from '${g}';`, `const { ${k.prop} } = ${k.message};`, `export const pinned: ${read(k, '').type} = ${read(k, k.prop === 'actions' ? 'actions[actions.length - 1]' : k.prop).value};`)
          : lines(`import type { ${recordName(k)} } from '${g}';`, `export function read({ ${k.prop} }: ${recordName(k)}): ${read(k, '').type} {`, `  return ${read(k, k.prop).value};`, '}'),
    }),
  },
  {
    id: 'switch',
    title: 'switch / case',
    files: (k, g) => ({ 'switch.ts': lines(...valueImport(k, g), `export function which(${param(k)}): number {`, `  switch (${scalar(k, base(k))}) {`, `    case ${k.lit}:`, '      return 1;', '  }', '  return 0;', '}') }),
  },
  {
    id: 'equals',
    title: '===',
    files: (k, g) => ({ 'equals.ts': lines(...valueImport(k, g), `export const same = (${param(k)}): boolean => ${scalar(k, base(k))} === ${k.lit};`) }),
  },
  {
    id: 'includes',
    title: 'includes',
    files: (k, g) => ({ 'includes.ts': lines(...valueImport(k, g), `export const has = (${param(k)}): boolean => ${k.prop === 'actions' ? `${base(k)}.actions` : `([${scalar(k, base(k))}] as const)`}.includes(${k.lit});`) }),
  },
  {
    id: 'satisfies',
    title: 'satisfies',
    files: (k, g) => ({ 'satisfies.ts': lines(`import type { ${baseType(k)} } from '${g}';`, `export const value = { ${k.prop}: ${k.value} } satisfies ${k.on === 'constant' ? `Partial<${k.message}>` : recordName(k)};`) }),
  },
  {
    id: 'object-literal',
    title: 'object literal typed by it',
    files: (k, g) => ({ 'object-literal.ts': lines(`import type { ${baseType(k)} } from '${g}';`, `export const value: ${k.on === 'constant' ? `Partial<${k.message}>` : recordName(k)} = { ${k.prop}: ${k.value} };`) }),
  },
  {
    id: 'generic',
    title: 'generic function, instantiated with a name',
    files: (k, g) => ({
      'generic.ts': lines(
        `import { messages, type MessageByName, type MessageName, type RecordByName } from '${g}';`,
        'export function descriptorOf<N extends MessageName>(name: N): MessageByName<N> {',
        '  return messages[name];',
        '}',
        'export declare function recordOf<N extends MessageName>(name: N): RecordByName<N>;',
        `export const pinned: ${read(k, '').type} = ${read(k, scalar(k, k.on === 'constant' ? `descriptorOf('${k.message}')` : `recordOf('${k.message}')`)).value};`,
      ),
    }),
  },
  {
    id: 'check-js',
    title: 'JavaScript, checkJs, JSDoc',
    files: (k, g) => ({
      'check-js.js':
        k.on === 'constant'
          ? lines(`import { ${k.message} } from '${g}';`, `/** @type {${read(k, '').type}} */`, `export const pinned = ${read(k, scalar(k, k.message)).value};`)
          : lines(`/** @typedef {import('${g}').${recordName(k)}} Rec */`, '/**', ' * @param {Rec} r', ` * @returns {${read(k, '').type}}`, ' */', 'export function read(r) {', `  return ${read(k, scalar(k, 'r')).value};`, '}'),
    }),
  },
];

/** How a value-reading file gets its base value: the constant imported, or a record parameter. */
const valueImport = (k: Kind, g: string): string[] => [k.on === 'constant' ? `import { ${k.message} } from '${g}';` : `import type { ${recordName(k)} } from '${g}';`];
const param = (k: Kind): string => (k.on === 'constant' ? '' : `r: ${recordName(k)}`);
const base = (k: Kind): string => (k.on === 'constant' ? k.message : 'r');

/** The way of an installed package: its files use the constant or record type as `constant.ts`/`record-type.ts` do, from the package. */
export const PACKAGE_WAY: Way = {
  id: 'package',
  title: 'installed package',
  files: (k, g) => {
    const way = WAYS.find((w) => w.id === (k.on === 'constant' ? 'constant' : 'record-type'))!;
    return { [`${k.id}.ts`]: Object.values(way.files(k, g))[0]! };
  },
};

const TSCONFIG = { strict: true, module: 'nodenext', target: 'es2022', lib: ['es2022'], noEmit: true, allowJs: true, checkJs: true, skipLibCheck: true };

/**
 * The consumer's files: a folder per kind under `kinds/<id>/src/` (a file per way, importing the
 * output folder `gen/` at the top), one project (tsconfig.json) over them all, and the package's
 * consumer `app/` (a file per kind, importing `@acme/schema`). One project, not one per kind:
 * each compile of a project pays for TypeScript's lib files again, and a folder's files use only
 * its kind's type, so they cannot blame another.
 */
export function matrixFiles(): Record<string, string> {
  const files: Record<string, string> = {
    'package.json': JSON.stringify({ name: 'consumer', private: true, type: 'module' }),
    'tsconfig.json': JSON.stringify({ compilerOptions: TSCONFIG, include: ['kinds'] }),
    'app/package.json': JSON.stringify({ name: 'app', private: true, type: 'module' }),
    'app/tsconfig.json': JSON.stringify({ compilerOptions: TSCONFIG, include: ['src'] }),
  };
  for (const kind of KINDS) {
    for (const way of WAYS) {
      for (const [path, text] of Object.entries(way.files(kind, '../../../gen/index.js'))) files[`kinds/${kind.id}/src/${path}`] = text;
    }
    for (const [path, text] of Object.entries(PACKAGE_WAY.files(kind, '@acme/schema'))) files[`app/src/${path}`] = text;
  }
  return files;
}

/** The way a consumer file belongs to, from its path (`kinds/<kind>/src/<way>.ts`, `app/src/<kind>.ts`). */
export function cellOf(path: string): { kind: string; way: string } | undefined {
  const inKind = /^kinds\/([^/]+)\/src\/(?:(alias)\/)?([^/.]+)\.[jt]s$/.exec(path);
  if (inKind !== null) return { kind: inKind[1]!, way: inKind[2] ?? inKind[3]! };
  const inApp = /^app\/src\/([^/.]+)\.ts$/.exec(path);
  return inApp === null ? undefined : { kind: inApp[1]!, way: PACKAGE_WAY.id };
}
