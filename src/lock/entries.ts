import { jsonText } from '../text/safe-text.js';
import { FILE_KEY } from '../model/lockfile.js';

/**
 * Where a message type's entry stands in a lockfile in schema-sync's own layout (for
 * annotations that point into it), and the entries of such a lockfile as texts (for the memo
 * that parses only the entries a pull changed, `lock/locked-descriptors.ts`).
 */

const MESSAGES_KEY = '\n  "messages": {';
const MESSAGES_OPEN = `${MESSAGES_KEY}\n`;
const KEY_END = '": {\n';
const ENTRY_END = '\n    }';
/** The end of a lockfile with no messages. */
const EMPTY_MESSAGES_END = `${MESSAGES_KEY}}\n}\n`;
/** What a JSON string holds only escaped. */
const NOT_IN_JSON_STRING = /["\u0000-\u001f]/;

/** The line (1-based) of message `name`'s entry in a lockfile in schema-sync's layout; undefined when it has none. */
export function entryLine(text: string, name: string): number | undefined {
  const at = text.indexOf(`\n    ${jsonText(name)}: {`);
  return at < 0 ? undefined : text.slice(0, at + 1).split('\n').length;
}

/** The text before the messages: version, source and settings; the whole text when it has no messages key. */
export function lockfileHeadText(text: string): string {
  const at = text.indexOf(MESSAGES_KEY);
  return at < 0 ? text : text.slice(0, at);
}

/**
 * The entries of a lockfile text in schema-sync's own layout, by name, each the text
 * `serializeLockfileEntries` gives for it. The layout makes this a scan: every entry starts
 * with its key, a JSON string (no raw line break), at four spaces, and only its closing brace
 * sits at four spaces, for everything inside is indented further.
 * @returns undefined when the text is not laid out so (then parse it the usual way)
 */
export function lockfileEntries(text: string): Map<string, string> | undefined {
  const entries = new Map<string, string>();
  // The first messages key is the one whose entries these are: the head is the text before it.
  const key = text.indexOf(MESSAGES_KEY);
  const open = text.indexOf(MESSAGES_OPEN);
  if (open < 0) return key >= 0 && key + EMPTY_MESSAGES_END.length === text.length && text.endsWith(EMPTY_MESSAGES_END) ? entries : undefined;
  if (key !== open) return undefined;
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
    if (!raw.includes('\\')) {
      // Not JSON: a raw quote or control character (the whole parse says what is wrong).
      if (NOT_IN_JSON_STRING.test(raw)) return undefined;
    } else {
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

/** An entry's own key at the start of a line: only the entry's keys sit at six spaces, and a JSON string holds no raw line break. */
const FILE_LINE = `\n      ${JSON.stringify(FILE_KEY)}: `;

/**
 * The file stems (`$file`) that entry texts in schema-sync's layout record, by name: only the
 * entries that have one are parsed. A value that is not a string is left out (the entry's full
 * parse says what is wrong with it).
 */
export function recordedFileStems(entries: ReadonlyMap<string, string>): Map<string, string> {
  const stems = new Map<string, string>();
  for (const [name, text] of entries) {
    if (!text.includes(FILE_LINE)) continue;
    try {
      const stem: unknown = (JSON.parse(text) as Record<string, unknown>)[FILE_KEY];
      if (typeof stem === 'string') stems.set(name, stem);
    } catch {
      // Not JSON: the full parse says where.
    }
  }
  return stems;
}
