import type { Descriptor } from '../model/descriptor.js';
import { descriptorOfEntry } from './parse.js';

/**
 * Reading a lockfile schema-sync wrote itself entry by entry, so a pull that changed a hundred of
 * 10,000 types parses and compares only those: an entry's text is a function of its descriptor
 * (`serializeLockfile` is deterministic and a parse gives back what it serialised), so equal
 * entry texts mean equal descriptors.
 */

const MESSAGES_KEY = '\n  "messages": {';
const MESSAGES_OPEN = `${MESSAGES_KEY}\n`;
const KEY_END = '": {\n';
const ENTRY_END = '\n    }';

/**
 * The entries of a lockfile text in schema-sync's own layout, by name, each the text
 * `serializeLockfileEntries` gives for it. The layout makes this a scan: every entry starts
 * with its key, a JSON string (no raw line break), at four spaces, and only its closing brace
 * sits at four spaces, for everything inside is indented further.
 * @returns undefined when the text is not laid out so (then parse it the usual way)
 */
export function lockfileEntries(text: string): Map<string, string> | undefined {
  const entries = new Map<string, string>();
  const open = text.indexOf(MESSAGES_OPEN);
  if (open < 0) return text.includes(`${MESSAGES_KEY}}\n`) ? entries : undefined;
  let at = open + MESSAGES_OPEN.length;
  for (;;) {
    if (!text.startsWith('    "', at)) return undefined;
    const keyEnd = text.indexOf(KEY_END, at);
    const close = keyEnd < 0 ? -1 : text.indexOf(ENTRY_END, keyEnd);
    if (close < 0) return undefined;
    // A key without escapes (a quote inside is escaped too) is the text between its quotes.
    const raw = text.slice(at + 5, keyEnd);
    let name: unknown = raw;
    if (raw.includes('\\')) {
      try {
        name = JSON.parse(text.slice(at + 4, keyEnd + 1));
      } catch {
        return undefined;
      }
    }
    if (typeof name !== 'string' || entries.has(name)) return undefined;
    const end = close + ENTRY_END.length;
    entries.set(name, text.slice(keyEnd + 3, end));
    if (text.startsWith(',\n', end)) {
      at = end + 2;
    } else {
      return text.startsWith('\n  }\n}\n', end) && end + 7 === text.length ? entries : undefined;
    }
  }
}

/** The lockfile descriptors read by {@link lockedDescriptors}. */
export interface LockedEntries {
  /** In name order, as `parseLockfile` gives them. */
  descriptors: Descriptor[];
  /** Names whose entry text is the same in both lockfiles: their descriptors are the fetched ones. */
  unchanged: Set<string>;
  /** Whether both lockfiles have the same names and the same header (source). */
  sameNamesAndSource: boolean;
}

/**
 * The descriptors of the lockfile text `current` (schema-sync's own, as the run memo vouches),
 * reusing the fetched descriptor wherever its entry text is the same: only changed and removed
 * entries are parsed.
 * @returns undefined when `current` is not in schema-sync's layout
 */
export function lockedDescriptors(current: string, next: { text: string; entries: ReadonlyMap<string, string>; descriptors: readonly Descriptor[] }): LockedEntries | undefined {
  const entries = lockfileEntries(current);
  if (entries === undefined) return undefined;
  const fetched = new Map(next.descriptors.map((descriptor) => [descriptor.name, descriptor]));
  const descriptors: Descriptor[] = [];
  const unchanged = new Set<string>();
  for (const [name, text] of entries) {
    const same = next.entries.get(name) === text ? fetched.get(name) : undefined;
    if (same !== undefined) unchanged.add(name);
    descriptors.push(same ?? descriptorOfEntry(name, JSON.parse(text) as Record<string, unknown>));
  }
  const sameNames = entries.size === next.entries.size && [...entries.keys()].every((name) => next.entries.has(name));
  return { descriptors, unchanged, sameNamesAndSource: sameNames && head(current) === head(next.text) };
}

/** The text before the messages: version and source. */
function head(text: string): string {
  return text.slice(0, text.indexOf(MESSAGES_KEY));
}
