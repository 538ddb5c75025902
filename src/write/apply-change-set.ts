import { relative, sep } from 'node:path';
import { compareStrings } from '../model/descriptor.js';
import { ConfigError } from '../model/errors.js';
import type { ChangeSet } from './change-set.js';
import type { FolderView } from './folder-view.js';
import { commitTransaction, TXN_DIR } from './journal.js';
import { RUN_LOCK_FILE } from './run-lock.js';
import { MANIFEST_FILE, ManifestText, serializeManifest } from './manifest.js';
import { msg } from '../model/message.js';
import { SymbolicLinkFound } from './symbolic-link-found.js';
import type { Staging } from './staging.js';
import type { StaleOutput } from './stray-files.js';

/** What a write changed. */
export interface WriteResult {
  /** Paths (relative to the output folder) whose bytes changed. */
  written: string[];
  /** Generated files of removed types that were deleted. */
  deleted: string[];
  /** Generated files of removed types that were edited since: left in place, and no longer in the manifest. */
  leftEdited: string[];
  /** Files the manifest named but that do not carry schema-sync's banner (not generated): left in place, and no longer in the manifest. */
  leftUnmarked: string[];
  /** Files left alone because their bytes were already right. */
  unchanged: number;
  /** Whether the lockfile's bytes changed. */
  lockfileWritten: boolean;
}

/**
 * Applies a change set to the output folder, with the lockfile when given, as one transaction:
 * only files whose bytes differ are written (unchanged files keep their mtime), schema-sync's
 * files the plan no longer holds are deleted when they have the bytes it wrote, and nothing else
 * is. Call with the run lock held. Gives what changed and the folder's manifest now.
 */
export async function applyChangeSet(input: {
  outDir: string;
  /** The folder as it is now (after recovering any interrupted run). */
  view: FolderView;
  changes: ChangeSet;
  /** Stale output no manifest names, to delete with the change set (see stray-files.ts). */
  stale?: readonly StaleOutput[];
  /** Where the change set's files to write were prepared as it was made (every one of them). */
  staging: Staging;
  /** The folder's manifest as found. */
  found: ManifestText | undefined;
  /** The lockfile to write with the folder, when the run updates it (with its `hashOf`, when known). */
  lockfile?: { path: string; text: string; hash?: string };
  /** The project's lockfile (the journal records its state even when the run leaves it alone). */
  lockfilePath: string;
  /** The stamp of the lockfile the change set's output is generated from (`lockfileStamp`), which the manifest records. */
  lockfileStamp?: string;
  /** Aborted by an interrupt: the transaction is rolled back unless it is committed already. */
  interrupt?: AbortSignal;
}): Promise<{ write: WriteResult; manifest: ManifestText }> {
  const { outDir, view, changes, staging } = input;
  if (staging.paths.length !== changes.write.length) throw new Error(`the change set has ${changes.write.length} files to write, ${staging.paths.length} of them prepared`);
  let manifestText: string;
  let lockfile = input.lockfile;
  try {
    // A link in the place of the output was not read through; nor is it written or deleted through.
    if (changes.linked.length > 0) throw new SymbolicLinkFound(changes.linked, outDir);
    refuseLockfileAmongOutput(outDir, input.lockfilePath, changes, input.found);
    manifestText = serializeManifest(changes.manifest, input.lockfileStamp);
    if (lockfile && (await view.readLockfile(lockfile.path)) === lockfile.text) lockfile = undefined;
  } catch (error) {
    await staging.discard();
    throw error;
  }
  const writes = input.found?.text === manifestText ? [] : [{ path: MANIFEST_FILE, text: manifestText }];
  // Past this call's commit point the transaction folder holds the journal: never discarded here.
  const { kept } = await commitTransaction(outDir, { writes, staged: staging.paths, deletes: changes.delete, stale: input.stale, lockfile, lockfilePath: input.lockfilePath }, input.interrupt);
  const write = {
    written: changes.write.map((file) => file.path),
    deleted: [...changes.delete.filter((path) => !kept.includes(path)), ...(input.stale ?? []).map((file) => file.path)].sort(compareStrings),
    // Those edited while the run prepared its changes are kept too.
    leftEdited: [...changes.edited, ...kept].sort(compareStrings),
    leftUnmarked: changes.unmarked,
    unchanged: changes.unchanged,
    lockfileWritten: lockfile !== undefined,
  };
  return { write, manifest: new ManifestText(manifestText, outDir, changes.manifest) };
}

/**
 * A lockfile at a path of the output folder that schema-sync writes (a generated file, the
 * manifest, the run's own files) would be overwritten by the output, and overwrite it in turn.
 * (A lockfile of another name kept in the output folder, as the demo does, is fine.)
 */
function refuseLockfileAmongOutput(outDir: string, lockfilePath: string, changes: ChangeSet, found: ManifestText | undefined): void {
  const path = relative(outDir, lockfilePath).split(sep).join('/');
  const ours = changes.manifest.has(path) || found?.entries().has(path) === true || path === MANIFEST_FILE || [TXN_DIR, RUN_LOCK_FILE].includes(path.split('/')[0]!);
  if (!ours) return;
  throw new ConfigError(msg`the lockfile ${lockfilePath} is ${path} in the output folder ${outDir}, a file schema-sync writes there: the two would overwrite each other. Nothing was changed.`, {
    hint: msg`Pass a --lockfile outside the output folder (e.g. schema-sync.lock.json in the project root), or generate into another --out.`,
  });
}
