/**
 * fast-check arbitraries of lockfile contents: names, strings and unknown fields chosen to break
 * a hand-written serialiser or scanner (quotes, backslashes, line separators, the layout's own
 * delimiters, prototype keys).
 */
import fc from 'fast-check';
import type { Descriptor } from '../../src/model/descriptor.js';
import { fieldPath, KNOWN_FIELD_KEYS, makeField, sortFields, type FieldDescriptor } from '../../src/model/field.js';
import { LOCKFILE_VERSION, type Lockfile } from '../../src/model/lockfile.js';
import { binaryString } from '../helpers/binary-string.js';

const text = fc.oneof(
  fc.string({ maxLength: 8 }),
  binaryString({ maxLength: 6 }),
  fc.constantFrom('__proto__', 'constructor', '": {\n', '"\n    }', '    }', '\\', '\u2028', '{', '0', '10', '-1', 'a": {'),
);
const known: ReadonlySet<string> = new Set(KNOWN_FIELD_KEYS);
/** A field descriptor as fetched: any subset of the known keys, unknown keys that are JSON values. */
const field: fc.Arbitrary<FieldDescriptor> = fc
  .tuple(
    fc.record(
      {
        name: text.filter((s) => s.length > 0),
        pos: fc.nat(),
        fNum: fc.nat(),
        fType: text,
        isPkey: fc.boolean(),
        inRepeater: text.filter((s) => s.length > 0),
        eSet: fc.array(text, { maxLength: 3 }),
        desc: text,
      },
      { requiredKeys: ['name'] },
    ),
    fc.dictionary(text.filter((key) => !known.has(key)), fc.jsonValue({ maxDepth: 2 }), { maxKeys: 2 }),
  )
  .map(([keys, extra]) => makeField(keys, extra));
/** A message's fields in record order, or none recorded. */
const fields = fc.option(fc.uniqueArray(field, { selector: fieldPath, maxLength: 3 }).map(sortFields), { nil: undefined, freq: 2 });

// Only name, mNum and schemaHash are always sent (and extra always kept); the rest may be absent.
const descriptor: fc.Arbitrary<Descriptor> = fc.record({
  name: text.filter((s) => s.length > 0),
  mNum: fc.nat(),
  schemaHash: text,
  actions: fc.array(text, { maxLength: 3 }),
  hasTKey: fc.boolean(),
  hasEKey: fc.boolean(),
  hasOKey: fc.boolean(),
  hasCF: fc.boolean(),
  mToken: text,
  staticFilterFields: fc.array(text, { maxLength: 3 }),
  // Unknown fields as the fetch stage keeps them: JSON values, keys sorted when serialised.
  extra: fc.dictionary(text, fc.jsonValue({ maxDepth: 3 }), { maxKeys: 3 }),
  fields,
}, { requiredKeys: ['name', 'mNum', 'schemaHash', 'extra'] });
const settings = fc.record(
  {
    package: fc.constantFrom('@acme/schema', 'schema-types'),
    packageVersion: fc.constantFrom('1.0.0', '0.3.12', '10.20.30'),
    changelog: fc.array(fc.record({ version: fc.constantFrom('1.1.0', '2.0.0'), notes: text }), { minLength: 1, maxLength: 2 }),
    target: fc.constantFrom('ts' as const, 'js+dts' as const),
    prettier: fc.constant(true as const),
    templates: fc.constantFrom('templates', '../shared/templates'),
    fields: fc.constant(true as const),
  },
  { requiredKeys: [] },
);
/** A recorded file stem (`$file`) for some of the messages: valid stems, not checked against the names here. */
const fileStems = fc.array(fc.option(fc.constantFrom('Foo', 'FOO__0a1b2c3d', '_x$', 'a'), { nil: undefined, freq: 3 }), { maxLength: 8 });
export const lockfile: fc.Arbitrary<Lockfile> = fc
  .tuple(fc.uniqueArray(descriptor, { selector: (d) => d.name, maxLength: 8 }), settings, fileStems)
  .map(([messages, settings, stems]) => {
    const recorded = new Map(messages.flatMap((d, i) => (stems[i] === undefined ? [] : [[d.name, stems[i]] as const])));
    return { lockfileVersion: LOCKFILE_VERSION, source: { baseUrl: 'https://example.test', query: {} }, settings, messages, ...(recorded.size > 0 && { fileStems: recorded }) };
  });

