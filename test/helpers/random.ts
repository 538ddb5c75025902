import { expect, onTestFailed } from 'vitest';

export { seededRandom } from './folder-states.mjs';

/** The seed when SCHEMA_SYNC_TEST_SEED is not set: fixed, so every run makes the same choices. */
export const DEFAULT_TEST_SEED = 20_250_613;

/**
 * The seed of a test that picks random moments or signals: SCHEMA_SYNC_TEST_SEED when set (to
 * replay a failure, or to try other choices), else {@link DEFAULT_TEST_SEED}. Call it inside the
 * test: should the test fail, the seed and the command that replays it are printed.
 */
export function testSeed(): number {
  const raw = process.env['SCHEMA_SYNC_TEST_SEED']?.trim();
  const seed = raw === undefined || raw === '' ? DEFAULT_TEST_SEED : Number(raw);
  if (!Number.isSafeInteger(seed)) throw new Error(`SCHEMA_SYNC_TEST_SEED must be an integer, got "${raw}"`);
  const file = expect.getState().testPath ?? '';
  onTestFailed(() => {
    console.error(`seed ${seed}; replay with: SCHEMA_SYNC_TEST_SEED=${seed} npx vitest run ${file.replace(/^.*?(?=test\/)/, '')}`);
  });
  return seed;
}
