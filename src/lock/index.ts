export { readLockfile } from './read-lockfile.js';
export { parseLockfile } from './parse.js';
export { serializeLockfile, serializeLockfileEntries, stableStringify } from './serialize.js';
export { lockedDescriptors, lockfileEntries } from './entries.js';
