/**
 * The generated check of a message type's records, written into its message module beside the
 * record types (fields on): straight-line code, one statement a field, that the records runtime
 * (`runtime/records-runtime.ts`, written into the output folder as `records-runtime`)
 * calls for each record; and `<Name>RecordSchema`, the Standard Schema of one record made of it.
 *
 * ```ts
 * function OptionNbboQuote$check(m: any, p: RecordPath, c: Checker): unknown {
 *   if (!c.isObject(m)) return c.bad(p, undefined, 'a record of OptionNbboQuote', m);
 *   let n = 0;
 *   let v: any;
 *   if ((v = m.bidPrice) !== undefined) { n++; if (typeof v !== 'number') m.bidPrice = c.num(v, p, 'bidPrice'); }
 *   …
 *   if (n !== c.size(m)) c.extra(m, p, ['pkey', 'bidPrice', …]);
 *   return m;
 * }
 * export const OptionNbboQuoteRecordSchema: RecordSchema<OptionNbboQuoteRecord> = /* @__PURE__ *\/ recordSchema('OptionNbboQuote', OptionNbboQuote$check);
 * ```
 *
 * A value of the right type costs one `typeof` (or one comparison an enum name); anything else
 * goes to the checker, which converts what the text kept exact (64-bit integers) and records
 * issues and drift. The code names no global (a message type may be called `Set` or `Number`):
 * only operators, its own functions and what it imports from the runtime, whose names are
 * reserved (`naming.ts`). Locals end in `$…`, which no other name in the module does.
 */
import type { Descriptor } from '../model/descriptor.js';
import type { Int64Type } from '../model/lockfile.js';
import { sortFields, type FieldDescriptor } from '../model/field.js';
import { compareStrings } from '../model/descriptor.js';
import { commentText, stringLiteral } from '../text/safe-text.js';
import type { ImportTracker } from './import-tracker.js';
import type { PlannedName } from './naming.js';
import { keyFieldsOf, PKEY_PROPERTY, QUERY_RESULT, recordNames } from './record-types.js';
import { hasInt64Field } from './record-field-types.js';
import { isTypeScript, type ModuleKind } from './targets.js';

/** The runtime module every check imports from, as a stem of the output folder. */
export const RECORDS_RUNTIME = 'records-runtime';

/** The name of a message type's record schema. */
export function recordSchemaName(identifier: string): string {
  return `${identifier}RecordSchema`;
}

/** Integer ranges of the integer field types. */
const INTEGER_RANGES: Readonly<Record<string, readonly [number, number]>> = {
  Byte: [-128, 255],
  Short: [-32768, 32767],
  UShort: [0, 65535],
  Int: [-2147483648, 2147483647],
  UInt: [0, 4294967295],
};

const TEXT_TYPES: ReadonlySet<string> = new Set(['String', 'Text1', 'Text2', 'DateKey', 'DateTime']);

/** What a check function of a module is: the record's, its key's, or a repeating group item's. */
interface CheckFunction {
  name: string;
  /** What a value that is not an object was expected to be. */
  expected: string;
  fields: readonly FieldDescriptor[];
  /** Whether the fields are key fields (required; a scalar one left out at its default value is given it). */
  key: boolean;
  /** The group name, for the drift findings of an item's fields. */
  group?: string;
  /** The names a record of this function may hold (its fields', and `pkey` or groups'). */
  known: readonly string[];
}

/**
 * The lines of the checks of one message type and its `<Name>RecordSchema` (a declaration only
 * in a `.d.ts`), blank lines between them. The names it uses of the runtime are recorded in
 * `imports`.
 * @param runtime - the runtime's module specifier from the message module
 */
