import type { LockfileText } from './lockfile-text.js';
import { descriptorOfOwnEntry, parseEntries } from './parse.js';
import { sortDescriptors, type Descriptor } from '../model/descriptor.js';

/**
 * The descriptors of the lockfile `before`, exactly as its full parse gives them (same values,
 * same errors): a memo of parsing an entry, keyed by the entry's text. Parsing is a pure
 * function of that text, and `after` was serialised from `fetched`, valid descriptors, so an entry
 * of `before` whose text is the same in `after` is the fetched descriptor object (which the diff
 * skips by identity); only the other entries are parsed and validated. A pull that changed a few
 * of many types parses and compares only those. A `before` not in schema-sync's layout, or with
 * another head (version, source, settings), is parsed whole. With `own`, `before` is known to be
 * a lockfile this schema-sync wrote (the cache recorded the answer that made it): its other
 * entries are parsed, not validated again.
 */
export function lockedDescriptors(before: LockfileText, after: LockfileText, fetched: readonly Descriptor[], own = false): readonly Descriptor[] {
  const entries = before.entryTexts();
  const made = after.entryTexts();
  if (entries === undefined || made === undefined || before.headText() !== after.headText()) return before.parse().messages;
  const byName = new Map(fetched.map((descriptor) => [descriptor.name, descriptor]));
  const shared: Descriptor[] = [];
  const others: Array<[string, unknown]> = [];
  for (const [name, text] of entries) {
    const same = made.get(name) === text ? byName.get(name) : undefined;
    if (same !== undefined) {
      shared.push(same);
      continue;
    }
    const written = own ? descriptorOfOwnEntry(name, text) : undefined;
    if (written !== undefined) {
      shared.push(written);
      continue;
    }
    try {
      others.push([name, JSON.parse(text)]);
    } catch {
      // Edited by hand into something that is not JSON: the full parse says where.
      return before.parse().messages;
    }
  }
  return sortDescriptors([...shared, ...parseEntries(others, before.path)]);
}
