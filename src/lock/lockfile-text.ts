import { hashOf, type HashedText } from '../util/hash.js';
import type { Message } from '../model/message.js';
import type { Descriptor } from '../model/descriptor.js';
import type { GenerationSettings, Lockfile } from '../model/lockfile.js';
import { parseLockfile } from './parse.js';
import { lockfileEntries, lockfileHeadText, recordedFileStems } from './entries.js';
import { serializeLockfileEntries } from './serialize.js';

/** What a run reads of a lockfile besides its descriptors: the settings it records, and how many message types. */
export interface LockfileHead {
  settings: GenerationSettings;
  messageCount: number;
}

/**
 * A lockfile: its text and hash, and its contents parsed on first use (a run where nothing
 * changed compares and keys by the hash, takes its head from a cache that recorded it for this
 * hash, and never parses it).
 */
export class LockfileText implements HashedText {
  readonly hash: string;
  #parsed: Lockfile | undefined;
  #head: LockfileHead | undefined;
  /** The entry texts once known: `texts` undefined when the text is not in schema-sync's layout. */
  #entries: { texts: ReadonlyMap<string, string> | undefined } | undefined;
  #layout: ReturnType<LockfileText['fileLayout']> | undefined;

  /**
   * `path` names the file in errors unless `named` does (e.g. "the base lockfile main:…");
   * `recorded` gives the head a cache recorded for a lockfile with this hash (one schema-sync
   * wrote or read whole before, so it is valid), if any.
   */
  constructor(
    readonly text: string,
    readonly path: string,
    recorded?: (hash: string) => LockfileHead | undefined,
    private readonly named: Message | string = path,
  ) {
    this.hash = hashOf(text);
    this.#head = recorded?.(this.hash);
  }

  /**
   * The lockfile that serialises to these bytes, with `lockfile` as its contents; `written` gives
   * the entry texts known of its descriptors (`serializeLockfileEntries`).
   */
  static of(lockfile: Lockfile, path: string, written?: (descriptor: Descriptor) => string | undefined): LockfileText {
    const { text, entries } = serializeLockfileEntries(lockfile, written);
    const made = new LockfileText(text, path);
    made.#parsed = lockfile;
    made.#entries = { texts: entries };
    return made;
  }

  /** The settings and the number of message types: as recorded for this hash, else parsed. */
  head(): LockfileHead {
    if (this.#head === undefined) {
      const { settings, messages } = this.parse();
      this.#head = { settings, messageCount: messages.length };
    }
    return this.#head;
  }

  /** The generation settings it records. */
  settings(): GenerationSettings {
    return this.head().settings;
  }

  /** How many message types it records. */
  messageCount(): number {
    return this.head().messageCount;
  }

  /** The text before the messages: version, source and settings (`lockfileHeadText`). */
  headText(): string {
    return lockfileHeadText(this.text);
  }

  /**
   * Each message's entry text by name, as `serializeLockfileEntries` writes it; undefined when
   * the text is not in schema-sync's own layout (edited by hand).
   */
  entryTexts(): ReadonlyMap<string, string> | undefined {
    return (this.#entries ??= { texts: lockfileEntries(this.text) }).texts;
  }

  /**
   * The names of its message types, and the file stems it records (`Lockfile.fileStems`): from
   * the entry texts when in schema-sync's layout (a scan, parsing only entries that record a
   * stem), else from the full parse.
   */
  fileLayout(): { names: readonly string[]; fileStems: ReadonlyMap<string, string> } {
    return (this.#layout ??= this.#readLayout());
  }

  #readLayout(): { names: readonly string[]; fileStems: ReadonlyMap<string, string> } {
    const texts = this.#parsed === undefined ? this.entryTexts() : undefined;
    if (texts !== undefined) return { names: [...texts.keys()], fileStems: recordedFileStems(texts) };
    const { messages, fileStems = new Map<string, string>() } = this.parse();
    return { names: messages.map((message) => message.name), fileStems };
  }

  /** The contents; a LockError names the file and entry when the text is not a valid lockfile. */
  parse(): Lockfile {
    return (this.#parsed ??= parseLockfile(this.text, this.named));
  }
}
