import { MODULE_MARKER_PATH, renderSelected, type PlannedFile } from '../emit/index.js';
import type { LockfileText } from '../lock/index.js';
import { WriteError } from '../model/errors.js';
import type { Lockfile } from '../model/lockfile.js';
import { scoped } from '../model/scope.js';
import { writeOutput, type FolderView, type Manifest, type OutputFile, type WriteResult } from '../write/index.js';
import type { RunFacts } from '../incremental/index.js';
import { freshOutputFacts, type OutputState } from './assess-output.js';
import type { OutputSettings, RunContext } from './run-context.js';

/** Renders just the given files of a lockfile's output (its types in scope; formatted, when the settings say so). */
export async function renderFiles(settings: OutputSettings, lockfile: Lockfile, files: readonly PlannedFile[]): Promise<OutputFile[]> {
  if (files.length === 0) return [];
  const { templatesDir, packageName, packageVersion, changelog, target, prettierOutDir, fields } = settings;
  return renderSelected({
    emit: { messages: scoped(lockfile.messages, settings.scope), source: lockfile.source, templatesDir, packageName, packageVersion, changelog, target, fields },
    only: new Set(files.flatMap((file) => (file.message === undefined ? [] : [file.message]))),
    paths: new Set(files.map((file) => file.path)),
    prettierOutDir,
  });
}

/**
 * Renders the stale files of `output` and writes them, with `writeLockfile` when given, in one
 * transaction; call with the run lock held. Gives what was written, and what the next run may
 * take as known of the folder.
 */
export async function renderAndWrite(
  run: RunContext,
  view: FolderView,
  plan: { lockfile: LockfileText; output: OutputState; writeLockfile?: LockfileText; interrupt?: AbortSignal },
): Promise<{ write: WriteResult; facts: Pick<RunFacts, 'output' | 'folder'> }> {
  const { output, writeLockfile } = plan;
  if (output.expected === undefined && writeLockfile === undefined) {
    // The folder is exactly this output, unchanged: nothing to render or write.
    run.mark('emit');
    return { write: { written: [], deleted: [], leftEdited: [], unchanged: output.fileCount, lockfileWritten: false }, facts: freshOutputFacts(output) };
  }
  const files = await renderFiles(output.settings, plan.lockfile.parse(), output.stale);
  plan.interrupt?.throwIfAborted();
  run.mark('emit');
  const found = output.manifest?.entries() ?? new Map();
  if (output.settings.packageName === undefined) await refuseForeignPackageJson(view, found, files, run.paths.outDir);
  const { write, manifest } = await writeOutput({
    outDir: run.paths.outDir,
    view,
    // Known to be the manifest's own files when the record vouched for the folder.
    expected: output.expected ?? [...found].map(([path, entry]) => ({ path, input: entry.input })),
    files,
    manifest: found,
    lockfile: writeLockfile === undefined ? undefined : { path: writeLockfile.path, text: writeLockfile.text },
    interrupt: plan.interrupt,
  });
  for (const path of write.leftEdited) {
    run.warn(`${path} belonged to a message type that is gone, but was edited by hand: left in place, no longer managed by schema-sync.`);
  }
  return { write, facts: { output: { planKey: output.planKey, manifest }, folder: { manifest, files: manifest.entries() } } };
}

/**
 * Without `--package`, the folder's `package.json` is schema-sync's module marker; one that
 * schema-sync did not write (the output folder is a package of the user's, or the project
 * root) is never overwritten.
 */
async function refuseForeignPackageJson(view: FolderView, manifest: Manifest, files: readonly OutputFile[], outDir: string): Promise<void> {
  const marker = files.find((file) => file.path === MODULE_MARKER_PATH);
  if (marker === undefined || manifest.has(MODULE_MARKER_PATH)) return;
  const found = await view.read(MODULE_MARKER_PATH);
  if (found === undefined || found.equals(Buffer.from(marker.text, 'utf8'))) return;
  throw new WriteError(`${outDir} holds a package.json that schema-sync did not write; the output folder needs its own, which marks the generated files as ES modules. Nothing was changed.`, {
    hint: 'Generate into a folder of its own (--out, e.g. a subfolder "generated"), or pass --package <name> to make the output folder a package whose package.json schema-sync writes.',
  });
}
