import type { ChangeFact } from '../diff/index.js';
import { MESSAGES_DIR } from '../emit/plan.js';
import { fileStemsOf, keptStems, shareFileByCase, type KeptStems } from '../emit/naming.js';
import type { LockfileText } from '../lock/index.js';
import type { Descriptor } from '../model/descriptor.js';
import type { GenerationSettings, Lockfile } from '../model/lockfile.js';
import { scoped } from '../model/scope.js';

/**
 * The file stems the lockfile a run writes records, decided from the lockfile it replaces
 * (`before`): every type of the previous output keeps its module's file, a newcomer whose name
 * differs from another's only by case gets the suffixed one (`keptStems`). The stems are
 * recorded, not remembered elsewhere, so the output stays a function of the lockfile alone.
 * Both outputs are those of their scopes (`include`/`exclude`), as the plan makes them.
 */
export function fileStemsAfter(before: LockfileText | undefined, after: { messages: readonly Descriptor[]; settings: GenerationSettings }): KeptStems {
  // Most listings have no two names that share a file by case, and no lockfile records a stem:
  // then every stem is the rule's, and the lockfile before is not parsed for it.
  const layout = before?.fileLayout();
  const names = after.messages.map((descriptor) => descriptor.name);
  // A pull that changes no type's name finds the same names before (in the same order).
  const sameNames = (found: readonly string[]) => found.length === names.length && found.every((name, i) => name === names[i]);
  if (!shareFileByCase(names) && (layout === undefined || (layout.fileStems.size === 0 && (sameNames(layout.names) || !shareFileByCase(layout.names))))) {
    return { fileStems: new Map(), sharedCase: new Map() };
  }
  const previous = before === undefined ? new Map<string, string>() : outputStems(before);
  return keptStems(scopedNames(after.messages, after.settings), previous);
}

/**
 * What the file stems of `head` tell of its newcomers against `base` (a diff of two lockfiles): as
 * a pull from `base` would decide them, each newcomer whose stem `head` gives otherwise (a lockfile
 * not made so) left out.
 */
export function headSharedCase(base: LockfileText, head: Lockfile, settings: GenerationSettings): KeptStems['sharedCase'] {
  const { sharedCase } = fileStemsAfter(base, { messages: head.messages, settings });
  return new Map([...sharedCase].filter(([name, { fileStem }]) => (head.fileStems?.get(name) ?? fileStem) === fileStem));
}

/** The file stem of each type the output of `lockfile` has. */
function outputStems(lockfile: LockfileText): Map<string, string> {
  const { messages, settings, fileStems = new Map<string, string>() } = lockfile.parse();
  return fileStemsOf(scopedNames(messages, settings), fileStems);
}

function scopedNames(messages: readonly Descriptor[], settings: GenerationSettings): string[] {
  return scoped(messages, { include: settings.include, exclude: settings.exclude }).map((descriptor) => descriptor.name);
}

/** The changes, each added type whose module got the suffix for a name that differs from another's only by case (`sharedCase`) with a note saying so. */
export function withFileNotes(changes: ChangeFact[], sharedCase: KeptStems['sharedCase']): ChangeFact[] {
  if (sharedCase.size === 0) return changes;
  return changes.map((change) => {
    const shared = change.kind === 'added' ? sharedCase.get(change.name) : undefined;
    return shared === undefined ? change : { ...change, note: { module: `${MESSAGES_DIR}/${shared.fileStem}`, caseClashWith: shared.other } };
  });
}
