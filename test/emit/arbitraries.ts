/** fast-check arbitraries of the emit tests: descriptors with text meant to break generated code. */
import fc from 'fast-check';

import type { Descriptor } from '../../src/model/descriptor.js';
import { descriptor } from './helpers.js';

const word = fc.stringMatching(/^[A-Za-z][A-Za-z0-9_]{0,12}$/);
const anyText = fc.string({ maxLength: 30, unit: fc.constantFrom('a', 'Z', ' ', "'", '"', '`', '\\', '*/', '/*', '\n', '\u2028', '${', '// @schema-sync', 'é', '0', '}') });

/** A descriptor whose strings hold quotes, backslashes, comment marks, line breaks and more. */
export const arbitraryDescriptor = fc
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

/**
 * A listing of such descriptors: names made unique after mapping to identifiers (`'` and `` ` ``
 * both become `_`) by an index suffix, numbers by the index.
 */
export const arbitraryListing = (constraints: { minLength: number; maxLength: number }) =>
  fc.array(arbitraryDescriptor, constraints).map((messages) => messages.map((m, i) => ({ ...m, name: `${m.name}_${i}`, mNum: i })));
