export { readLockfile } from './read-lockfile.js';
export { parseLockfile } from './parse.js';
export { serializeLockfile, stableStringify } from './serialize.js';
