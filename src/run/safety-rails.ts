import type { Descriptor } from '../model/descriptor.js';
import { RefusedError } from '../model/errors.js';

/**
 * Refuses pulls that are more likely a broken service than a real change: an empty listing
 * when types are locked, or one that removes more than half of them.
 */
export function checkSafetyRails(input: {
  locked: readonly Descriptor[];
  fetched: readonly Descriptor[];
  allowEmpty?: boolean;
  force?: boolean;
}): void {
  const { locked, fetched } = input;
  if (locked.length > 0 && fetched.length === 0 && !input.allowEmpty) {
    throw new RefusedError(`the service returned no message types, but the lockfile has ${locked.length}; nothing was changed.`, {
      hint: 'If the service really has no message types now, run again with --allow-empty.',
    });
  }
  if (fetched.length === 0) return;
  const names = new Set(fetched.map((d) => d.name));
  const numbers = new Set(fetched.map((d) => d.mNum));
  // A rename keeps its mNum: it is not a removal for this rail.
  const removed = locked.filter((d) => !names.has(d.name) && !numbers.has(d.mNum)).length;
  if (removed * 2 > locked.length && !input.force) {
    throw new RefusedError(
      `this pull would remove ${removed} of ${locked.length} locked message types; nothing was changed.`,
      { hint: 'Check the query (--where, --msg-type, --limit). If the removal is intended, run again with --force.' },
    );
  }
}
