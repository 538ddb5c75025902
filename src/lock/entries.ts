import { sortDescriptors, type Descriptor } from '../model/descriptor.js';
import { parseEntries } from './parse.js';
import { jsonText } from '../text/safe-text.js';

/**
 * Reading a lockfile in schema-sync's own layout entry by entry, so a pull that changed a few of
 * many types parses and compares only those: an entry's text is a function of its descriptor
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
    // A key without escapes (a quote inside is escaped too) is the text between its quotes; a
    // key holds no raw line break, so one inside means the scan ran into the next entry.
    const raw = text.slice(at + 5, keyEnd);
    if (raw.includes('\n')) return undefined;
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

/**
 * The descriptors of the lockfile text `before`, exactly as a full parse gives them (same
 * values, same errors), where every entry whose text is the same in `after` is `after`'s own
 * descriptor object (a diff skips those by identity): only the other entries are parsed and
 * validated. `after` is a lockfile just serialised from valid descriptors, so an entry equal to
 * one of its entries is valid too.
 * @returns undefined when `before` is not in schema-sync's layout or has another header (then
 *   parse it whole)
 */
export function descriptorsSharing(
  before: { text: string; path: string },
  after: { text: string; entries: ReadonlyMap<string, string>; descriptors: readonly Descriptor[] },
): Descriptor[] | undefined {
  const entries = lockfileEntries(before.text);
  if (entries === undefined || head(before.text) !== head(after.text)) return undefined;
  const fetched = new Map(after.descriptors.map((descriptor) => [descriptor.name, descriptor]));
  const shared: Descriptor[] = [];
  const others: Array<[string, unknown]> = [];
  for (const [name, text] of entries) {
    const same = after.entries.get(name) === text ? fetched.get(name) : undefined;
    if (same !== undefined) {
      shared.push(same);
      continue;
    }
    try {
      others.push([name, JSON.parse(text)]);
    } catch {
      // Edited by hand into something that is not JSON: the full parse says where.
      return undefined;
    }
  }
  return sortDescriptors([...shared, ...parseEntries(others, before.path)]);
}

/** The text before the messages: version and source. */
function head(text: string): string {
  return text.slice(0, text.indexOf(MESSAGES_KEY));
}

/** The line (1-based) of message `name`'s entry in a lockfile in schema-sync's layout; undefined when it has none. */
export function entryLine(text: string, name: string): number | undefined {
  const at = text.indexOf(`\n    ${jsonText(name)}: {`);
  return at < 0 ? undefined : text.slice(0, at + 1).split('\n').length;
}
