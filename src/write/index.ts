export { writeOutput, writeIfChanged, atomicWrite, type OutputFile, type WriteResult, type WriteOutputOptions } from './write-output.js';
export { compareOutput, type FolderDrift } from './compare-output.js';
export { readManifest, MANIFEST_FILE, isSafeRelativePath } from './manifest.js';
