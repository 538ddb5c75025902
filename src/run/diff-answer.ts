import { diffDescriptors, type DriftChange } from '../diff/index.js';
import type { RunFacts } from '../incremental/index.js';
import { LockfileText } from '../lock/index.js';
import type { Descriptor } from '../model/descriptor.js';
import { LOCKFILE_VERSION } from '../model/lockfile.js';
import type { Answer } from './acquire-listing.js';
import type { RunContext } from './run-context.js';

/** The service's answer against the lockfile a run found. */
export interface AnswerDrift {
  changes: DriftChange[];
  /** The lockfile the answer makes: `before` itself when the answer is known to make it. */
  after: LockfileText;
  messageCount: number;
  /** The descriptors compared; undefined when the answer was known (nothing was compared). */
  compared: { locked: readonly Descriptor[]; fetched: readonly Descriptor[] } | undefined;
  /** What the next run may take as known; undefined when this answer was known already. */
  learned: RunFacts['answer'];
}

/**
 * Diffs the answer against `before`, the lockfile found. An answer the run record knows to make
 * this very lockfile is "no changes", unvalidated; any other is validated (its warnings go to
 * `onWarning` either way) and compared entry by entry.
 */
export function diffAnswer(run: RunContext, answer: Answer, before: LockfileText | undefined, onWarning?: (text: string) => void): AnswerDrift {
  const known = before === undefined ? undefined : run.cache.knownAnswer(answer.fingerprint, before);
  if (before !== undefined && known !== undefined) {
    for (const warning of known.warnings) onWarning?.(warning);
    return { changes: [], after: before, messageCount: known.messageCount, compared: undefined, learned: undefined };
  }
  const listing = answer.parse();
  for (const warning of listing.warnings) onWarning?.(warning);
  const fetched = listing.descriptors;
  const after = LockfileText.of({ lockfileVersion: LOCKFILE_VERSION, source: listing.source, messages: fetched }, run.paths.lockfilePath);
  // The same lockfile bytes mean the same descriptors: nothing to parse or compare.
  const same = after.text === before?.text;
  const locked = before === undefined ? [] : same ? fetched : before.descriptorsSharedWith(after);
  return {
    changes: same ? [] : diffDescriptors({ locked, fetched }),
    after,
    messageCount: fetched.length,
    compared: { locked, fetched },
    learned: { fingerprint: answer.fingerprint, lockfile: after, messageCount: fetched.length, warnings: listing.warnings },
  };
}
