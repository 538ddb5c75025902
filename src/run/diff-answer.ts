import { changesInScope, compareDescriptors, type ChangeFact } from '../diff/index.js';
import type { KnownElements, ParsedAnswer } from '../fetch/listing-response.js';
import type { Incremental, RunFacts } from '../incremental/index.js';
import { entryDescriptor, LockfileText, lockedDescriptors } from '../lock/index.js';
import type { Descriptor } from '../model/descriptor.js';
import { hashOfParts } from '../util/hash.js';
import { BUILD, WIRE_SCHEME } from '../util/version.js';
import { FILE_KEY, LOCKFILE_VERSION, type GenerationSettings } from '../model/lockfile.js';
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
  /** The name each element of the answer made, by its text's hash, when the answer was parsed (`ParsedAnswer.elementNames`). */
  elementNames?: ParsedAnswer['elementNames'];
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
export function diffListing(listing: ParsedAnswer, before: LockfileText | undefined, settings: GenerationSettings, lockfilePath: string, rails?: Rails, written?: (descriptor: Descriptor) => string | undefined): AnswerDrift {
  const fetched = listing.descriptors;
  const stems = fileStemsAfter(before, { messages: fetched, settings });
  const after = LockfileText.of({ lockfileVersion: LOCKFILE_VERSION, source: listing.source, settings, messages: fetched, ...(stems.fileStems.size > 0 && { fileStems: stems.fileStems }) }, lockfilePath, written);
  // The same lockfile bytes mean the same descriptors: nothing to parse or compare.
  const same = after.hash === before?.hash;
  // Known entry texts come from a lockfile this schema-sync wrote: its entries need no validation.
  const locked = before === undefined ? [] : same ? fetched : lockedDescriptors(before, after, fetched, written !== undefined);
  if (rails !== undefined) checkSafetyRails({ locked, fetched, ...rails });
  const changes = same ? [] : withFileNotes(changesInScope(compareDescriptors({ locked, fetched }), { locked, fetched }, { include: settings.include, exclude: settings.exclude }), stems.sharedCase);
  return { changes, after, messageCount: fetched.length, warnings: listing.warnings, elementNames: listing.elementNames };
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
    const known = knownElements(tools.cache, before, settings);
    drift = diffListing(listing.parse(known?.descriptor), before, settings, run.paths.lockfilePath, options.rails, known?.entryText);
  }
  for (const warning of drift.warnings) run.warn(warning);
  return drift;
}

/**
 * What the cache recalls of the last answer parsed, when it made `before`: the descriptors of
 * the elements of the same texts, each taken from its entry in `before` (written by schema-sync
 * from a valid descriptor: parsed when first read beyond its name and number, not validated
 * again; `lock/entry-descriptor.ts`), and those entries' texts, which the
 * lockfile the run makes takes as they are. With fields on an entry holds more than its element
 * (the field descriptors): nothing is recalled.
 */
function knownElements(cache: Incremental, before: LockfileText | undefined, settings: GenerationSettings): { descriptor: KnownElements; entryText: (descriptor: Descriptor) => string | undefined } | undefined {
  if (before === undefined || settings.fields === true) return undefined;
  const names = cache.answerElements(elementsKey(before.hash));
  const entries = names === undefined ? undefined : before.entryTexts();
  if (names === undefined || entries === undefined) return undefined;
  const texts = new Map<Descriptor, string>();
  const descriptor: KnownElements = (textHash) => {
    const name = names.get(textHash);
    const text = name === undefined ? undefined : entries.get(name);
    const known = text === undefined ? undefined : entryDescriptor(name!, text, before.path);
    // An entry that records a file stem is written anew (the stem may not stay).
    if (known !== undefined && !text!.includes(FILE_KEY_TEXT)) texts.set(known, text!);
    return known;
  };
  return { descriptor, entryText: (known) => texts.get(known) };
}

const FILE_KEY_TEXT = JSON.stringify(FILE_KEY);

/** What a record of an answer's elements depends on besides them: the lockfile they made, and what parsed them. */
function elementsKey(lockfileHash: string): string {
  return hashOfParts([BUILD, WIRE_SCHEME, lockfileHash]);
}

/** What the cache may take as known of the elements of an answer that made `after` (a pull's lockfile; fields off): nothing for an answer without a fingerprint, or one not parsed. */
export function elementFacts(answer: Answer, after: LockfileText, drift: Pick<AnswerDrift, 'elementNames'>): RunFacts['elements'] {
  const names = answer.fingerprint === undefined || after.settings().fields === true ? undefined : drift.elementNames?.();
  return names === undefined ? undefined : { key: elementsKey(after.hash), names };
}

/** What the cache may take as known of an answer that made `after`: nothing for one without a fingerprint (a saved answer, or one that echoes the run's secrets). */
export function answerFacts(answer: Answer, after: LockfileText, drift: Pick<AnswerDrift, 'messageCount' | 'warnings'>): RunFacts['answer'] {
  return answer.fingerprint === undefined ? undefined : { fingerprint: answer.fingerprint, lockfileHash: after.hash, messageCount: drift.messageCount, warnings: drift.warnings };
}
