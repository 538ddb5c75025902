import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { diffDescriptors, type DriftChange, type ReportedChange } from '../../src/diff/index.js';
import { compareStrings, type Descriptor } from '../../src/model/descriptor.js';
import { descriptor } from './descriptor-fixture.js';

/**
 * What diff(B, A) must say, given a change of diff(A, B): added and removed swap, before and
 * after swap, a rename goes back to its old name. Severities are left out on purpose: they are
 * not symmetric (an addition is safe, a removal breaking).
 */
function mirror(change: DriftChange): unknown {
  const swapFields = (fields: readonly { field: string; before: unknown; after: unknown }[]) =>
    fields.map(({ field, before, after }) => ({ field, before: after, after: before }));
  switch (change.kind) {
    case 'added':
      return { kind: 'removed', name: change.name, before: change.after };
    case 'removed':
      return { kind: 'added', name: change.name, after: change.before };
    case 'renamed':
      return {
        kind: 'renamed',
        name: change.before.name,
        before: change.after,
        after: change.before,
        fields: swapFields(change.fields),
      };
    case 'changed':
      return { kind: 'changed', name: change.name, fields: swapFields(change.fields) };
  }
}

/** A change without severities and rules (they follow the severities), for comparison with {@link mirror}. */
function withoutSeverity(change: ReportedChange): unknown {
  const { severity: _severity, rule: _rule, ...rest } = change;
  if (!('fields' in rest)) return rest;
  return { ...rest, fields: rest.fields.map(({ field, before, after }) => ({ field, before, after })) };
}

const byKindAndName = (changes: unknown[]): unknown[] =>
  [...changes].sort((a, b) => {
    const x = a as { kind: string; name: string };
    const y = b as { kind: string; name: string };
    return compareStrings(x.name, y.name) || compareStrings(x.kind, y.kind);
  });

function expectMirrored(input: { a: Descriptor[]; b: Descriptor[] }): void {
  const forward = diffDescriptors({ locked: input.a, fetched: input.b });
  const backward = diffDescriptors({ locked: input.b, fetched: input.a });
  expect(byKindAndName(backward.map(withoutSeverity))).toEqual(byKindAndName(forward.map(mirror)));
}

describe('diffDescriptors: mirror', () => {
  it('diff(A, B) and diff(B, A) swap added/removed and before/after', () => {
    const a = [
      descriptor('Gone', { mNum: 1 }),
      descriptor('Old', { mNum: 2, schemaHash: 'AAAA' }),
      descriptor('Kept', { mNum: 3, actions: ['select'], extra: { desc: 'x' } }),
    ];
    const b = [
      descriptor('New', { mNum: 2, schemaHash: 'BBBB' }),
      descriptor('Kept', { mNum: 3, actions: ['select', 'delete'], extra: { topic: 't' } }),
      descriptor('Fresh', { mNum: 4 }),
    ];
    expectMirrored({ a, b });
    // And the severities that are not symmetric are what the rules say.
    const kinds = diffDescriptors({ locked: b, fetched: a }).map((c) => `${c.severity} ${c.kind} ${c.name}`);
    expect(kinds).toEqual([
      'breaking removed Fresh',
      'breaking changed Kept',
      'breaking renamed Old',
      'safe added Gone',
    ]);
  });

  // Few names and numbers, so that lists overlap, and renames and number moves happen often.
  const arbitraryDescriptor = fc.record({
    name: fc.constantFrom('A', 'B', 'C', 'D', 'E'),
    mNum: fc.integer({ min: 1, max: 5 }),
    schemaHash: fc.constantFrom('H1', 'H2'),
    actions: fc.subarray(['select', 'insert', 'update', 'replace', 'delete', 'X']),
    hasTKey: fc.boolean(),
    hasEKey: fc.boolean(),
    hasOKey: fc.boolean(),
    hasCF: fc.boolean(),
    mToken: fc.constantFrom('T1', 'T2'),
    staticFilterFields: fc.subarray(['a', 'b']),
    extra: fc.dictionary(fc.constantFrom('desc', 'topic', 'pkey'), fc.jsonValue({ maxDepth: 2 }), { maxKeys: 2 }),
  });
  // Names and mNums unique per list, as the fetch and lock stages guarantee.
  const arbitraryListing = fc
    .uniqueArray(arbitraryDescriptor, { selector: (d) => d.name, maxLength: 5 })
    .map((list) => list.filter((d, i) => list.findIndex((other) => other.mNum === d.mNum) === i));

  it('holds for generated listings', () => {
    fc.assert(fc.property(arbitraryListing, arbitraryListing, (a, b) => expectMirrored({ a, b })));
  });

  it('finds nothing between a listing and itself', () => {
    fc.assert(
      fc.property(arbitraryListing, (a) => {
        expect(diffDescriptors({ locked: a, fetched: structuredClone(a) })).toEqual([]);
      }),
    );
  });
});
