import { buildReport, diffDescriptors, type DriftReport } from '../diff/index.js';
import { readLockfile, serializeLockfile } from '../lock/index.js';
import { LOCKFILE_VERSION, type Lockfile } from '../model/lockfile.js';
import { writeOutput, type WriteResult } from '../write/index.js';
import { acquireListing } from './acquire-listing.js';
import { resolvePaths, type SourceOptions } from './options.js';
import { renderOutput } from './render-output.js';
import { checkSafetyRails } from './safety-rails.js';

/** Options of {@link pull}. */
export interface PullOptions extends SourceOptions {
  /** Show what would change and write nothing. @default false */
  dryRun?: boolean;
  /** Accept an empty listing while the lockfile has types. @default false */
  allowEmpty?: boolean;
  /** Accept a pull that removes more than half of the locked types. @default false */
  force?: boolean;
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
 * fetch → diff → write lockfile → emit. Nothing is written when any step fails, so a failed
 * pull leaves the lockfile and the output folder as they were.
 */
export async function pull(options: PullOptions): Promise<PullResult> {
  const paths = resolvePaths(options);
  const listing = await acquireListing(options, paths.cwd);
  const previous = await readLockfile(paths.lockfilePath);
  const locked = previous?.messages ?? [];
  checkSafetyRails({ locked, fetched: listing.descriptors, allowEmpty: options.allowEmpty, force: options.force });
  const report = buildReport({ changes: diffDescriptors({ locked, fetched: listing.descriptors }) });
  const next: Lockfile = { lockfileVersion: LOCKFILE_VERSION, source: listing.source, messages: listing.descriptors };
  const base = { report, messageCount: listing.descriptors.length, outDir: paths.outDir, lockfilePath: paths.lockfilePath };
  if (options.dryRun) return { ...base, write: undefined };
  const files = await renderOutput(next, options, paths);
  const write = await writeOutput({
    outDir: paths.outDir,
    files,
    lockfile: { path: paths.lockfilePath, text: serializeLockfile(next) },
  });
  return { ...base, write };
}
