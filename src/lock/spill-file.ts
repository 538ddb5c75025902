import { closeSync, mkdtempSync, openSync, readSync, rmdirSync, unlinkSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { StringDecoder } from 'node:string_decoder';

/** Where each entry of a piece of lockfile text lies in it: the message's name, and the entry's first and past-last character. */
export type EntrySpans = ReadonlyArray<readonly [name: string, start: number, end: number]>;

/** Bytes read at a time: the text in chunks when written out, entries a window at a time. */
const CHUNK_BYTES = 1 << 20;

/** A spill file that could not be written (a full disk): it is closed, and the text is to be held instead. */
export class SpillError extends Error {}

/** Closes the file of a spill that is no longer reachable (a library that pulls again and again). */
const closer = new FinalizationRegistry<number>((fd) => {
  try {
    closeSync(fd);
  } catch {
    // Closed already, or the process is going.
  }
});

/**
 * The text of a lockfile that a run made, kept in a temporary file rather than in memory
 * (`LockfileText.of`): a listing of 100,000 types makes about 100 MB of it, which would be held
 * from the diff to the end of the run. The file is removed as soon as it is open, so nothing is
 * left behind however the run ends; it is read through its descriptor, each entry by its byte
 * offsets, and the text in chunks when it is written out. (Where the temporary folder is in
 * memory, a tmpfs, the process's memory is spared but not the machine's: TMPDIR can name a
 * folder on disk.)
 */
export class SpillFile implements Iterable<string> {
  #size = 0;
  /** Each message's entry as two byte offsets in {@link SpillFile.#spans}, by name. */
  readonly #at = new Map<string, number>();
  readonly #spans: number[] = [];
  /** The bytes last read: entries are read in the order they were written, many to a window. */
  #window: { start: number; bytes: Buffer } | undefined;

  private constructor(private readonly fd: number) {
    closer.register(this, fd, this);
  }

  /**
   * A new spill file in the system's temporary folder, or undefined where one cannot be made or
   * cannot be removed while open (Windows): the text is then held in memory.
   */
  static create(): SpillFile | undefined {
    if (process.platform === 'win32') return undefined;
    let folder: string | undefined;
    try {
      folder = mkdtempSync(join(tmpdir(), 'schema-sync-'));
      const path = join(folder, 'lockfile');
      const fd = openSync(path, 'wx+', 0o600);
      unlinkSync(path);
      return new SpillFile(fd);
    } catch {
      return undefined;
    } finally {
      if (folder !== undefined) removeFolder(folder);
    }
  }

  /**
   * Appends a piece of the text whose entries lie at `spans` (character offsets in `piece`).
   * @throws SpillError when it cannot be written; the file is closed then
   */
  append(piece: string, spans: EntrySpans): void {
    // Written as text: a Buffer of each piece would be memory outside the heap that only a
    // collection frees, and a large lockfile's pieces would pile up before one came.
    const length = Buffer.byteLength(piece, 'utf8');
    try {
      let done = writeSync(this.fd, piece, this.#size, 'utf8');
      if (done < length) {
        const bytes = Buffer.from(piece, 'utf8');
        while (done < length) done += writeSync(this.fd, bytes, done, length - done, this.#size + done);
      }
    } catch (cause) {
      closer.unregister(this);
      closeSync(this.fd);
      throw new SpillError(`the lockfile's spill file could not be written: ${(cause as Error).message}`, { cause });
    }
    // Character offsets are byte offsets in a piece of ASCII text, the usual case; else each span is measured.
    const ascii = length === piece.length;
    let chars = 0;
    let at = this.#size;
    for (const [name, start, end] of spans) {
      const from = ascii ? this.#size + start : (at += Buffer.byteLength(piece.slice(chars, start), 'utf8'));
      const to = ascii ? this.#size + end : (at += Buffer.byteLength(piece.slice(start, end), 'utf8'));
      chars = end;
      this.#at.set(name, this.#spans.length);
      this.#spans.push(from, to);
    }
    this.#size += length;
  }

  /** The text, a chunk at a time. */
  *[Symbol.iterator](): Generator<string> {
    const decoder = new StringDecoder('utf8');
    const buffer = Buffer.allocUnsafe(CHUNK_BYTES);
    for (let at = 0; at < this.#size; at += CHUNK_BYTES) {
      const length = Math.min(CHUNK_BYTES, this.#size - at);
      yield decoder.write(this.#read(buffer, length, at));
    }
    const rest = decoder.end();
    if (rest !== '') yield rest;
  }

  /** The entries' texts by name, each read from the file when asked for. */
  entries(): ReadonlyMap<string, string> {
    return new SpilledEntries(this.#at, (name) => this.#entry(name));
  }

  #entry(name: string): string | undefined {
    const index = this.#at.get(name);
    if (index === undefined) return undefined;
    const start = this.#spans[index]!;
    const end = this.#spans[index + 1]!;
    let window = this.#window;
    if (window === undefined || start < window.start || end > window.start + window.bytes.length) {
      const length = Math.min(Math.max(CHUNK_BYTES, end - start), this.#size - start);
      const bytes = window !== undefined && window.bytes.length === length ? window.bytes : Buffer.allocUnsafe(length);
      window = this.#window = { start, bytes: this.#read(bytes, length, start) };
    }
    return window.bytes.toString('utf8', start - window.start, end - window.start);
  }

  /** `length` bytes of the file from `position` into `bytes`, whole (a read may give fewer); the part of `bytes` read. */
  #read(bytes: Buffer, length: number, position: number): Buffer {
    for (let done = 0; done < length; ) {
      const read = readSync(this.fd, bytes, done, length - done, position + done);
      if (read === 0) throw new Error('the spilled lockfile text ended early');
      done += read;
    }
    return bytes.subarray(0, length);
  }
}

/** Removes the spill's empty folder; one left behind (it could not be) is empty and harmless. */
function removeFolder(folder: string): void {
  try {
    rmdirSync(folder);
  } catch {
    // Left for the system's cleaning of its temporary folder.
  }
}

/** A spill file's entries as a read-only map: the names are held, each text is read when asked for. */
class SpilledEntries implements ReadonlyMap<string, string> {
  constructor(
    private readonly at: ReadonlyMap<string, number>,
    private readonly read: (name: string) => string | undefined,
  ) {}

  get size(): number {
    return this.at.size;
  }

  get(name: string): string | undefined {
    return this.read(name);
  }

  has(name: string): boolean {
    return this.at.has(name);
  }

  keys(): MapIterator<string> {
    return this.at.keys();
  }

  *values(): MapIterator<string> {
    for (const name of this.at.keys()) yield this.read(name)!;
  }

  *entries(): MapIterator<[string, string]> {
    for (const name of this.at.keys()) yield [name, this.read(name)!];
  }

  [Symbol.iterator](): MapIterator<[string, string]> {
    return this.entries();
  }

  forEach(each: (value: string, key: string, map: ReadonlyMap<string, string>) => void): void {
    for (const [name, text] of this) each(text, name, this);
  }
}
