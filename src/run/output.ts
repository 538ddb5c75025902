import { relative, sep } from 'node:path';
import { bannerFirstLines, formatPlan, GIT_ATTRIBUTES_PATH, MODULE_MARKER_PATH, plan, planSettingsKey, renderPlanned, type EarlierPlan, type PlanInput, type PlannedFile } from '../emit/index.js';
import type { Incremental, RunFacts } from '../incremental/index.js';
import type { LockfileText } from '../lock/index.js';
import { WriteError } from '../model/errors.js';
import { hashOf, hashOfParts } from '../util/hash.js';
import type { Lockfile } from '../model/lockfile.js';
import { applyChangeSet, changeSet, editedWarning, lockfileStamp, MANIFEST_FILE, unmarkedWarning, readManifest, strayFiles, type ChangeSet, type FolderView, type ManifestText, type Staging, type StrayFiles, type WriteResult } from '../write/index.js';
import { outputSettings, type OutputSettings, type RunContext } from './run-context.js';
import { earlierPlan } from './earlier-plan.js';
import { msg, own, type Message } from '../model/message.js';
import { plural } from '../util/plural.js';

/** The output a lockfile makes, and what it takes to make the folder hold it. */
export interface OutputChanges {
  /** The settings the lockfile records, resolved. */
  settings: OutputSettings;
  /** Key of the lockfile and everything its plan depends on: same key, same files. */
  planKey: string;
  /** The folder's manifest as found. */
  found: ManifestText | undefined;
  /** The stamp of the lockfile planned from, which the manifest a run writes records (`lockfileStamp`). */
  lockfileStamp: string;
  changes: ChangeSet;
  /** The folder's files that are neither this output nor in its manifest: stale output (by its banner) and the user's. */
  strays: StrayFiles;
}

/** The plan of a lockfile's output with the settings it records (formatted, when they say so), taking what it may from `earlier`. */
export async function planOutput(settings: OutputSettings, lockfile: PlanInput, earlier?: EarlierPlan): Promise<PlannedFile[]> {
  const planned = await plan(lockfile, settings, earlier);
  return settings.prettierOutDir === undefined ? planned : formatPlan(planned, settings.prettierOutDir);
}

/**
 * The change set that makes the folder hold the output of the lockfile `after`: the plan against
 * the folder and its manifest, the files not known fresh rendered and compared. When the cache
 * recalls that the folder's manifest lists exactly the output of this plan key and the files are
 * unchanged since a run verified them, there is nothing to change, and nothing is planned. A
 * pull gives the lockfile it found (`before`), whose plan the manifest may hold (`earlier-plan.ts`).
 * With `staging` (a run that writes, under the run lock), each file to write is prepared in the
 * transaction folder as it is compared, not held; a failure removes what was prepared.
 */
export async function outputChanges(
  run: RunContext,
  cache: Incremental,
  view: FolderView,
  lockfiles: { before?: LockfileText | undefined; after: LockfileText },
  staging?: Staging,
): Promise<OutputChanges> {
  const { after: lockfile, before } = lockfiles;
  const settings = { ...outputSettings(run.paths, lockfile.settings()), redact: run.redact };
  const settingsKey = await planSettingsKey(settings, settings.prettierOutDir);
  const planKey = hashOfParts([lockfile.hash, settingsKey]);
  const found = await readManifest(view, run.paths.outDir);
  const bannerLines = () => bannerFirstLines(settings.templatesDir, settings.package);
  const changes = await discardingOnFailure(staging, async () => {
    const fresh = found === undefined ? undefined : cache.freshOutput({ planKey, manifestHash: found.hash }, (path) => view.pathOnDisk(path));
    if (fresh !== undefined) return found!.unchanged(fresh);
    const planned = await planOutput(settings, lockfile.parse(), earlierPlan(cache, found, { before, after: lockfile }, settingsKey, settings.prettierOutDir !== undefined));
    const holds = (path: string, sha: string) => holdsBytes(cache, view, path, sha);
    return changeSet({ planned, manifest: found?.entries() ?? new Map(), view, holds, render: renderPlanned, stage: staging?.write, bannerLines });
  });
  const strays = await strayFiles({
    view,
    changes,
    found: found === undefined ? undefined : () => found.entries(),
    own: [MANIFEST_FILE, relative(run.paths.outDir, run.paths.lockfilePath).split(sep).join('/')],
    bannerLines,
  });
  return { settings, planKey, found, lockfileStamp: lockfileStamp(lockfile), changes, strays };
}

/**
 * Whether the folder's file at `path` holds bytes with hash `sha`: by its stat where the cache
 * verified it (at once: a folder of thousands of files is checked without a promise each), else
 * read and hashed.
 */
function holdsBytes(cache: Incremental, view: FolderView, path: string, sha: string): boolean | Promise<boolean> {
  const onDisk = view.pathOnDisk(path);
  const known = onDisk === undefined ? undefined : cache.holds(path, onDisk, sha);
  return known ?? view.read(path).then((bytes) => bytes !== undefined && hashOf(bytes) === sha);
}

