import { compareDescriptors, type ChangeFact } from '../diff/index.js';
import type { KnownAnswer, RunFacts } from '../incremental/index.js';
import { LockfileText } from '../lock/index.js';
import type { Descriptor } from '../model/descriptor.js';
import { LOCKFILE_VERSION, type GenerationSettings } from '../model/lockfile.js';
import type { Answer } from './acquire-listing.js';
import { sameSettings, type RunContext } from './run-context.js';

/** The service's answer against the lockfile a run found. */
export interface AnswerDrift {
  changes: ChangeFact[];
  /** The lockfile the answer makes: `before` itself when the answer is known to make it. */
  after: LockfileText;
  messageCount: number;
  /** The descriptors compared; undefined when the answer was known (nothing was compared). */
  compared: { locked: readonly Descriptor[]; fetched: readonly Descriptor[] } | undefined;
  /** What the next run may take as known; undefined when this answer was known already. */
  answerFacts: RunFacts['answer'];
}

/**
 * Diffs the answer against `before`, the lockfile found, into the lockfile it makes with
 * `settings`. An answer the run record knows to make this very lockfile (same settings) is "no
 * changes", unvalidated; any other is validated and compared entry by entry. Its warnings are
 * reported either way.
 */
export function diffAnswer(run: RunContext, answer: Answer, before: LockfileText | undefined, settings: GenerationSettings): AnswerDrift {
  const known = knownAnswer(run, answer, before, settings);
  if (before !== undefined && known !== undefined) {
    for (const warning of known.warnings) run.warn(warning);
    return { changes: [], after: before, messageCount: known.messageCount, compared: undefined, answerFacts: undefined };
  }
  const listing = answer.parse();
  for (const warning of listing.warnings) run.warn(warning);
  const fetched = listing.descriptors;
  const after = LockfileText.of({ lockfileVersion: LOCKFILE_VERSION, source: listing.source, settings, messages: fetched }, run.paths.lockfilePath);
  // The same lockfile bytes mean the same descriptors: nothing to parse or compare.
  const same = after.text === before?.text;
  const locked = before === undefined ? [] : same ? fetched : before.descriptorsSharedWith(after);
  return {
    changes: same ? [] : compareDescriptors({ locked, fetched }),
    after,
    messageCount: fetched.length,
    compared: { locked, fetched },
    answerFacts: { fingerprint: answer.fingerprint, lockfile: after, messageCount: fetched.length, warnings: listing.warnings },
  };
}

/** What the run record knows of `answer`: that it makes `before` as it is, with `settings`; undefined when it does not know. */
export function knownAnswer(run: RunContext, answer: Answer, before: LockfileText | undefined, settings: GenerationSettings): KnownAnswer | undefined {
  return before === undefined || !sameSettings(settings, before.settings()) ? undefined : run.cache.knownAnswer(answer.fingerprint, before);
}
