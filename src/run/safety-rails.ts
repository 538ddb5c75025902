import type { Descriptor } from '../model/descriptor.js';
import { RefusedError } from '../model/errors.js';
import { msg, own } from '../model/message.js';

/**
 * Refuses pulls that are more likely a broken service, a key with fewer entitlements or a
 * narrowed query than a real change: an empty listing when types are locked, or one that
 * removes more than half of them.
 */
export function checkSafetyRails(input: {
  locked: readonly Descriptor[];
  fetched: readonly Descriptor[];
  allowEmpty?: boolean;
  force?: boolean;
}): void {
  const { locked, fetched } = input;
  if (locked.length > 0 && fetched.length === 0 && !input.allowEmpty) {
    throw new RefusedError(msg`the service returned no message types, but the lockfile has ${locked.length}; nothing was changed. ${own(ENTITLEMENTS)}`, {
      hint: msg`Pull with the API key the lockfile was made with (SCHEMA_SYNC_API_KEY). If the service really has no message types now, run again with --allow-empty.`,
    });
  }
  if (fetched.length === 0) return;
  const names = new Set(fetched.map((d) => d.name));
  const lockedNames = new Set(locked.map((d) => d.name));
  // A rename keeps its mNum under a new name: not a removal for this rail. A number that a
  // surviving type moved to is no rename.
  const renamedNumbers = new Set(fetched.filter((d) => !lockedNames.has(d.name)).map((d) => d.mNum));
  const removed = locked.filter((d) => !names.has(d.name) && !renamedNumbers.has(d.mNum)).length;
  if (removed * 2 > locked.length && !input.force) {
    throw new RefusedError(
      msg`this pull would remove ${removed} of ${locked.length} locked message types; nothing was changed. ${own(ENTITLEMENTS)}`,
      {
        hint: msg`Pull with the API key the lockfile was made with (SCHEMA_SYNC_API_KEY), and check the query (--where, --msg-type, --limit). If the removal is intended, run again with --force.`,
      },
    );
  }
}

/** The likely cause of a listing that lost many types at once. */
const ENTITLEMENTS = 'A likely cause: the service lists only the types the API key is entitled to, and this key has fewer entitlements than the one the lockfile was made with.';
