/**
 * The cache: facts that earlier runs of an output folder established, stored and recalled by
 * content hash, and the folder's files verified by their stats. It computes nothing of the
 * pipeline and knows none of its stages: the commands (`src/run/`) ask it before they would
 * compute, and tell it what they established. A fact is used only when every hash it names
 * matches what is on disk now, so a stale or damaged cache costs time, never correctness;
 * {@link openIncremental} without a cache folder knows nothing and remembers nothing, the plain path.
 */
import { resolve } from 'node:path';
import { cacheDirRefusal, cacheFileOf } from './cache-dir.js';
import type { GenerationSettings } from '../model/lockfile.js';
import type { Message } from '../model/message.js';
import { loadRunRecord, saveRunRecord, type RecordedAnswer, type RecordedLockfile } from './run-record.js';
import { openStatCache } from './stat-cache.js';
import { pruneRecords } from './prune-cache.js';
import { loadAnswerElements, saveAnswerElements, type AnswerElements } from './answer-elements.js';

export type { RecordedAnswer, RecordedLockfile } from './run-record.js';
export type { AnswerElements } from './answer-elements.js';

/** What a run established, for the next one: hashes, counts, settings and warnings, never a stage's value. */
export interface RunFacts {
  /** The answer with this fingerprint parses to the lockfile with hash `lockfileHash` (with this count and these warnings). */
  answer?: { fingerprint: string; lockfileHash: string; messageCount: number; warnings: Message[] };
  /** The folder's manifest with hash `manifestHash` lists exactly the output of `planKey`. */
  output?: { planKey: string; manifestHash: string };
  /** The lockfile the run leaves, valid (written by schema-sync or read whole): its hash, settings and count. */
  lockfile?: RecordedLockfile;
  /**
   * The manifest now in the folder, and its files' hashes (unless the folder was found as recorded,
   * all unchanged). Files a run wrote have no stat entry yet: the next run hashes them.
   */
  folder?: { manifestHash: string; files?: ReadonlyMap<string, { sha: string }> };
  /** The elements of the answer the run parsed, by their texts' hashes, and the lockfile entries they made (`answer-elements.ts`). */
  elements?: AnswerElements;
}

/** The facts a run recalls before doing work that may already be done, and remembers at its end. */
export interface Incremental {
  /** What the answer with `fingerprint` was recorded as parsing to: the lockfile's hash, its count and warnings. */
  answer(fingerprint: string): Omit<RecordedAnswer, 'fingerprint'> | undefined;
  /** The head recorded for the lockfile with hash `hash`: it is valid, and need not be parsed to know its settings. */
  lockfileHead(hash: string): { settings: GenerationSettings; messageCount: number } | undefined;
  /**
   * How many files the folder holds when its manifest, with hash `manifestHash`, is recorded as
   * listing exactly the output of `planKey` and every file it lists is unchanged on disk since a
   * run verified it (`onDisk` gives a file's path, or undefined when it must not be judged by
   * its stat); undefined otherwise.
   */
  freshOutput(key: { planKey: string; manifestHash: string }, onDisk: (path: string) => string | undefined): number | undefined;
  /** The plan key whose output the manifest with hash `manifestHash` was recorded as listing exactly (paths and inputs; its files unchecked). */
  outputPlan(manifestHash: string): string | undefined;
  /**
   * Whether the file at `onDisk` (the folder's `path`) holds bytes with hash `sha`: by its stat
   * when a run verified it, else by hashing it (and recording that); undefined without a cache,
   * where the caller reads it.
   */
  holds(path: string, onDisk: string, sha: string): boolean | undefined;
  /** The name of the type each element of the last answer parsed made, by the hash of the element's text, when recorded under `key`. */
  answerElements(key: string): ReadonlyMap<string, string> | undefined;
  /** Records what this run established (once, at its end). */
  remember(facts: RunFacts): void;
}

/**
 * Opens the cache of `outDir` kept in `cacheDir`; without a cache folder, or with one another
 * user could have written (`cacheDirRefusal`), the plain path.
 */
export function openIncremental(outDir: string, cacheDir: string | undefined, clock: () => number = Date.now): Incremental {
  if (cacheDir === undefined || cacheDirRefusal(cacheDir) !== undefined) return plain;
  const recordFile = cacheFileOf(cacheDir, outDir, 'memo', 'json');
  const record = loadRunRecord(recordFile);
  const stats = openStatCache(cacheFileOf(cacheDir, outDir, 'stat', 'tsv'), clock);
  const elementsFile = cacheFileOf(cacheDir, outDir, 'elements', 'tsv');
  return {
    answer(fingerprint) {
      const known = record.answer;
      return known?.fingerprint === fingerprint ? { lockfileHash: known.lockfileHash, messageCount: known.messageCount, warnings: known.warnings } : undefined;
    },
    lockfileHead(hash) {
      const known = record.lockfile;
      return known?.hash === hash ? { settings: known.settings, messageCount: known.messageCount } : undefined;
    },
    freshOutput({ planKey, manifestHash }, onDisk) {
      if (record.output?.planKey !== planKey || record.output.manifestHash !== manifestHash) return undefined;
      return stats.unchangedSince(manifestHash, onDisk);
    },
    outputPlan: (manifestHash) => (record.output?.manifestHash === manifestHash ? record.output.planKey : undefined),
    holds: (path, onDisk, sha) => stats.holds(path, onDisk, sha),
    answerElements: (key) => loadAnswerElements(elementsFile, key),
    remember(facts) {
      if (facts.answer !== undefined) record.answer = facts.answer;
      if (facts.output !== undefined) record.output = facts.output;
      if (facts.lockfile !== undefined) record.lockfile = facts.lockfile;
      if (facts.answer !== undefined || facts.output !== undefined || facts.lockfile !== undefined) saveRunRecord(recordFile, record, resolve(outDir));
      if (facts.folder !== undefined) stats.save(facts.folder.manifestHash, facts.folder.files);
      if (facts.elements !== undefined) saveAnswerElements(elementsFile, facts.elements);
      // After the work, and rarely (see prune-cache.ts): the cache folder stays bounded.
      pruneRecords(cacheDir, clock());
    },
  };
}

/** No cache: nothing is known, every file is read and hashed by the caller, nothing is remembered. */
const plain: Incremental = {
  answer: () => undefined,
  lockfileHead: () => undefined,
  freshOutput: () => undefined,
  outputPlan: () => undefined,
  holds: () => undefined,
  answerElements: () => undefined,
  remember: () => undefined,
};
