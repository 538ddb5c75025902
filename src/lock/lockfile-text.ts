import { hashOf, type HashedText } from '../model/hash.js';
import type { Lockfile } from '../model/lockfile.js';
import { parseLockfile } from './parse.js';
import { serializeLockfile } from './serialize.js';

/**
 * A lockfile as text, with its hash, and its contents parsed on first use: a run where nothing
 * changed compares and keys by the hash and never parses 10,000 entries.
 */
export class LockfileText implements HashedText {
  readonly hash: string;
  #parsed: Lockfile | undefined;

  /** `path` names the file in errors. */
  constructor(
    readonly text: string,
    readonly path: string,
    parsed?: Lockfile,
  ) {
    this.hash = hashOf(text);
    this.#parsed = parsed;
  }

  /** The lockfile that serialises to these bytes. */
  static of(lockfile: Lockfile, path: string): LockfileText {
    return new LockfileText(serializeLockfile(lockfile), path, lockfile);
  }

  /** The contents; a LockError names the file and entry when the text is not a valid lockfile. */
  parse(): Lockfile {
    return (this.#parsed ??= parseLockfile(this.text, this.path));
  }
}
