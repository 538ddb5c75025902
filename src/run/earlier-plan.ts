import type { EarlierPlan } from '../emit/index.js';
import type { Incremental } from '../incremental/index.js';
import { descriptorOfOwnEntry, type LockfileText } from '../lock/index.js';
import { hashOfParts } from '../util/hash.js';
import type { ManifestText } from '../write/index.js';

/**
 * What the plan of a pull's lockfile (`after`) may take from the plan of the lockfile it found
 * (`before`): when the cache recalls that the folder's manifest lists exactly the output of
 * `before` under the same settings (its plan key), and both lockfiles hold the same message types
 * with the same file stems (so the same planned names), the modules of the types whose entry
 * text did not change keep the inputs the manifest records, and the index keeps its own when
 * the others' entries (parsed as schema-sync wrote them) show in it as before. Not with prettier: the manifest
 * records the formatted inputs, which the plan does not make.
 *
 * @param settingsKey - `planSettingsKey` of the settings `after` records.
 */
export function earlierPlan(cache: Incremental, found: ManifestText | undefined, lockfiles: { before: LockfileText | undefined; after: LockfileText }, settingsKey: string, formatted: boolean): EarlierPlan | undefined {
  const { before, after } = lockfiles;
  if (found === undefined || before === undefined || formatted || cache.outputPlan(found.hash) !== hashOfParts([before.hash, settingsKey])) return undefined;
  const was = before.entryTexts();
  const now = after.entryTexts();
  if (was === undefined || now === undefined || !sameLayout(before.fileLayout(), after.fileLayout())) return undefined;
  const entries = found.entries();
  return {
    unchanged: (name) => {
      const text = now.get(name);
      return text !== undefined && text === was.get(name);
    },
    inputOf: (path) => entries.get(path)?.input,
    descriptorOf: (name) => {
      const text = was.get(name);
      return text === undefined ? undefined : descriptorOfOwnEntry(name, text);
    },
  };
}

type Layout = ReturnType<LockfileText['fileLayout']>;

/** Whether two lockfiles hold the same message types (by name) with the same recorded file stems. */
function sameLayout(a: Layout, b: Layout): boolean {
  if (a.names.length !== b.names.length || a.fileStems.size !== b.fileStems.size) return false;
  const names = new Set(a.names);
  return b.names.every((name) => names.has(name)) && [...a.fileStems].every(([name, stem]) => b.fileStems.get(name) === stem);
}