/** The warning for files in the output folder that are not schema-sync's: left alone. */
export function userFilesWarning(user: readonly string[], outDir: string): Message {
  const shown = user.slice(0, USER_FILES_SHOWN).join(', ');
  const more = user.length > USER_FILES_SHOWN ? ` and ${user.length - USER_FILES_SHOWN} more` : '';
  return msg`${outDir} holds ${own(plural(user.length, 'file'))} that schema-sync did not generate: ${shown}${own(more)}. Left alone; move ${own(user.length === 1 ? 'it' : 'them')} out of the output folder to silence this warning.`;
}

/** How many of the user's files a warning names. */
const USER_FILES_SHOWN = 10;

/** `work`, with what `staging` prepared removed when it fails: the run stops before its commit point. */
async function discardingOnFailure<T>(staging: Staging | undefined, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    await staging?.discard();
    throw error;
  }
}

/** Whether a change set changes nothing: no file to write or delete, none edited by hand, none the manifest names wrongly. */
export function inSync(changes: ChangeSet): boolean {
  return changes.write.length === 0 && changes.delete.length === 0 && changes.edited.length === 0 && changes.unmarked.length === 0;
}

/**
 * What the next run may take as known of a folder that now holds `output`'s files with the
 * manifest `now` (`output.found` when nothing was written).
 */
export function outputFacts(output: OutputChanges, now: ManifestText | undefined): Pick<RunFacts, 'output' | 'folder'> {
  const { planKey, found, changes } = output;
  if (now === undefined) return {};
  const manifestHash = now.hash;
  // Written: the manifest lists exactly this output; its new files have no stat entry yet.
  if (now !== found) return { output: { planKey, manifestHash }, folder: { manifestHash, files: now.entries() } };
  // As the cache knew it: the stat cache holds every file already.
  if (now.keptBy(changes)) return { output: { planKey, manifestHash }, folder: { manifestHash } };
  const files = now.entries();
  // Exact when the manifest found is the one the change set leaves: same files, same inputs.
  const exact = inSync(changes) && files.size === changes.manifest.size && [...changes.manifest].every(([path, entry]) => files.get(path)?.input === entry.input);
  return { output: exact ? { planKey, manifestHash } : undefined, folder: { manifestHash, files } };
}

/**
 * Applies the change set of `output`, with `writeLockfile` when given, in one transaction; call
 * with the run lock held. Gives what was written and the folder's manifest now.
 */
export async function writeOutput(
  run: RunContext,
  view: FolderView,
  input: { output: OutputChanges; staging: Staging; writeLockfile?: LockfileText; interrupt?: AbortSignal },
): Promise<{ write: WriteResult; manifest: ManifestText | undefined }> {
  const { output, staging, writeLockfile } = input;
  const { changes } = output;
  if (output.strays.user.length > 0) run.warn(userFilesWarning(output.strays.user, run.paths.outDir));
  const kept = await discardingOnFailure(staging, async () => {
    // Interrupted before its commit point (also with nothing to write), the run did nothing.
    input.interrupt?.throwIfAborted();
    refuseForeignOwnFiles(output, run.paths.outDir);
    return writeLockfile === undefined && output.strays.stale.length === 0 && output.found?.keptBy(changes) === true;
  });
  if (kept) {
    // The cache knew the folder to hold this output (see outputChanges): nothing to write.
    return { write: { written: [], deleted: [], leftEdited: [], leftUnmarked: [], unchanged: changes.unchanged, lockfileWritten: false }, manifest: output.found };
  }
  // From here on a failure before the commit point removes what was prepared (applyChangeSet).
  const { write, manifest } = await applyChangeSet({
    outDir: run.paths.outDir,
    view,
    changes,
    stale: output.strays.stale,
    staging,
    found: output.found,
    lockfile: writeLockfile === undefined ? undefined : { path: writeLockfile.path, text: writeLockfile.text, hash: writeLockfile.hash },
    lockfilePath: run.paths.lockfilePath,
    lockfileStamp: output.lockfileStamp,
    interrupt: input.interrupt,
  });
  for (const path of write.leftEdited) run.warn(editedWarning(path));
  for (const path of write.leftUnmarked) run.warn(unmarkedWarning(path));
  return { write, manifest };
}

/**
 * The folder's files that are schema-sync's own or none: its `.gitattributes`, and without
 * `--package` its `package.json` (the module marker). One that schema-sync did not write (the
 * output folder is a package of the user's, or the project root) is never overwritten.
 */
function refuseForeignOwnFiles(output: OutputChanges, outDir: string): void {
  const { foreign } = output.changes;
  if (output.settings.package === undefined && foreign.includes(MODULE_MARKER_PATH)) {
    throw new WriteError(msg`${outDir} holds a package.json that schema-sync did not write; the output folder needs its own, which marks the generated files as ES modules. Nothing was changed.`, {
      hint: msg`Generate into a folder of its own (--out, e.g. a subfolder "generated"), or pass --package <name> to make the output folder a package whose package.json schema-sync writes.`,
    });
  }
  if (foreign.includes(GIT_ATTRIBUTES_PATH)) {
    throw new WriteError(msg`${outDir} holds a .gitattributes that schema-sync did not write; the output folder needs its own, which tells Git to check the generated files out with LF line endings. Nothing was changed.`, {
      hint: msg`Generate into a folder of its own (--out, e.g. a subfolder "generated"), or delete that .gitattributes (schema-sync writes its own) and keep any other rules in the .gitattributes of a folder above.`,
    });
  }
}
