import { planOutput, type PlannedFile } from '../emit/index.js';
import type { RunFacts } from '../incremental/index.js';
import type { LockfileText } from '../lock/index.js';
import { hashOfParts } from '../util/hash.js';
import { scoped } from '../model/scope.js';
import { assessFreshness, readManifest, type FolderView, type ManifestText } from '../write/index.js';
import { outputSettings, type OutputSettings, type RunContext } from './run-context.js';

/** The output a lockfile should produce, and how much of it the folder already holds. */
export interface OutputState {
  /** The settings the lockfile records, resolved. */
  settings: OutputSettings;
  /** Key of the lockfile and the output settings: same key, same files. */
  planKey: string;
  /** The folder's manifest as found. */
  manifest: ManifestText | undefined;
  /**
   * Every file the output should hold; undefined when the folder is known to hold exactly them,
   * unchanged since a run verified them (then nothing was planned).
   */
  expected: PlannedFile[] | undefined;
  /** Files to (re)generate: missing, hand-edited, or generated from other inputs. */
  stale: PlannedFile[];
  /** How many files the output has. */
  fileCount: number;
}

/**
 * Plans the output of `lockfile` (with the settings it records: only the message types in their
 * scope) and checks it against the folder, without loading ts-morph:
 * only stale files need rendering, and a run where nothing changed renders nothing. When the run
 * record knows the folder's manifest to list this very output, and every file is as a run
 * verified it, nothing is planned or read.
 */
export async function assessOutput(run: RunContext, view: FolderView, lockfile: LockfileText): Promise<OutputState> {
  const settings = await outputSettings(run.paths, lockfile.settings());
  const planKey = hashOfParts([lockfile.hash, settings.key]);
  const manifest = await readManifest(view, run.paths.outDir);
  if (manifest !== undefined && run.cache.knowsOutput(planKey, manifest)) {
    const fileCount = run.cache.unchangedFiles(manifest, view);
    if (fileCount !== undefined) return { settings, planKey, manifest, expected: undefined, stale: [], fileCount };
  }
  const { messages, source } = lockfile.parse();
  const { templatesDir, packageName, packageVersion, changelog, target, formatKey, fields, key } = settings;
  const expected = await planOutput({ messages: scoped(messages, settings.scope), source, templatesDir, packageName, packageVersion, changelog, target, formatKey, fields, settingsKey: key });
  const { stale } = await assessFreshness({
    expected,
    manifest: manifest?.entries() ?? new Map(),
    holds: (path, sha) => run.cache.holds(view, path, sha),
  });
  return { settings, planKey, manifest, expected, stale, fileCount: expected.length };
}

/** What a run that found the folder fresh (nothing stale, nothing extra) may record of it. */
export function freshOutputFacts(output: OutputState): Pick<RunFacts, 'output' | 'folder'> {
  const { manifest, expected } = output;
  if (manifest === undefined) return {};
  if (expected === undefined) return { folder: { manifest } };
  const files = manifest.entries();
  const exact = output.stale.length === 0 && files.size === expected.length && expected.every((file) => files.get(file.path)?.input === file.input);
  return { output: exact ? { planKey: output.planKey, manifest } : undefined, folder: { manifest, files } };
}
