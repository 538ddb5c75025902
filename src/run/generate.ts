import { msg } from '../model/message.js';
import { openStaging, withRunLock, type FolderView, type WriteResult } from '../write/index.js';
import type { Incremental } from '../incremental/index.js';
import { stageTimer, type BaseOptions } from './options.js';
import { outputChanges, outputFacts, writeOutput } from './output.js';
import { lockfileFacts, requireLockfile } from './read-lockfile.js';
import { LockfileText } from '../lock/index.js';
import { openRun, openRunCache, sameSettings, settingsOver, type RunContext } from './run-context.js';
import { fileStemsAfter } from './file-stems.js';
import type { GenerationSettings } from '../model/lockfile.js';

/** What {@link generate} did. */
export interface GenerateResult {
  messageCount: number;
  write: WriteResult;
  outDir: string;
}

/**
 * Rebuilds the output folder from the lockfile alone, with the settings it records (or those it
 * is given, which it then records); never touches the network.
 */
export async function generate(options: BaseOptions): Promise<GenerateResult> {
  const run = openRun(options);
  const tools = { cache: openRunCache(run, options), mark: stageTimer(options.onStage) };
  return withRunLock(run.paths.outDir, (view, interrupt) => generateInView(run, tools, view, interrupt), { lockfilePath: run.paths.lockfilePath, waitMs: options.lockWait, warn: run.warn });
}

/** The generate itself, under the run lock. */
async function generateInView(run: RunContext, { cache, mark }: { cache: Incremental; mark: (stage: string) => void }, view: FolderView, interrupt: AbortSignal): Promise<GenerateResult> {
  const found = await requireLockfile(run, cache, view, {
    detail: msg`.`,
    hint: msg`Run \`schema-sync pull\` first to fetch the listing and write the lockfile, or pass --lockfile.`,
  });
  // Settings it was given are applied, and recorded in the lockfile (with the file stems, which
  // a new scope may need: every type of the output before keeps its file).
  const settings = settingsOver(found.settings(), run.given);
  const lockfile = sameSettings(settings, found.settings()) ? found : withSettings(found, settings);
  const staging = openStaging(run.paths.outDir);
  const output = await outputChanges(run, cache, view, { after: lockfile }, staging);
  mark('emit');
  const { write, manifest } = await writeOutput(run, view, { output, staging, writeLockfile: lockfile === found ? undefined : lockfile, interrupt });
  mark('write');
  cache.remember({ lockfile: lockfileFacts(lockfile), ...outputFacts(output, manifest) });
  return { messageCount: lockfile.messageCount(), write, outDir: run.paths.outDir };
}

/** The lockfile `found` with other generation settings. */
function withSettings(found: LockfileText, settings: GenerationSettings): LockfileText {
  const { fileStems: _before, ...lockfile } = found.parse();
  const { fileStems } = fileStemsAfter(found, { messages: lockfile.messages, settings });
  return LockfileText.of({ ...lockfile, settings, ...(fileStems.size > 0 && { fileStems }) }, found.path);
}
