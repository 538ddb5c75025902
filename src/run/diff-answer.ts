import { changesInScope, compareDescriptors, type ChangeFact } from '../diff/index.js';
import type { ParsedAnswer } from '../fetch/listing-response.js';
import { lockedDescriptors } from '../incremental/index.js';
import { LockfileText } from '../lock/index.js';
import { LOCKFILE_VERSION, type GenerationSettings } from '../model/lockfile.js';
import type { Answer } from './acquire-listing.js';
import { acquireSchemas } from './acquire-schemas.js';
import type { SourceOptions } from './options.js';
import type { RunContext } from './run-context.js';
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
 * acquiring the schemas and diffing is a memo keyed by the answer, `before` and the settings
 * (an answer recorded as making `before` is "no changes", neither validated nor compared). The
 * answer's warnings go to the run either way.
 */
export async function answerDrift(run: RunContext, answer: Answer, before: LockfileText | undefined, settings: GenerationSettings, options: SourceOptions & { rails?: Rails }): Promise<AnswerDrift> {
  let fetched = false;
  const drift = await run.cache.answerDrift({ answer: answer.identity, before, settings }, async () => {
    const listing = await acquireSchemas(run, answer, before, settings, options);
    // The listing's request and, with fields on, the schemas' requests: both are the fetch stage.
    run.mark('fetch');
    fetched = true;
    return diffListing(listing.parse(), before, settings, run.paths.lockfilePath, options.rails);
  });
  if (!fetched) run.mark('fetch');
  for (const warning of drift.warnings) run.warn(warning);
  return drift;
}