export function recordCheckLines(descriptor: Descriptor, planned: PlannedName, imports: ImportTracker, options: { int64: Int64Type; kind: ModuleKind; runtime: string }): string[] {
  const { kind, runtime } = options;
  const ts = isTypeScript(kind);
  const { record } = recordNames(planned.identifier);
  const schema = recordSchemaName(planned.identifier);
  const typed = kind === 'js' ? '' : `: ${imports.use('RecordSchema', runtime, { type: true })}<${record}>`;
  const doc = `/** The validator of one record of ${commentText(stringLiteral(descriptor.name))}: Standard Schema v1, \`parse\` and \`safeParse\`. */`;
  if (kind === 'dts') return [doc, `export declare const ${schema}${typed};`];
  const exact = hasInt64Field(descriptor) && options.int64 !== 'number' ? ', true' : '';
  const make = imports.use('recordSchema', runtime);
  if (descriptor.name === QUERY_RESULT) {
    const check = imports.use('checkQueryResult', runtime);
    return [doc, `export const ${schema}${typed} = /* @__PURE__ */ ${make}${ts ? `<${record}>` : ''}(${stringLiteral(descriptor.name)}, ${check});`];
  }
  const functions = checkFunctions(descriptor, planned.identifier);
  const enums = new Map<string, string>();
  const enumOf = (values: readonly string[]): string => {
    const id = JSON.stringify(values);
    let name = enums.get(id);
    if (name === undefined) enums.set(id, (name = `${planned.identifier}$e${enums.size}`));
    return name;
  };
  const types = ts ? { m: ': any', p: `: ${imports.use('RecordPath', runtime, { type: true })}`, c: `: ${imports.use('Checker', runtime, { type: true })}`, v: ': any', r: ': unknown' } : { m: '', p: '', c: '', v: '', r: '' };
  const groupNames = new Map(functions.filter((f) => f.group !== undefined).map((f) => [f.group!, f.name]));
  const lines: string[] = [];
  for (const fn of functions) {
    lines.push(`function ${fn.name}(m${types.m}, p${types.p}, c${types.c})${types.r} {`);
    lines.push(`  if (!c.isObject(m)) return c.bad(p, undefined, ${stringLiteral(fn.expected)}, m);`);
    lines.push('  let n = 0;');
    if (fn.fields.length > 0) lines.push(`  let v${types.v};`);
    for (const field of fn.fields) lines.push(...fieldLines(field, fn, { int64: options.int64, enumOf, groups: groupNames, pkey: functions[1]?.key === true ? functions[1].name : undefined }));
    lines.push(`  if (n !== c.size(m)) c.extra(m, p, [${fn.known.map(stringLiteral).join(', ')}]${fn.group === undefined ? '' : `, ${stringLiteral(fn.group)}`});`);
    lines.push('  return m;', '}', '');
  }
  for (const [values, name] of enums) {
    const names = JSON.parse(values) as string[];
    lines.push(`function ${name}(v${ts ? ': unknown' : ''})${ts ? ': boolean' : ''} {`, '  switch (v) {', ...names.map((value) => `    case ${stringLiteral(value)}:`), '      return true;', '    default:', '      return false;', '  }', '}', '');
  }
  lines.push(doc, `export const ${schema}${typed} = /* @__PURE__ */ ${make}${ts ? `<${record}>` : ''}(${stringLiteral(descriptor.name)}, ${functions[0]!.name}${exact});`);
  return lines;
}

/** The check functions of a message type: the record's first, then its key's, then each group item's. */
function checkFunctions(descriptor: Descriptor, identifier: string): CheckFunction[] {
  const fields = sortFields(descriptor.fields ?? []);
  const keyFields = keyFieldsOf(fields);
  const shown = JSON.stringify(descriptor.name).slice(1, -1);
  const top = fields.filter((field) => field.inRepeater === undefined && field.isPkey !== true);
  const described = new Set(fields.filter((field) => field.fType === 'Repeater').map((field) => field.name));
  const groups = [...new Set(fields.flatMap((field) => [field.fType === 'Repeater' ? field.name : undefined, field.inRepeater]).filter((group): group is string => group !== undefined))];
  // A group that fields name but no Repeater field describes is a top-level array of its items too.
  const orphans = groups.filter((group) => !described.has(group)).sort(compareStrings);
  const record: CheckFunction = {
    name: `${identifier}$check`,
    expected: `a record of ${shown}`,
    fields: [...(keyFields.length > 0 ? [{ name: PKEY_PROPERTY, fType: '$pkey', extra: {} } as FieldDescriptor] : []), ...top, ...orphans.map((group) => ({ name: group, fType: 'Repeater', extra: {} }) as FieldDescriptor)],
    key: false,
    known: [...(keyFields.length > 0 ? [PKEY_PROPERTY] : []), ...top.map((field) => field.name), ...orphans],
  };
  const functions = [record];
  if (keyFields.length > 0) functions.push({ name: `${identifier}$pkey`, expected: `the key of ${shown}`, fields: keyFields, key: true, known: keyFields.map((field) => field.name) });
  groups.forEach((group, i) => {
    const items = fields.filter((field) => field.inRepeater === group);
    functions.push({ name: `${identifier}$g${i}`, expected: `an entry of ${JSON.stringify(group).slice(1, -1)}`, fields: items, key: false, group, known: items.map((field) => field.name) });
  });
  return functions;
}

/** How a field's value is read: `m.name`, or `m['a-b']` for a name that is not an identifier. */
function access(name: string): string {
  return /^[A-Za-z_$][A-Za-z0-9_$]*$/.test(name) && name !== '__proto__' ? `m.${name}` : `m[${stringLiteral(name)}]`;
}

