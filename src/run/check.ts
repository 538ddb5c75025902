import { buildReport, type DriftReport } from '../diff/index.js';
import { compareOutput, openFolderView, type FolderDrift, type FolderView } from '../write/index.js';
import { acquireListing, whileFetching } from './acquire-listing.js';
import { assessOutput, freshOutputFacts, type OutputState } from './assess-output.js';
import { diffAnswer } from './diff-answer.js';
import type { LockfileText } from '../lock/index.js';
import { redactingSecrets, type SourceOptions } from './options.js';
import { requireLockfile } from './read-lockfile.js';
import { renderFiles } from './render-and-write.js';
import { openRun, type RunContext } from './run-context.js';

/** What {@link check} found. */
export interface CheckResult {
  report: DriftReport;
  messageCount: number;
}

/**
 * fetch → diff against the lockfile, and compare the output folder with what the lockfile
 * generates. Writes nothing, ever (a pending interrupted run is honoured, never finished).
 */
export async function check(options: SourceOptions): Promise<CheckResult> {
  return redactingSecrets(options, async () => {
    const run = await openRun(options);
    const view = await openFolderView(run.paths.outDir);
    const before = await requireLockfile(view, run.paths.lockfilePath, {
      detail: ': there is nothing to check against.',
      hint: 'Run `schema-sync pull` and commit the lockfile, or pass --lockfile.',
    });
    // A damaged lockfile is reported before any request.
    if (!run.cache.wrote(before)) before.parse();
    // The folder depends on the lockfile alone: it is checked while the request is in flight.
    const [output, answer] = await whileFetching(acquireListing(options, run.paths.cwd), () => assessOutput(run, view, before));
    run.mark('fetch');
    const drift = diffAnswer(run, answer, before, options.onWarning);
    run.mark('diff');
    const staleFiles = await compareFolder(run, view, before, output);
    run.mark('verify');
    run.cache.remember({ answer: drift.learned, ...(staleFiles.length === 0 ? freshOutputFacts(output) : {}) });
    return { report: buildReport({ changes: drift.changes, staleFiles }), messageCount: drift.messageCount };
  });
}

/** The files that are not what the lockfile generates: stale ones rendered and compared, extra ones found. */
async function compareFolder(run: RunContext, view: FolderView, lockfile: LockfileText, output: OutputState): Promise<FolderDrift[]> {
  if (output.expected === undefined) return [];
  return compareOutput({
    view,
    files: await renderFiles(run, lockfile.parse(), output.stale),
    expectedPaths: new Set(output.expected.map((file) => file.path)),
    manifest: output.manifest?.entries() ?? new Map(),
  });
}
