import type { Descriptor } from '../model/descriptor.js';
import { hashOf, type HashedText } from '../util/hash.js';
import type { GenerationSettings, Lockfile } from '../model/lockfile.js';
import { descriptorsSharing, lockfileEntries } from './entries.js';
import { parseLockfile, settingsOf } from './parse.js';
import { serializeLockfileEntries } from './serialize.js';

/**
 * A lockfile as text, with its hash, and its contents parsed on first use: a run where nothing
 * changed compares and keys by the hash and never parses its entries.
 */
export class LockfileText implements HashedText {
  readonly hash: string;
  #parsed: Lockfile | undefined;
  /** Entry texts by name, when this text was just serialised. */
  #entries: ReadonlyMap<string, string> | undefined;
  #settings: GenerationSettings | undefined;

  /** `path` names the file in errors. */
  constructor(
    readonly text: string,
    readonly path: string,
  ) {
    this.hash = hashOf(text);
  }

  /** The lockfile that serialises to these bytes. */
  static of(lockfile: Lockfile, path: string): LockfileText {
    const { text, entries } = serializeLockfileEntries(lockfile);
    const made = new LockfileText(text, path);
    made.#parsed = lockfile;
    made.#entries = entries;
    return made;
  }

  /** The generation settings, read without parsing the messages where the layout allows. */
  settings(): GenerationSettings {
    return (this.#settings ??= this.#parsed?.settings ?? settingsOf(this.text) ?? this.parse().settings);
  }

  /** How many message types it records: counted from its layout where it can be, without parsing them. */
  messageCount(): number {
    return this.#parsed?.messages.length ?? lockfileEntries(this.text)?.size ?? this.parse().messages.length;
  }

  /** The contents; a LockError names the file and entry when the text is not a valid lockfile. */
  parse(): Lockfile {
    return (this.#parsed ??= parseLockfile(this.text, this.path));
  }

  /**
   * The descriptors, as {@link parse} gives them, sharing `next`'s own descriptor objects where
   * an entry is the same in both: only the entries that differ are parsed (see `entries.ts`).
   * `next` is a lockfile made with {@link LockfileText.of}.
   */
  descriptorsSharedWith(next: LockfileText): Descriptor[] {
    const after = next.#parsed;
    const entries = next.#entries;
    const shared = after === undefined || entries === undefined ? undefined : descriptorsSharing(this, { text: next.text, entries, descriptors: after.messages });
    return shared ?? this.parse().messages;
  }
}
