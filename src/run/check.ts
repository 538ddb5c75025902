import { buildReport, diffDescriptors, type DriftReport } from '../diff/index.js';
import { readLockfile } from '../lock/index.js';
import { LockError } from '../model/errors.js';
import { compareOutput, openFolderView } from '../write/index.js';
import { acquireListing } from './acquire-listing.js';
import { redactingSecrets, resolvePaths, stageTimer, type SourceOptions } from './options.js';
import { assessOutput, renderFiles } from './sync-output.js';

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
  // Read-only: a pending interrupted run is honoured, never finished, by check.
  const view = await openFolderView(paths.outDir);
  const lock = await readLockfile(view, paths.lockfilePath);
  if (!lock) {
    throw new LockError(`no lockfile at ${paths.lockfilePath}: there is nothing to check against.`, {
      hint: 'Run `schema-sync pull` and commit the lockfile, or pass --lockfile.',
    });
  }
  const listing = await acquireListing(options, paths.cwd);
  mark('fetch');
  const changes = diffDescriptors({ locked: lock.messages, fetched: listing.descriptors });
  mark('diff');
  // Files the manifest shows fresh are right; only the others are emitted and compared.
  const output = await assessOutput(lock, options, paths, view);
  const staleFiles = await compareOutput({
    view,
    files: await renderFiles(lock, options, paths, output.stale),
    expectedPaths: new Set(output.expected.map((f) => f.path)),
    manifest: output.manifest,
  });
  mark('verify');
  return { report: buildReport({ changes, staleFiles }), messageCount: listing.descriptors.length };
}