/** The lines that check one field of a check function. */
function fieldLines(field: FieldDescriptor, fn: CheckFunction, context: { int64: Int64Type; enumOf: (values: readonly string[]) => string; groups: ReadonlyMap<string, string>; pkey: string | undefined }): string[] {
  const at = access(field.name);
  const key = stringLiteral(field.name);
  const path = fn.group === undefined ? field.name : `${fn.group}.${field.name}`;
  const check = valueCheck(field, { at, key, path: stringLiteral(path) }, context);
  // `__proto__` is read as an own property only: an absent one would read Object.prototype.
  const read = field.name === '__proto__' ? `(v = c.own(m, ${key}))` : `(v = ${at})`;
  if (!fn.key) return [`  if (${read} !== undefined) { n++; ${check} }`];
  const fallback = keyDefault(field, context.int64);
  const absent = fallback === undefined ? `c.bad(p, ${key}, 'a key field', v)` : `${at} = ${fallback}`;
  return [`  if (${read} !== undefined) { n++; ${check} } else ${absent};`];
}

/**
 * The value a scalar key field has when the service leaves it out: its default (the service
 * leaves out key fields at their default value as it does any other); a key object has none.
 */
function keyDefault(field: FieldDescriptor, int64: Int64Type): string | undefined {
  const type = field.fType ?? '';
  if (TEXT_TYPES.has(type)) return "''";
  if (type in INTEGER_RANGES || type === 'Double' || type === 'Float') return '0';
  if (type === 'Long' || type === 'ULong') return int64 === 'string' ? "'0'" : int64 === 'bigint' ? 'c.zero()' : '0';
  if ((type === 'Enum' || type === 'Flag') && field.eSet !== undefined && field.eSet.length > 0) return stringLiteral(field.eSet[0]!);
  return undefined;
}

/** The statement that checks a present value `v` of a field. */
function valueCheck(field: FieldDescriptor, names: { at: string; key: string; path: string }, context: { int64: Int64Type; enumOf: (values: readonly string[]) => string; groups: ReadonlyMap<string, string>; pkey: string | undefined }): string {
  const { at, key } = names;
  const type = field.fType;
  if (type === '$pkey') return `${context.pkey!}(v, [...p, 'pkey'], c);`;
  if (type !== undefined && TEXT_TYPES.has(type)) return `if (typeof v !== 'string') c.bad(p, ${key}, 'a string', v);`;
  if (type === 'Double' || type === 'Float') return `if (typeof v !== 'number') ${at} = c.num(v, p, ${key});`;
  if (type === 'Int') return `if (typeof v !== 'number' || (v | 0) !== v) ${at} = c.int(v, p, ${key}, -2147483648, 2147483647);`;
  if (type === 'UInt') return `if (typeof v !== 'number' || v >>> 0 !== v) ${at} = c.int(v, p, ${key}, 0, 4294967295);`;
  if (type !== undefined && type in INTEGER_RANGES) {
    const [min, max] = INTEGER_RANGES[type]!;
    return `if (typeof v !== 'number' || !(v >= ${min} && v <= ${max} && v % 1 === 0)) ${at} = c.int(v, p, ${key}, ${min}, ${max});`;
  }
  if (type === 'Long' || type === 'ULong') {
    if (context.int64 === 'bigint') return `${at} = c.longBigint(v, p, ${key});`;
    if (context.int64 === 'string') return `${at} = c.longString(v, p, ${key});`;
    return `if (typeof v !== 'number' || !(v <= 9007199254740991 && v >= -9007199254740991 && v % 1 === 0)) ${at} = c.longNumber(v, p, ${key});`;
  }
  if (type === 'Enum') {
    const values = [...new Set(field.eSet ?? [])];
    if (values.length === 0) return `if (typeof v !== 'string') c.bad(p, ${key}, 'an enum name', v);`;
    return `if (!${context.enumOf(values)}(v)) ${at} = c.name(v, p, ${key}, ${names.path});`;
  }
  if (type === 'Flag') return `if (typeof v !== 'string') c.bad(p, ${key}, 'a flag name', v);`;
  if (type === 'TimeSpan') return `if (typeof v !== 'number') ${at} = c.span(v, p, ${key});`;
  if (type === 'TickerKey') return `c.key(v, p, ${key}, 1);`;
  if (type === 'ExpiryKey') return `c.key(v, p, ${key}, 2);`;
  if (type === 'OptionKey') return `c.key(v, p, ${key}, 3);`;
  if (type === 'Repeater') {
    const item = context.groups.get(field.name)!;
    return `if (!c.isArray(v)) c.bad(p, ${key}, 'an array', v); else for (let i = 0; i < v.length; i++) ${item}(v[i], [...p, ${key}, i], c);`;
  }
  // None, no fType, or a type this version does not know: typed unknown, let through.
  return `${at} = c.any(v);`;
}
