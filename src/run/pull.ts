import { buildReport, diffDescriptors, type DriftReport } from '../diff/index.js';
import { readLockfile, serializeLockfile } from '../lock/index.js';
import { LOCKFILE_VERSION, type Lockfile } from '../model/lockfile.js';
import { openFolderView, withRunLock, writeOutput, type FolderView, type WriteResult } from '../write/index.js';
import { acquireListing } from './acquire-listing.js';
import { redactingSecrets, resolvePaths, stageTimer, type SourceOptions } from './options.js';
import { assessOutput, renderFiles } from './sync-output.js';
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
  const listing = await acquireListing(options, paths.cwd);
  mark('fetch');
  const next: Lockfile = { lockfileVersion: LOCKFILE_VERSION, source: listing.source, messages: listing.descriptors };
  const nextText = serializeLockfile(next);
  const plan = async (view: FolderView) => {
    // The same lockfile bytes mean the same descriptors: no parse, no diff (the common, no-op case).
    const unchanged = (await view.readLockfile(paths.lockfilePath)) === nextText;
    const locked = unchanged ? listing.descriptors : ((await readLockfile(view, paths.lockfilePath))?.messages ?? []);
    checkSafetyRails({ locked, fetched: listing.descriptors, allowEmpty: options.allowEmpty, force: options.force });
    const report = buildReport({ changes: unchanged ? [] : diffDescriptors({ locked, fetched: listing.descriptors }) });
    mark('diff');
    return { report, messageCount: listing.descriptors.length, outDir: paths.outDir, lockfilePath: paths.lockfilePath };
  };
  if (options.dryRun) return { ...(await plan(await openFolderView(paths.outDir))), write: undefined };
  return withRunLock(
    paths.outDir,
    async (view) => {
      const base = await plan(view);
      const output = await assessOutput(next, options, paths, view);
      const files = await renderFiles(next, options, paths, output.stale);
      mark('emit');
      const write = await writeOutput({
        outDir: paths.outDir,
        view,
        expected: output.expected,
        files,
        manifest: output.manifest,
        lockfile: { path: paths.lockfilePath, text: nextText },
      });
      mark('write');
      return { ...base, write };
    },
    { waitMs: options.lockWaitMs },
  );
}
