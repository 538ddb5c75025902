export { applyChangeSet, type WriteResult } from './apply-change-set.js';
export { changeSet, noChanges, type ChangeSet, type ExpectedFile, type OutputFile } from './change-set.js';
export { folderStamp, openFolderView, type FolderView } from './folder-view.js';
export { Interrupted, withRunLock } from './with-run-lock.js';
export { acquireRunLock, RUN_LOCK_FILE, waitForLiveRun } from './run-lock.js';
export { editedWarning, recoverPending, readJournal, TXN_DIR } from './journal.js';
export { ManifestText, readManifest, type Manifest } from './manifest.js';
export { openStaging, type Staging } from './staging.js';
