/**
 * Everything that makes a repeated run fast lives behind {@link Incremental}: what the last run
 * of an output folder established (the run record), what it verified of the files (the stat
 * cache), and the fingerprint of the service's answer. The pipeline's stages know nothing of it;
 * the commands ask it questions whose answer "don't know" always leads to the plain path, and
 * {@link openIncremental} without a cache folder gives exactly that plain path.
 */
import { resolve } from 'node:path';
import type { LockfileHead, LockfileText } from '../lock/index.js';
import { cacheFileOf } from './cache-dir.js';
import { canonicalJson } from '../util/canonical-json.js';
import { hashOf, type HashedText } from '../util/hash.js';
import type { GenerationSettings } from '../model/lockfile.js';
import type { AnswerDrift } from '../run/diff-answer.js';
import { type ChangeSet, type FolderView, type Manifest, type ManifestText } from '../write/index.js';
import { loadRunRecord, saveRunRecord } from './run-record.js';
import { openStatCache } from './stat-cache.js';
import { pruneRecords } from './prune-cache.js';
import { answerFingerprint, type AnswerIdentity } from './fingerprint.js';
import type { Message } from '../model/message.js';

export type { AnswerIdentity } from './fingerprint.js';
export { lockedDescriptors } from './locked-descriptors.js';

/** What a run established, for the next one. */
export interface RunFacts {
  /** The answer with `identity`, parsed to `lockfile` (no identity: it depended on the run's secrets, and is not remembered). */
  answer?: { identity: AnswerIdentity | undefined; lockfile: HashedText; messageCount: number; warnings: Message[] };
  /** The folder's manifest now lists exactly the output of `planKey`. */
  output?: { planKey: string; manifest: HashedText };
  /** The lockfile the run leaves, valid (written by schema-sync or read whole). */
  lockfile?: LockfileText;
  /**
   * The manifest now in the folder, and its entries (unless the folder was found as recorded, all
   * unchanged). Files a run wrote have no stat entry yet: the next run hashes them.
   */
  folder?: { manifest: HashedText; files?: Manifest };
}

/** The questions a run asks before doing work that may already be done. */
export interface Incremental {
  /**
   * The drift of an answer against `before` with `settings`: a memo of `compute`. When the answer
   * with this identity is recorded as making `before` with the settings it records (which are
   * `settings`), it is "no changes", `before` as it is, with the count and warnings recorded.
   */
  answerDrift(key: { answer: AnswerIdentity | undefined; before: LockfileText | undefined; settings: GenerationSettings }, compute: () => Promise<AnswerDrift>): Promise<AnswerDrift>;
  /** The head recorded for the lockfile with hash `hash`: it is valid, and need not be parsed to know its settings. */
  lockfileHead(hash: string): LockfileHead | undefined;
  /**
   * The change set that makes the folder hold the output of `planKey`: a memo of `compute`, which
   * is given how to tell whether a file holds the bytes with a hash (by its stat, when a run
   * verified it). When `manifest` is recorded as listing exactly that output and every file it
   * lists is unchanged on disk since a run verified it, there is nothing to change, and nothing
   * is planned.
   */
  outputChanges(key: { planKey: string; manifest: ManifestText | undefined; view: FolderView }, compute: (holds: (path: string, sha: string) => Promise<boolean>) => Promise<ChangeSet>): Promise<ChangeSet>;
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
  // An answer is hashed once, whether it is looked up, remembered or both.
  const fingerprints = new WeakMap<AnswerIdentity, string>();
  const fingerprint = (identity: AnswerIdentity) => {
    let known = fingerprints.get(identity);
    if (known === undefined) fingerprints.set(identity, (known = answerFingerprint(identity)));
    return known;
  };
  const holds = async (view: FolderView, path: string, sha: string): Promise<boolean> => {
    const onDisk = view.pathOnDisk(path);
    return onDisk === undefined ? plain.holds(view, path, sha) : stats.holds(path, onDisk, sha);
  };
  return {
    answerDrift({ answer, before, settings }, compute) {
      const known = record.answer;
      if (answer === undefined || before === undefined || known === undefined || before.hash !== known.lockfileHash) return compute();
      if (fingerprint(answer) !== known.fingerprint || canonicalJson(settings) !== canonicalJson(before.settings())) return compute();
      return Promise.resolve({ changes: [], after: before, messageCount: known.messageCount, warnings: known.warnings });
    },
    lockfileHead(hash) {
      const known = record.lockfile;
      return known?.hash === hash ? { settings: known.settings, messageCount: known.messageCount } : undefined;
    },
    async outputChanges({ planKey, manifest, view }, compute) {
      if (manifest !== undefined && record.output?.planKey === planKey && record.output.manifestHash === manifest.hash) {
        const count = stats.unchangedSince(manifest.hash, (path) => view.pathOnDisk(path));
        if (count !== undefined) return manifest.unchanged(count);
      }
      return compute((path, sha) => holds(view, path, sha));
    },
    holds,
    remember(facts) {
      const answer = facts.answer?.identity === undefined ? undefined : facts.answer;
      if (answer?.identity !== undefined) {
        const { identity, lockfile, messageCount, warnings } = answer;
        record.answer = { fingerprint: fingerprint(identity), lockfileHash: lockfile.hash, messageCount, warnings };
      }
      if (facts.output !== undefined) record.output = { planKey: facts.output.planKey, manifestHash: facts.output.manifest.hash };
      if (facts.lockfile !== undefined) record.lockfile = { hash: facts.lockfile.hash, ...facts.lockfile.head() };
      if (answer !== undefined || facts.output !== undefined || facts.lockfile !== undefined) saveRunRecord(recordFile, record, resolve(outDir));
      if (facts.folder !== undefined) stats.save(facts.folder.manifest.hash, facts.folder.files);
      // After the work, and rarely (see prune-cache.ts): the cache folder stays bounded.
      pruneRecords(cacheDir, clock());
    },
  };
}

/** No cache: nothing is known, every file is read and hashed, nothing is remembered. */
const plain: Incremental = {
  answerDrift: (_key, compute) => compute(),
  lockfileHead: () => undefined,
  outputChanges: ({ view }, compute) => compute((path, sha) => plain.holds(view, path, sha)),
  async holds(view, path, sha) {
    const bytes = await view.read(path);
    return bytes !== undefined && hashOf(bytes) === sha;
  },
  remember: () => undefined,
};
