export { readLockfile } from './read-lockfile.js';
export { parseLockfile } from './parse.js';
export { LOCKFILE_LAYOUT, serializeLockfile, serializeLockfileEntries, stableStringify } from './serialize.js';
export { lockedDescriptors, lockfileEntries, unchangedEntryText } from './entries.js';
