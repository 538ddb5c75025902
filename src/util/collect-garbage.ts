import v8 from 'node:v8';
import vm from 'node:vm';

/**
 * The size of an answer (its bytes) past which a run collects its garbage as soon as it has
 * parsed it (see {@link collectGarbage}). A 10,000-type listing is far below it.
 */
export const LARGE_ANSWER_BYTES = 64 * 1024 * 1024;

/**
 * A full garbage collection now. Once a large answer is parsed, its bytes (held outside V8's
 * heap) and the texts of its elements are garbage, but V8 collects the old generation only when
 * that heap grows, and the lockfile the run builds next comes as one allocation: without a
 * collection in between, the bytes, the descriptors and the lockfile's text are all resident at
 * once. `gc` is exposed to a new context only, for the moment it is taken, so neither the
 * caller's global scope nor its later contexts see it.
 */
export function collectGarbage(): void {
  v8.setFlagsFromString('--expose-gc');
  try {
    (vm.runInNewContext('gc') as () => void)();
  } finally {
    v8.setFlagsFromString('--no-expose-gc');
  }
}
