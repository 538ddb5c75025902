/**
 * A vitest setup file: every property test (fast-check) draws from a fixed seed, so each run
 * makes the same choices and a failure reproduces. SCHEMA_SYNC_TEST_SEED chooses another; a
 * failing property prints its seed and path.
 */
import fc from 'fast-check';
import { DEFAULT_TEST_SEED } from './random.js';

const raw = process.env['SCHEMA_SYNC_TEST_SEED']?.trim();
const seed = raw === undefined || raw === '' ? DEFAULT_TEST_SEED : Number(raw);
if (!Number.isSafeInteger(seed)) throw new Error(`SCHEMA_SYNC_TEST_SEED must be an integer, got "${raw}"`);
fc.configureGlobal({ ...fc.readConfigureGlobal(), seed });
