import { buildReport, diffDescriptors, type DriftReport } from '../diff/index.js';
import type { DriftChange } from '../diff/index.js';
import { parseLockfile, serializeLockfile } from '../lock/index.js';
import { LOCKFILE_VERSION } from '../model/lockfile.js';
import { LockError } from '../model/errors.js';
import { compareOutput, MANIFEST_FILE, openFolderView } from '../write/index.js';
import { acquireListing, isKnownListing, parsedListing, whileFetching } from './acquire-listing.js';
import { redactingSecrets, resolvePaths, stageTimer, type SourceOptions } from './options.js';
import { contentSha, loadRunMemo, saveRunMemo, type RunMemo } from './run-memo.js';
import { renderFiles } from './render-and-write.js';
import { assessOutput, manifestListsExactly, manifestShaOnDisk, once, runCacheDir } from './sync-output.js';

/** What {@link check} found. */
export interface CheckResult {
  report: DriftReport;
  messageCount: number;
}

/**
 * fetch → diff against the lockfile, and compare the output folder with what the lockfile
 * generates. Writes nothing, ever.
 */
export async function check(options: SourceOptions): Promise<CheckResult> {
  return redactingSecrets(options, () => checkUnredacted(options));
}

async function checkUnredacted(options: SourceOptions): Promise<CheckResult> {
  const paths = resolvePaths(options);
  const mark = stageTimer(options.onStage);
  const cache = runCacheDir(options, paths.cwd);
  const memo = loadRunMemo(paths.outDir, cache);
  // Read-only: a pending interrupted run is honoured, never finished, by check.
  const view = await openFolderView(paths.outDir);
  const text = await view.readLockfile(paths.lockfilePath);
  if (text === undefined) {
    throw new LockError(`no lockfile at ${paths.lockfilePath}: there is nothing to check against.`, {
      hint: 'Run `schema-sync pull` and commit the lockfile, or pass --lockfile.',
    });
  }
  const lock = { text, parsed: once(() => parseLockfile(text, paths.lockfilePath)) };
  // A parse error of the lockfile is reported before any request, as before.
  if (memo.listing === undefined || contentSha(text) !== memo.listing.lockfileSha) lock.parsed();
  // The folder is checked against the lockfile while the request is in flight.
  const [output, acquired] = await whileFetching(
    acquireListing(options, paths.cwd, (fingerprint) => memo.listing?.fingerprint === fingerprint),
    () => assessOutput(lock, options, paths, view, memo),
  );
  mark('fetch');
  const learnt: RunMemo = { ...memo };
  let changes: DriftChange[];
  let messageCount: number;
  if (isKnownListing(acquired) && memo.listing !== undefined && contentSha(text) === memo.listing.lockfileSha) {
    // The same answer as when this lockfile was written: in sync, nothing to validate.
    for (const warning of memo.listing.warnings) options.onWarning?.(warning);
    changes = [];
    messageCount = memo.listing.messageCount;
  } else {
    const listing = parsedListing(acquired, options);
    changes = diffDescriptors({ locked: lock.parsed().messages, fetched: listing.descriptors });
    messageCount = listing.descriptors.length;
    if (changes.length === 0 && listing.fingerprint !== undefined) {
      const next = serializeLockfile({ lockfileVersion: LOCKFILE_VERSION, source: listing.source, messages: listing.descriptors });
      if (next === text) learnt.listing = { fingerprint: listing.fingerprint, lockfileSha: contentSha(text), messageCount, warnings: listing.warnings };
    }
  }
  mark('diff');
  // Files the manifest shows fresh are right; only the others are emitted and compared. From the
  // memo with nothing stale, the expected files are the manifest's own: nothing else to compare.
  const settled = output.fromMemo && output.stale.length === 0;
  const staleFiles = settled
    ? []
    : await compareOutput({
        view,
        files: output.stale.length === 0 ? [] : await renderFiles(lock.parsed(), options, paths, output.stale),
        expectedPaths: new Set(output.expected.map((f) => f.path)),
        manifest: output.manifest,
      });
  mark('verify');
  if (!settled && staleFiles.length === 0 && manifestListsExactly(output.manifest, output.expected)) {
    const manifestSha = manifestShaOnDisk(paths.outDir);
    if (manifestSha !== undefined && view.pathOnDisk(MANIFEST_FILE) !== undefined) learnt.plan = { key: output.planKey, manifestSha };
  }
  saveRunMemo(paths.outDir, cache, learnt);
  return { report: buildReport({ changes, staleFiles }), messageCount };
}
