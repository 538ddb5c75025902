export { parseLockfile } from './parse.js';
export { serializeLockfile, stableStringify } from './serialize.js';
export { LockfileText } from './lockfile-text.js';
