import { buildReport, diffDescriptors, type DriftReport } from '../diff/index.js';
import { lockedDescriptors, parseLockfile, serializeLockfileEntries } from '../lock/index.js';
import { LOCKFILE_VERSION, type Lockfile } from '../model/lockfile.js';
import { MANIFEST_FILE, openFolderView, withRunLock, type FolderView, type WriteResult } from '../write/index.js';
import { acquireListing, isKnownListing, parsedListing, whileFetching } from './acquire-listing.js';
import { redactingSecrets, resolvePaths, stageTimer, type SourceOptions } from './options.js';
import { contentSha, loadRunMemo, saveRunMemo, type RunMemo } from './run-memo.js';
import { assessOutput, manifestShaOnDisk, once, runCacheDir, type OutputState } from './sync-output.js';
import { renderAndWrite } from './render-and-write.js';
import { checkSafetyRails } from './safety-rails.js';

/** Options of {@link pull}. */
export interface PullOptions extends SourceOptions {
  /** Show what would change and write nothing. @default false */
  dryRun?: boolean;
  /** Accept an empty listing while the lockfile has types. @default false */
  allowEmpty?: boolean;
  /** Accept a pull that removes more than half of the locked types. @default false */
  force?: boolean;
  /** How long to wait for another run on the same output folder. @default 30000 */
  lockWaitMs?: number;
}

/** What {@link pull} did. */
export interface PullResult {
  /** What changed against the lockfile (staleFiles lists nothing for pull). */
  report: DriftReport;
  /** Number of message types in the new listing. */
  messageCount: number;
  /** What was written; undefined for a dry run. */
  write: WriteResult | undefined;
  outDir: string;
  lockfilePath: string;
}

/**
 * fetch → diff → write lockfile → emit. The listing is fetched and validated before anything is
 * touched, and the folder and lockfile change together in one transaction, so a failed or
 * interrupted pull leaves them as they were (or, past its commit point, as it would have).
 */
export async function pull(options: PullOptions): Promise<PullResult> {
  return redactingSecrets(options, () => pullUnredacted(options));
}

