export { writeOutput, type OutputFile, type WriteResult, type WriteOutputOptions } from './write-output.js';
export { compareOutput, type FolderDrift } from './compare-output.js';
export { assessFreshness, type ExpectedFile, type Freshness } from './freshness.js';
export { openFolderView, type FolderView } from './folder-view.js';
export { Interrupted, withRunLock } from './with-run-lock.js';
export { acquireRunLock, RUN_LOCK_FILE, waitForLiveRun } from './run-lock.js';
export { commitTransaction, recoverPending, readJournal, TXN_DIR } from './journal.js';
export { MANIFEST_FILE, ManifestText, isSafeRelativePath, parseManifest, readManifest, type Manifest, type ManifestEntry } from './manifest.js';
