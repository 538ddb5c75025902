import { changesInScope, compareDescriptors, type ChangeFact } from '../diff/index.js';
import type { ParsedAnswer } from '../fetch/listing-response.js';
import type { Incremental, RunFacts } from '../incremental/index.js';
import { LockfileText, lockedDescriptors } from '../lock/index.js';
import { LOCKFILE_VERSION, type GenerationSettings } from '../model/lockfile.js';
import type { Answer } from './acquire-listing.js';
import { acquireSchemas } from './acquire-schemas.js';
import type { SourceOptions } from './options.js';
import { sameSettings, type RunContext } from './run-context.js';
import { checkSafetyRails } from './safety-rails.js';
import type { Message } from '../model/message.js';
import { fileStemsAfter, withFileNotes } from './file-stems.js';

/** The service's answer against the lockfile a run found. */
export interface AnswerDrift {
  /** The changes of the message types in the scope of the settings. */
  changes: ChangeFact[];
  /** The lockfile the answer makes. */
  after: LockfileText;
  messageCount: number;
  /** The answer's own warnings. */
  warnings: Message[];
}

/** The safety rails of a pull (see `safety-rails.ts`); a check has none. */
export interface Rails {
  allowEmpty?: boolean | undefined;
  force?: boolean | undefined;
}

/**
 * Diffs a listing against `before`, the lockfile found, into the lockfile it makes with
 * `settings` (at `lockfilePath`), each type keeping its module's file (`file-stems.ts`); the same
 * lockfile bytes mean the same descriptors.
 * With `rails`, refuses what looks like a broken service rather than a change.
 */
export function diffListing(listing: ParsedAnswer, before: LockfileText | undefined, settings: GenerationSettings, lockfilePath: string, rails?: Rails): AnswerDrift {
  const fetched = listing.descriptors;
  const stems = fileStemsAfter(before, { messages: fetched, settings });
  const after = LockfileText.of({ lockfileVersion: LOCKFILE_VERSION, source: listing.source, settings, messages: fetched, ...(stems.fileStems.size > 0 && { fileStems: stems.fileStems }) }, lockfilePath);
  // The same lockfile bytes mean the same descriptors: nothing to parse or compare.
  const same = after.hash === before?.hash;
  const locked = before === undefined ? [] : same ? fetched : lockedDescriptors(before, after, fetched);
  if (rails !== undefined) checkSafetyRails({ locked, fetched, ...rails });
  const changes = same ? [] : withFileNotes(changesInScope(compareDescriptors({ locked, fetched }), { locked, fetched }, { include: settings.include, exclude: settings.exclude }), stems.sharedCase);
  return { changes, after, messageCount: fetched.length, warnings: listing.warnings };
}

/**
 * The drift of the service's answer (with its field descriptors, fields on) against `before`:
 * the schemas acquired and the listing diffed, unless the cache recalls that this very answer
 * (by its fingerprint) made `before` with these settings: then it is "no changes", neither
 * validated nor compared, with the count and warnings recalled. The answer's warnings go to the
 * run either way. `mark` ends the fetch stage.
 */
export async function answerDrift(
  run: RunContext,
  tools: { cache: Incremental; mark: (stage: string) => void },
  answer: Answer,
  before: LockfileText | undefined,
  settings: GenerationSettings,
  options: SourceOptions & { rails?: Rails },
): Promise<AnswerDrift> {
  const recalled = answer.fingerprint === undefined || before === undefined ? undefined : tools.cache.answer(answer.fingerprint);
  let drift: AnswerDrift;
  if (recalled !== undefined && recalled.lockfileHash === before!.hash && sameSettings(settings, before!.settings())) {
    drift = { changes: [], after: before!, messageCount: recalled.messageCount, warnings: recalled.warnings };
    tools.mark('fetch');
  } else {
    const listing = await acquireSchemas(run, answer, before, settings, options);
    // The listing's request and, with fields on, the schemas' requests: both are the fetch stage.
    tools.mark('fetch');
    drift = diffListing(listing.parse(), before, settings, run.paths.lockfilePath, options.rails);
  }
  for (const warning of drift.warnings) run.warn(warning);
  return drift;
}

/** What the cache may take as known of an answer that made `after`: nothing for one without a fingerprint (a saved answer, or one that echoes the run's secrets). */
export function answerFacts(answer: Answer, after: LockfileText, drift: Pick<AnswerDrift, 'messageCount' | 'warnings'>): RunFacts['answer'] {
  return answer.fingerprint === undefined ? undefined : { fingerprint: answer.fingerprint, lockfileHash: after.hash, messageCount: drift.messageCount, warnings: drift.warnings };
}
