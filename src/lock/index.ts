export { parseLockfile } from './parse.js';
export { serializeLockfile, serializeLockfileEntries, stableStringify } from './serialize.js';
export { LockfileText } from './lockfile-text.js';
export { findMergeConflict, type MergeConflict } from './merge-conflict.js';