async function pullUnredacted(options: PullOptions): Promise<PullResult> {
  const paths = resolvePaths(options);
  const mark = stageTimer(options.onStage);
  const cache = runCacheDir(options, paths.cwd);
  const memo = loadRunMemo(paths.outDir, cache);
  // While the request is in flight, check the folder as the memo says the last run left it: in
  // the common no-op case that is the whole check, done.
  const [early, acquired] = await whileFetching(
    acquireListing(options, paths.cwd, (fingerprint) => memo.listing?.fingerprint === fingerprint),
    () => checkAheadOfTime(options, paths, memo),
  );
  mark('fetch');
  const plan = async (view: FolderView) => {
    const current = await view.readLockfile(paths.lockfilePath);
    const known = memo.listing;
    if (isKnownListing(acquired) && known !== undefined && current !== undefined && contentSha(current) === known.lockfileSha) {
      // The same answer as when this lockfile was written: no changes, nothing to validate.
      for (const warning of known.warnings) options.onWarning?.(warning);
      mark('diff');
      const lock = { text: current, parsed: once(() => parseLockfile(current, paths.lockfilePath)) };
      return { report: buildReport({ changes: [] }), messageCount: known.messageCount, lock, listing: undefined };
    }
    const listing = parsedListing(acquired, options);
    const next: Lockfile = { lockfileVersion: LOCKFILE_VERSION, source: listing.source, messages: listing.descriptors };
    const { text: nextText, entries } = serializeLockfileEntries(next);
    // The same lockfile bytes mean the same descriptors: no parse, no diff.
    const unchanged = current === nextText;
    // A lockfile this tool wrote (the memo has its hash) is read without validating each entry,
    // and only its entries whose text changed are parsed at all.
    const verified = current !== undefined && memo.listing !== undefined && contentSha(current) === memo.listing.lockfileSha;
    const byEntry = verified && !unchanged ? lockedDescriptors(current, { text: nextText, entries, descriptors: listing.descriptors }) : undefined;
    const locked = unchanged ? listing.descriptors : current === undefined ? [] : (byEntry?.descriptors ?? parseLockfile(current, paths.lockfilePath, { verified }).messages);
    checkSafetyRails({ locked, fetched: listing.descriptors, allowEmpty: options.allowEmpty, force: options.force });
    const report = buildReport({ changes: unchanged ? [] : diffDescriptors({ locked, fetched: listing.descriptors }) });
    mark('diff');
    // Same names and source as the lockfile before: the unchanged entries keep their planned inputs.
    const previous = byEntry?.sameNamesAndSource ? { text: current!, unchanged: byEntry.unchanged } : undefined;
    return { report, messageCount: listing.descriptors.length, lock: { text: nextText, parsed: () => next, previous }, listing };
  };
  const result = (base: Awaited<ReturnType<typeof plan>>) => ({ report: base.report, messageCount: base.messageCount, outDir: paths.outDir, lockfilePath: paths.lockfilePath });
  if (options.dryRun) return { ...result(await plan(await openFolderView(paths.outDir))), write: undefined };
  return withRunLock(
    paths.outDir,
    async (view) => {
      const base = await plan(view);
      // The early check holds if the manifest is still the one it saw: all of it when the
      // lockfile is too, else its fresh files.
      const manifest = early === undefined ? undefined : await view.read(MANIFEST_FILE);
      const earlier = manifest !== undefined && contentSha(manifest) === early!.manifestSha ? early!.output : undefined;
      const output = earlier !== undefined && base.lock.text === early!.lockText ? earlier : await assessOutput(base.lock, options, paths, view, memo, earlier);
      let write: WriteResult;
      let manifestSha: string | undefined;
      if (output.fromMemo && base.listing === undefined) {
        // Lockfile as it was, every file as the manifest lists it: nothing to write.
        mark('emit');
        write = { written: [], deleted: [], unchanged: output.fileCount, lockfileWritten: false };
        manifestSha = output.manifestSha ?? manifestShaOnDisk(paths.outDir);
      } else {
        ({ write, manifestSha } = await renderAndWrite(base.lock.parsed(), options, paths, view, output, {
          lockfile: { path: paths.lockfilePath, text: base.lock.text },
          onRendered: () => mark('emit'),
        }));
      }
      mark('write');
      // What this run learnt, for the next one: the answer's fingerprint → this lockfile, and
      // this lockfile's output → the manifest now in the folder.
      const learnt: RunMemo = { ...memo };
      if (base.listing?.fingerprint !== undefined) {
        learnt.listing = { fingerprint: base.listing.fingerprint, lockfileSha: contentSha(base.lock.text), messageCount: base.messageCount, warnings: base.listing.warnings };
      }
      learnt.plan = manifestSha === undefined ? undefined : { key: output.planKey, manifestSha };
      saveRunMemo(paths.outDir, cache, learnt);
      return { ...result(base), write };
    },
    { waitMs: options.lockWaitMs },
  );
}

/**
 * The folder checked against the memo before the run lock is taken, while the request is in
 * flight; undefined when the memo does not apply (then the check runs under the lock, as usual).
 * Read-only: a file changed between this check and the lock counts as changed after the run.
 */
async function checkAheadOfTime(
  options: PullOptions,
  paths: ReturnType<typeof resolvePaths>,
  memo: RunMemo,
): Promise<{ lockText: string; manifestSha: string; output: OutputState } | undefined> {
  if (options.dryRun || memo.listing === undefined || memo.plan === undefined) return undefined;
  const view = await openFolderView(paths.outDir);
  if (view.pathOnDisk(MANIFEST_FILE) === undefined) return undefined; // an interrupted run is pending
  const lockText = await view.readLockfile(paths.lockfilePath);
  if (lockText === undefined || contentSha(lockText) !== memo.listing.lockfileSha) return undefined;
  const output = await assessOutput({ text: lockText, parsed: once(() => parseLockfile(lockText, paths.lockfilePath)) }, options, paths, view, memo, undefined, true);
  return output === undefined ? undefined : { lockText, manifestSha: memo.plan.manifestSha, output };
}
