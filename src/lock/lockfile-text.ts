import { hashOfPieces, type HashedText } from '../util/hash.js';
import type { Message } from '../model/message.js';
import type { GenerationSettings, Lockfile } from '../model/lockfile.js';
import type { Descriptor } from '../model/descriptor.js';
import { parseLaidOutLockfile, parseLockfile, validEntryDescriptor } from './parse.js';
import { lockfileEntries, lockfileHeadText, recordedFileStems } from './entries.js';
import { serializeLockfileEntries } from './serialize.js';
import { shareEntryStrings } from './shared-strings.js';

/** What a run reads of a lockfile besides its descriptors: the settings it records, and how many message types. */
export interface LockfileHead {
  settings: GenerationSettings;
  messageCount: number;
}

/**
 * A lockfile as text, with its hash, and its contents parsed on first use: a run where nothing
 * changed compares and keys by the hash, takes its head from a cache that recorded it for this
 * hash, and never parses its entries.
 */
export class LockfileText implements HashedText {
  readonly hash: string;
  /** The text as pieces that, run together, are the text (one piece when it was read); each ends after an entry, never inside a character. */
  readonly #pieces: readonly string[];
  #parsed: Lockfile | undefined;
  #head: LockfileHead | undefined;
  /** The entry texts once known: `texts` undefined when the text is not in schema-sync's layout. */
  #entries: { texts: ReadonlyMap<string, string> | undefined } | undefined;

  /**
   * `path` names the file in errors unless `named` does (e.g. "the base lockfile main:…");
   * `recorded` gives the head a cache recorded for a lockfile with this hash (one schema-sync
   * wrote or read whole before, so it is valid), if any.
   */
  constructor(
    text: string | readonly string[],
    readonly path: string,
    recorded?: (hash: string) => LockfileHead | undefined,
    private readonly named: Message | string = path,
  ) {
    this.#pieces = typeof text === 'string' ? [text] : text;
    this.hash = hashOfPieces(this.#pieces);
    this.#head = recorded?.(this.hash);
  }

  /**
   * The lockfile that serialises to these bytes, held as the serialiser's pieces (never joined
   * unless {@link LockfileText.text} is read); the long strings of its descriptors become slices
   * of them (`shareStrings`).
   */
  static of(lockfile: Lockfile, path: string): LockfileText {
    const { pieces, entries } = serializeLockfileEntries(lockfile, { shareStrings: true });
    const made = new LockfileText(pieces, path);
    made.#parsed = lockfile;
    made.#entries = { texts: entries };
    return made;
  }

  /**
   * The whole text. One made by {@link LockfileText.of} is joined from its pieces on each read
   * (and not kept: a large lockfile would then be held twice, as the text and as the pieces its
   * entries and strings are slices of); a run reads its pieces and hash instead.
   */
  get text(): string {
    return this.#pieces.length === 1 ? this.#pieces[0]! : this.#pieces.join('');
  }

  /** Pieces that, run together, are the text: to write it a piece at a time. */
  pieces(): readonly string[] {
    return this.#pieces;
  }

  /** The text before the messages: version, source and settings (`lockfileHeadText`), which the first piece holds. */
  headText(): string {
    return lockfileHeadText(this.#pieces[0]!);
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
    const texts = this.#parsed === undefined ? this.entryTexts() : undefined;
    if (texts !== undefined) return { names: [...texts.keys()], fileStems: recordedFileStems(texts) };
    const { messages, fileStems = new Map<string, string>() } = this.parse();
    return { names: messages.map((message) => message.name), fileStems };
  }

  /**
   * The contents as a plan reads them. With `letGo` (a run that writes: it plans once), in
   * schema-sync's layout, the plan gets each descriptor again from its entry text when a module
   * renders, and the parsed contents are let go here: a large listing's descriptors are not held
   * once the plan is made. A later {@link LockfileText.parse} parses the text again.
   */
  planInput(letGo: boolean): Lockfile & { descriptorOf?: (name: string) => Descriptor } {
    const parsed = this.parse();
    const texts = letGo ? this.entryTexts() : undefined;
    if (texts === undefined) return parsed;
    this.head();
    this.#parsed = undefined;
    // Valid: the entries were written from validated descriptors, or parsed whole just now.
    return { ...parsed, descriptorOf: (name) => validEntryDescriptor(name, JSON.parse(texts.get(name)!) as Record<string, unknown>) };
  }

  /**
   * The contents; a LockError names the file and entry when the text is not a valid lockfile.
   * Its descriptors' long strings are slices of the text (`shared-strings.ts`).
   */
  parse(): Lockfile {
    if (this.#parsed === undefined) {
      const texts = this.entryTexts();
      const parsed = (texts === undefined ? undefined : parseLaidOutLockfile(this.headText(), texts, this.named)) ?? parseLockfile(this.text, this.named);
      shareEntryStrings(parsed.messages, () => this.entryTexts());
      this.#parsed = parsed;
    }
    return this.#parsed;
  }
}
