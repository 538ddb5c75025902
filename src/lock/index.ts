export { descriptorOfOwnEntry, parseLockfile } from './parse.js';
export { entryDescriptor } from './entry-descriptor.js';
export { serializeLockfile, serializeLockfileEntries, stableStringify } from './serialize.js';
export { LockfileText, type LockfileHead } from './lockfile-text.js';
export { findMergeConflict, type MergeConflict } from './merge-conflict.js';
export { entryLine } from './entries.js';
export { lockedDescriptors } from './locked-descriptors.js';
