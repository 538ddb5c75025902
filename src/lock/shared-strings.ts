/**
 * A lockfile read and its parsed descriptors hold the same long strings (a `desc` may be MBs):
 * kept apart, a large listing's descriptions are resident twice while both are. A long string
 * of a descriptor's `extra` that the text holds as it is becomes a slice of the text instead, an
 * equal value held once ({@link shareEntryStrings}). The other way round, a descriptor kept
 * keeps the whole text. (A lockfile a run makes is not held: `spill-file.ts`.)
 */
import type { Descriptor } from '../model/descriptor.js';
import { hasUnsafe } from '../text/safe-text.js';

/**
 * Strings shorter than this are not shared: a slice costs a few words, and below V8's least
 * slice length it would be a copy anyway.
 */
const SHARED_MIN_LENGTH = 64;

/** Characters that a JSON string writes as something else (besides the unsafe ones, which `safeJson` escapes). */
const JSON_SPECIALS = /["\\]/;

/** Whether `value` is a string long enough to share that a lockfile's text holds as it is (inside its quotes). */
function shareable(value: unknown): value is string {
  return typeof value === 'string' && value.length >= SHARED_MIN_LENGTH && !JSON_SPECIALS.test(value) && !hasUnsafe(value);
}

/**
 * Makes each shareable string of each message's `extra` a slice of its entry text, where the
 * entry holds it as a field of its own; a string found nowhere stays as it is. `entryTexts` gives
 * the entries by name (`LockfileText.entryTexts`: slices of the lockfile's text, or undefined
 * when it is not in schema-sync's layout), asked for at the first string worth sharing.
 */
export function shareEntryStrings(messages: readonly Descriptor[], entryTexts: () => ReadonlyMap<string, string> | undefined): void {
  let entries: ReadonlyMap<string, string> | undefined;
  for (const descriptor of messages) {
    const { extra } = descriptor;
    for (const key of Object.keys(extra)) {
      const value = extra[key];
      if (!shareable(value)) continue;
      entries ??= entryTexts();
      if (entries === undefined) return;
      const entry = entries.get(descriptor.name);
      if (entry === undefined) break;
      // An entry's own fields stand at six spaces; a line break is never inside a JSON string.
      const head = `\n      ${JSON.stringify(key)}: "`;
      const at = entry.indexOf(head);
      const start = at + head.length;
      if (at >= 0 && entry.startsWith(value, start) && entry.charCodeAt(start + value.length) === 0x22) extra[key] = entry.slice(start, start + value.length);
    }
  }
}
