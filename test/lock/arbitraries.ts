/**
 * fast-check arbitraries of lockfile contents: names, strings and unknown fields chosen to break
 * a hand-written serialiser or scanner (quotes, backslashes, line separators, the layout's own
 * delimiters, prototype keys).
 */
import fc from 'fast-check';
import type { Descriptor } from '../../src/model/descriptor.js';
import { LOCKFILE_VERSION, type Lockfile } from '../../src/model/lockfile.js';

const text = fc.oneof(
  fc.string({ maxLength: 8 }),
  fc.string({ unit: 'binary', maxLength: 6 }),
  fc.constantFrom('__proto__', 'constructor', '": {\n', '"\n    }', '    }', '\\', '\u2028', '{', '0', '10', '-1', 'a": {'),
);
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
}, { requiredKeys: ['name', 'mNum', 'schemaHash', 'extra'] });
const settings = fc.record(
  {
    packageName: fc.constantFrom('@acme/schema', 'schema-types'),
    packageVersion: fc.constantFrom('1.0.0', '0.3.12', '10.20.30'),
    changelog: fc.array(fc.record({ version: fc.constantFrom('1.1.0', '2.0.0'), notes: text }), { minLength: 1, maxLength: 2 }),
    target: fc.constantFrom('ts' as const, 'js+dts' as const),
    prettier: fc.constant(true as const),
    templates: fc.constantFrom('templates', '../shared/templates'),
  },
  { requiredKeys: [] },
);
export const lockfile: fc.Arbitrary<Lockfile> = fc
  .tuple(fc.uniqueArray(descriptor, { selector: (d) => d.name, maxLength: 8 }), settings)
  .map(([messages, settings]) => ({ lockfileVersion: LOCKFILE_VERSION, source: { baseUrl: 'https://example.test', query: {} }, settings, messages }));

