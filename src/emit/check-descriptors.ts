/**
 * A last guard before descriptors become source text. The fetch stage and the lockfile reader
 * validate already; this catches a descriptor built by library users or a bug upstream, because
 * a wrong value here would not fail loudly but print as broken or misleading code.
 */
import type { Descriptor } from '../model/descriptor.js';
import { EmitError } from '../model/errors.js';
import { showName } from './naming.js';
import { jsonText } from '../text/safe-text.js';

const STRING_FIELDS = ['name', 'schemaHash'] as const;
/** Fields that may be absent (the service did not send them), but have a type when present. */
const OPTIONAL_STRING_FIELDS = ['mToken'] as const;
const BOOLEAN_FIELDS = ['hasTKey', 'hasEKey', 'hasOKey', 'hasCF'] as const;
const STRING_ARRAY_FIELDS = ['actions', 'staticFilterFields'] as const;

function fail(index: number, descriptor: Descriptor, field: string, expected: string): never {
  const value = (descriptor as unknown as Record<string, unknown>)[field];
  // The input is sorted by name, so the name says more than a position would.
  const where =
    typeof descriptor.name === 'string' && descriptor.name !== ''
      ? `Message type ${showName(descriptor.name)}`
      : `Message type number ${index + 1} (sorted by name)`;
  throw new EmitError(
    `${where}: field ${field} must be ${expected}, got ${jsonText(value)}.`,
    { hint: 'Run schema-sync pull to rebuild the lockfile from the service, or fix the descriptor.' },
  );
}

/**
 * Checks field types (an optional field may be absent, not null), that `mNum` is a non-negative safe integer, and that no name or `mNum`
 * occurs twice.
 *
 * @param descriptors - sorted by name.
 * @throws EmitError naming the message and field, or both messages of a duplicate.
 */
export function checkDescriptors(descriptors: readonly Descriptor[]): void {
  const byNumber = new Map<number, string>();
  descriptors.forEach((descriptor, index) => {
    for (const field of STRING_FIELDS) {
      if (typeof descriptor[field] !== 'string') fail(index, descriptor, field, 'a string');
    }
    for (const field of OPTIONAL_STRING_FIELDS) {
      if (descriptor[field] !== undefined && typeof descriptor[field] !== 'string') fail(index, descriptor, field, 'a string');
    }
    if (descriptor.name === '') fail(index, descriptor, 'name', 'a non-empty string');
    if (!Number.isSafeInteger(descriptor.mNum) || descriptor.mNum < 0) {
      fail(index, descriptor, 'mNum', 'a non-negative integer');
    }
    for (const field of BOOLEAN_FIELDS) {
      if (descriptor[field] !== undefined && typeof descriptor[field] !== 'boolean') fail(index, descriptor, field, 'true or false');
    }
    for (const field of STRING_ARRAY_FIELDS) {
      const value: unknown = descriptor[field];
      if (value !== undefined && (!Array.isArray(value) || !value.every((item) => typeof item === 'string'))) {
        fail(index, descriptor, field, 'an array of strings');
      }
    }
    const other = byNumber.get(descriptor.mNum);
    if (other !== undefined) {
      throw new EmitError(
        `Message types ${showName(other)} and ${showName(descriptor.name)} have the same mNum ${descriptor.mNum}.`,
        { hint: 'Each message number must be unique; check the listing or the lockfile.' },
      );
    }
    byNumber.set(descriptor.mNum, descriptor.name);
  });
}
