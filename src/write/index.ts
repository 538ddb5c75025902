export { writeOutput, type OutputFile, type WriteResult } from './write-output.js';
export { compareOutput, type FolderDrift } from './compare-output.js';
export { assessFreshness } from './freshness.js';
export { folderStamp, openFolderView, type FolderView } from './folder-view.js';
export { Interrupted, withRunLock } from './with-run-lock.js';
export { acquireRunLock, RUN_LOCK_FILE, waitForLiveRun } from './run-lock.js';
export { recoverPending, readJournal, TXN_DIR } from './journal.js';
export { ManifestText, readManifest, type Manifest } from './manifest.js';
