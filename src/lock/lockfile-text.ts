import { hashOfPieces, pieceHasher, type HashedText } from '../util/hash.js';
import type { Message } from '../model/message.js';
import type { GenerationSettings, Lockfile } from '../model/lockfile.js';
import type { Descriptor } from '../model/descriptor.js';
import { parseLaidOutLockfile, parseLockfile, validEntryDescriptor } from './parse.js';
import { lockfileEntries, lockfileHeadText, recordedFileStems } from './entries.js';
import { writeLockfilePieces } from './serialize.js';
import { SpillError, SpillFile, type EntrySpans } from './spill-file.js';

/**
 * Characters of a lockfile's text past which a run that makes it keeps it in a spill file, not in
 * memory: a lockfile of more than about 16,000 types of 1 KB. Held, a smaller one costs no
 * temporary file, and its plan reads the descriptors in memory rather than parsing each entry
 * again (at 10,000 types that parse would be ~7 % of a pull after 100 changes).
 */
const SPILL_CHARS = 16 * 1024 * 1024;

/** The contents of a lockfile as a plan reads them: its messages as often as they are iterated, and each by name when a module renders. */
export type PlanLockfile = Omit<Lockfile, 'messages'> & { messages: Iterable<Descriptor>; descriptorOf?: (name: string) => Descriptor };

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
  #hash: string | undefined;
  /**
   * The text as pieces that, run together, are the text: one piece when it was read, the spill
   * file when a run made it (which gives it in chunks), or the serialiser's pieces where there
   * could be no spill file (each ending after an entry, never inside a character).
   */
  #pieces: readonly string[] | SpillFile;
  #headText: string | undefined;
  #parsed: Lockfile | undefined;
  #head: LockfileHead | undefined;
  /** The entry texts once known: `texts` undefined when the text is not in schema-sync's layout. */
  #entries: { texts: ReadonlyMap<string, string> | undefined } | undefined;
  /** A spilled lockfile's contents but its messages, which a plan reads from the entries instead. */
  #outline: Omit<Lockfile, 'messages'> | undefined;

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
    this.#head = recorded?.(this.hash);
  }

  /**
   * The lockfile that serialises to these bytes. Past `spillChars` characters of text (as its
   * first piece foretells it) it goes to a spill file as it is serialised (`spill-file.ts`), and its
   * descriptors are not kept: once the caller lets them go, only the file holds them, and a plan
   * reads them from their entries (a listing of 100,000 types is about 100 MB of each). A smaller
   * one, or one for which no spill file can be made or written (Windows, a temporary folder that
   * cannot be written, a full disk), is held as the serialiser's pieces (never joined unless
   * {@link LockfileText.text} is read), and its descriptors with it. `pieceChars` (tests) sets
   * where the serialiser's pieces end.
   */
  static of(lockfile: Lockfile, path: string, options: { spillChars?: number; pieceChars?: number } = {}): LockfileText {
    let spillChars = options.spillChars ?? SPILL_CHARS;
    const hasher = pieceHasher();
    const pieces: string[] = [];
    const spans: EntrySpans[] = [];
    let chars = 0;
    let held = 0;
    let headText: string | undefined;
    let spill: SpillFile | undefined;
    try {
      writeLockfilePieces(lockfile, (piece, entries) => {
        hasher.update(piece);
        headText ??= lockfileHeadText(piece);
        if (spill !== undefined) return spill.append(piece, entries);
        pieces.push(piece);
        spans.push(entries);
        chars += piece.length;
        held += entries.length;
        // A large lockfile is known by its first piece, the head and the entries' text so far a
        // type times the types (the head, with a package's changelog, only once): spilled from
        // there, not after all of the limit was held.
        const head = headText.length;
        if (Math.max(chars, head + ((chars - head) / Math.max(held, 1)) * lockfile.messages.length) <= spillChars) return;
        spill = SpillFile.create();
        if (spill === undefined) {
          spillChars = Infinity;
          return;
        }
        // The pieces so far go first; each one after goes as it comes.
        pieces.forEach((earlier, i) => spill!.append(earlier, spans[i]!));
        pieces.length = 0;
        spans.length = 0;
      }, options);
    } catch (error) {
      if (!(error instanceof SpillError)) throw error;
      // The spill file could not be written (a full disk): the text is held after all.
      return LockfileText.of(lockfile, path, { ...options, spillChars: Infinity });
    }
    const made = new LockfileText(pieces, path);
    made.#hash = hasher.digest();
    made.#headText = headText;
    if (spill === undefined) {
      made.#parsed = lockfile;
      const texts = new Map<string, string>();
      pieces.forEach((piece, i) => {
        for (const [name, start, end] of spans[i]!) texts.set(name, piece.slice(start, end));
      });
      made.#entries = { texts };
    } else {
      const { messages, ...outline } = lockfile;
      made.#pieces = spill;
      made.#entries = { texts: spill.entries() };
      made.#outline = outline;
      made.#head = { settings: lockfile.settings, messageCount: messages.length };
    }
    return made;
  }

  /** The {@link hashOf} of the text. */
  get hash(): string {
    return (this.#hash ??= hashOfPieces(this.#pieces));
  }

  /**
   * The whole text, read from its spill file (or joined from its pieces) on each read, and not
   * kept: a large lockfile would then be held for the rest of the run; a run reads its pieces
   * and hash instead.
   */
  get text(): string {
    const pieces = this.#pieces instanceof SpillFile ? [...this.#pieces] : this.#pieces;
    return pieces.length === 1 ? pieces[0]! : pieces.join('');
  }

  /** Pieces that, run together, are the text: to write it a piece at a time. */
  pieces(): Iterable<string> {
    return this.#pieces;
  }

  /** The text before the messages: version, source and settings (`lockfileHeadText`), which the first piece holds. */
  headText(): string {
    // A spilled lockfile has it from the start: its pieces are chunks of the file.
    return (this.#headText ??= lockfileHeadText((this.#pieces as readonly string[])[0]!));
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
   * once the plan is made. A later {@link LockfileText.parse} parses the text again. A spilled
   * lockfile is never parsed whole for a plan: its messages are read from the entries each time
   * they are iterated.
   */
  planInput(letGo: boolean): PlanLockfile {
    if (this.#outline !== undefined) {
      const texts = this.entryTexts()!;
      const descriptorOf = this.#descriptorOf(texts);
      return { ...this.#outline, messages: { *[Symbol.iterator]() { for (const name of texts.keys()) yield descriptorOf(name); } }, descriptorOf };
    }
    const parsed = this.parse();
    const texts = letGo ? this.entryTexts() : undefined;
    if (texts === undefined) return parsed;
    this.head();
    this.#parsed = undefined;
    return { ...parsed, descriptorOf: this.#descriptorOf(texts) };
  }

  /**
   * Each descriptor read again from its entry text. Valid: the entries were written from
   * validated descriptors, or parsed whole just now.
   */
  #descriptorOf(texts: ReadonlyMap<string, string>): (name: string) => Descriptor {
    return (name) => validEntryDescriptor(name, JSON.parse(texts.get(name)!) as Record<string, unknown>);
  }

  /** The contents; a LockError names the file and entry when the text is not a valid lockfile. */
  parse(): Lockfile {
    if (this.#parsed === undefined) {
      const texts = this.entryTexts();
      this.#parsed = (texts === undefined ? undefined : parseLaidOutLockfile(this.headText(), texts, this.named)) ?? parseLockfile(this.text, this.named);
    }
    return this.#parsed;
  }
}
