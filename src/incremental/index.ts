/**
 * Everything that makes a repeated run fast lives behind {@link Incremental}: what the last run
 * of an output folder established (the run record), what it verified of the files (the stat
 * cache), and the fingerprint of the service's answer. The pipeline's stages know nothing of it;
 * the commands ask it questions whose answer "don't know" always leads to the plain path, and
 * {@link openIncremental} without a cache folder gives exactly that plain path.
 */
import { cacheFileOf } from '../model/cache-dir.js';
import { hashOf, type HashedText } from '../model/hash.js';
import type { FolderView, Manifest } from '../write/index.js';
import { loadRunRecord, saveRunRecord, type RecordedAnswer } from './run-record.js';
import { openStatCache } from './stat-cache.js';
import { answerFingerprint, type AnswerIdentity } from './fingerprint.js';

export type { AnswerIdentity } from './fingerprint.js';

/** What the last run knew of the answer: it parses to the lockfile, with these warnings. */
export type KnownAnswer = Pick<RecordedAnswer, 'messageCount' | 'warnings'>;

/** What a run established, for the next one. */
export interface RunFacts {
  /** The answer with `fingerprint`, parsed to `lockfile` (no fingerprint: it depended on the run's secrets). */
  answer?: { fingerprint: string | undefined; lockfile: HashedText; messageCount: number; warnings: string[] };
  /** The folder's manifest now lists exactly the output of `planKey`. */
  output?: { planKey: string; manifest: HashedText };
  /**
   * The manifest now in the folder, and its entries (unless the folder was found as recorded, all
   * unchanged). Files a run wrote have no stat entry yet: the next run hashes them.
   */
  folder?: { manifest: HashedText; files?: Manifest };
}

/** The questions a run asks before doing work that may already be done. */
export interface Incremental {
  /** Identifies an answer for the run record: equal fingerprints parse alike. Undefined on the plain path, which records nothing. */
  fingerprint(answer: AnswerIdentity): string | undefined;
  /** The answer as recorded when the answer with `fingerprint` is the one that produced `lockfile`; then it needs no parsing. */
  knownAnswer(fingerprint: string | undefined, lockfile: HashedText | undefined): KnownAnswer | undefined;
  /** Whether `lockfile` is the one a recorded answer parsed to: schema-sync serialised it from valid descriptors, so it parses without errors. */
  knownValid(lockfile: HashedText): boolean;
  /**
   * Whether the folder is known to hold exactly the output of `planKey`: `manifest` is recorded as
   * listing it (its entries are the plan's paths and inputs), and every file it lists is
   * unchanged on disk since a run verified it.
   */
  holdsOutput(planKey: string, manifest: HashedText, view: FolderView): boolean;
  /** Whether the file at `path` holds bytes with hash `sha`. */
  holds(view: FolderView, path: string, sha: string): Promise<boolean>;
  /** Records what this run established (once, at its end). */
  remember(facts: RunFacts): void;
}

/** Opens the incremental state of `outDir` kept in `cacheDir`; without a cache folder, the plain path. */
export function openIncremental(outDir: string, cacheDir: string | undefined, clock: () => number = Date.now): Incremental {
  if (cacheDir === undefined) return plain;
  const recordFile = cacheFileOf(cacheDir, outDir, 'memo', 'json');
  const record = loadRunRecord(recordFile);
  const stats = openStatCache(cacheFileOf(cacheDir, outDir, 'stat', 'tsv'), clock);
  return {
    fingerprint: answerFingerprint,
    knownAnswer(fingerprint, lockfile) {
      const known = record.answer;
      if (known === undefined || fingerprint !== known.fingerprint || lockfile?.hash !== known.lockfileHash) return undefined;
      return { messageCount: known.messageCount, warnings: known.warnings };
    },
    knownValid(lockfile) {
      return record.answer?.lockfileHash === lockfile.hash;
    },
    holdsOutput(planKey, manifest, view) {
      if (record.output?.planKey !== planKey || record.output.manifestHash !== manifest.hash) return false;
      return stats.unchangedSince(manifest.hash, (path) => view.pathOnDisk(path)) !== undefined;
    },
    async holds(view, path, sha) {
      const onDisk = view.pathOnDisk(path);
      return onDisk === undefined ? plain.holds(view, path, sha) : stats.holds(path, onDisk, sha);
    },
    remember(facts) {
      if (facts.answer?.fingerprint !== undefined) {
        const { fingerprint, lockfile, messageCount, warnings } = facts.answer;
        record.answer = { fingerprint, lockfileHash: lockfile.hash, messageCount, warnings };
      }
      if (facts.output !== undefined) record.output = { planKey: facts.output.planKey, manifestHash: facts.output.manifest.hash };
      if (facts.answer?.fingerprint !== undefined || facts.output !== undefined) saveRunRecord(recordFile, record);
      if (facts.folder !== undefined) stats.save(facts.folder.manifest.hash, facts.folder.files);
    },
  };
}

/** No cache: nothing is known, every file is read and hashed, nothing is remembered. */
const plain: Incremental = {
  fingerprint: () => undefined,
  knownAnswer: () => undefined,
  knownValid: () => false,
  holdsOutput: () => false,
  async holds(view, path, sha) {
    const bytes = await view.read(path);
    return bytes !== undefined && hashOf(bytes) === sha;
  },
  remember: () => undefined,
};
