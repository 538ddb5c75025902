import v8 from 'node:v8';
import vm from 'node:vm';

/**
 * The size of an answer (its bytes) or a lockfile past which a run collects its garbage as soon
 * as it has parsed or read it (see {@link garbageCollector}). A 10,000-type listing is far below it.
 */
export const LARGE_READ_BYTES = 64 * 1024 * 1024;

/**
 * The size of a generated file past which a run collects its young garbage once the file is
 * written (see {@link garbageCollector}): a module with a description of hundreds of KB.
 */
export const LARGE_FILE_BYTES = 256 * 1024;

/**
 * V8's collector, for a run that makes garbage in bulk at known moments:
 * - `full` once a large answer is parsed: its bytes (held outside V8's heap) and the texts of its
 *   elements are garbage, but V8 collects the old generation only when that heap grows, and the
 *   lockfile the run builds next comes as one allocation: without a collection in between, the
 *   bytes, the descriptors and the lockfile's text are all resident at once. Likewise once a
 *   large lockfile is read (its bytes, beside its text and then its parse);
 * - `young` after each large file is written, and after each batch of a large answer parsed:
 *   rendering a file leaves several copies of its text, and a batch its text and a bracketed
 *   copy, each large enough for V8's young large-object space, which it lets reach ~100 MB before
 *   a scavenge (a collection of the young generation only, which takes about a millisecond).
 *
 * The process's own `gc` when it was started with `--expose-gc`; else `gc` is exposed to a new
 * context only, for the moment it is taken, so neither the caller's global scope nor its later
 * contexts see it. Where there is no `gc` to take, collecting does nothing: it only ever saves
 * memory, and must never fail a run.
 */
export function garbageCollector(): { full(): void; young(): void } {
  let gc: Collect | undefined | null;
  const collect = (options?: { type: 'minor' }) => {
    if (gc === undefined) gc = takeGc();
    gc?.(options);
  };
  return { full: () => collect(), young: () => collect({ type: 'minor' }) };
}

type Collect = (options?: { type: 'minor' }) => void;

/** The process's `gc`, or one taken from a new context; null when there is none. */
function takeGc(): Collect | null {
  const own = (globalThis as { gc?: unknown }).gc;
  if (typeof own === 'function') return own as Collect;
  try {
    v8.setFlagsFromString('--expose-gc');
    const taken: unknown = vm.runInNewContext('gc');
    return typeof taken === 'function' ? (taken as Collect) : null;
  } catch {
    return null;
  } finally {
    v8.setFlagsFromString('--no-expose-gc');
  }
}
