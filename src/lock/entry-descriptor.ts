import { KNOWN_FIELDS, type Descriptor } from '../model/descriptor.js';
import { LockError } from '../model/errors.js';
import { FIELDS_KEY } from '../model/field.js';
import { msg } from '../model/message.js';
import { quoteString } from '../text/safe-text.js';
import { descriptorOfOwnEntry } from './parse.js';

/**
 * The descriptor of an entry text that schema-sync itself serialised (see
 * {@link descriptorOfOwnEntry}), read when a field other than its name or number is first asked
 * for. A pull that changes a few of many types takes every other one from its entry as it was
 * (`run/diff-answer.ts`): the diff compares those by identity, the new lockfile takes their entry
 * texts, and the plan their earlier inputs, so most of them are never read beyond their name and
 * number (bench/README.md, "Issue 41 item 10, fourth pass").
 *
 * It reads as the descriptor the entry parses to: each known field and `extra` by name, and its
 * JSON (`toJSON`) is that descriptor's. Only `name` and `mNum` are its own keys: read its fields
 * by name, as the stages do, not by listing its keys.
 */
class EntryDescriptor {
  readonly #text: string;
  readonly #file: string;
  #parsed: Descriptor | undefined;

  constructor(
    readonly name: string,
    readonly mNum: number,
    text: string,
    file: string,
  ) {
    this.#text = text;
    this.#file = file;
  }

  /** The descriptor the entry parses to, parsed once. */
  parsed(): Descriptor {
    if (this.#parsed !== undefined) return this.#parsed;
    const parsed = descriptorOfOwnEntry(this.name, this.#text);
    // The text came from a lockfile the cache recorded as this schema-sync's own: a hand edit
    // would have changed its hash. Only a cache folder tampered with gets here.
    if (parsed === undefined) {
      throw new LockError(msg`${this.#file}: the entry ${quoteString(this.name)} is not as schema-sync wrote it, though the cache folder says it is.`, {
        hint: msg`Delete the cache folder (or set SCHEMA_SYNC_CACHE_DIR=off) and run again: the lockfile is then read in full.`,
      });
    }
    return (this.#parsed = parsed);
  }

  /** The JSON of the descriptor the entry parses to. */
  toJSON(): Descriptor {
    return this.parsed();
  }
}

// Each other known field, and `extra`, reads the parsed descriptor's: the field table's rows,
// not a list kept here.
for (const key of [...KNOWN_FIELDS.filter((field) => field !== 'name' && field !== 'mNum'), 'extra'] as const) {
  Object.defineProperty(EntryDescriptor.prototype, key, {
    get(this: EntryDescriptor) {
      return this.parsed()[key];
    },
  });
}

/** How every entry schema-sync writes starts: its first field is `mNum`, a whole number. */
const ENTRY_HEAD = /^\{\n {6}"mNum": (\d{1,16})[,\n]/;
const FIELDS_KEY_TEXT = JSON.stringify(FIELDS_KEY);

/**
 * The descriptor of an entry text schema-sync wrote in the lockfile `file`, its name `name`: an {@link EntryDescriptor}
 * when the text has the layout the serialiser gives an entry without field descriptors, else as
 * {@link descriptorOfOwnEntry} gives it (undefined for an entry with field descriptors, or text
 * that is not JSON).
 */
export function entryDescriptor(name: string, text: string, file: string): Descriptor | undefined {
  const head = ENTRY_HEAD.exec(text);
  if (head === null || text.includes(FIELDS_KEY_TEXT)) return descriptorOfOwnEntry(name, text);
  return new EntryDescriptor(name, Number(head[1]), text, file) as unknown as Descriptor;
}
