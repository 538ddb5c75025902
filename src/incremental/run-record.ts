import { readCacheFile, writeCacheFile } from './cache-dir.js';
import type { GenerationSettings } from '../model/lockfile.js';
import { isMessage, type Message } from '../model/message.js';

/**
 * What the last run of an output folder established, kept in the cache folder (never in the
 * output folder or lockfile):
 *
 * - `answer`: the service's answer with this fingerprint parses to the lockfile with this hash
 *   (with these warnings); the same answer against the same lockfile is "no changes" unparsed;
 * - `output`: the output of the lockfile and settings with this plan key is exactly the files the
 *   manifest with this hash lists; the folder is then checked against that manifest without
 *   planning the output;
 * - `lockfile`: the lockfile with this hash (valid: schema-sync wrote it, or read it whole)
 *   records these settings and this many message types; it is then not parsed to know them.
 *
 * Each fact is used only when every hash it names matches what is on disk now, so a stale or
 * missing record costs time, never correctness.
 */
export interface RunRecord {
  answer?: RecordedAnswer;
  output?: { planKey: string; manifestHash: string };
  lockfile?: RecordedLockfile;
}

/** A lockfile's head, by the lockfile's hash. */
export interface RecordedLockfile {
  hash: string;
  settings: GenerationSettings;
  messageCount: number;
}

/** An answer of the service and the lockfile it parsed to. */
export interface RecordedAnswer {
  fingerprint: string;
  lockfileHash: string;
  messageCount: number;
  warnings: Message[];
}

/** Reads the record in `file`; empty when there is none or it is damaged. */
export function loadRunRecord(file: string): RunRecord {
  let parsed: Record<string, unknown>;
  try {
    parsed = JSON.parse(readCacheFile(file)?.toString('utf8') ?? '') as Record<string, unknown>;
  } catch {
    return {};
  }
  const record: RunRecord = {};
  const answer = parsed['answer'] as Partial<RecordedAnswer> | undefined;
  if (typeof answer?.fingerprint === 'string' && typeof answer.lockfileHash === 'string' && Number.isInteger(answer.messageCount) && Array.isArray(answer.warnings) && answer.warnings.every(isMessage)) {
    record.answer = answer as RecordedAnswer;
  }
  const output = parsed['output'] as RunRecord['output'];
  if (typeof output?.planKey === 'string' && typeof output.manifestHash === 'string') record.output = output;
  const lockfile = parsed['lockfile'] as Partial<RecordedLockfile> | undefined;
  if (typeof lockfile?.hash === 'string' && Number.isInteger(lockfile.messageCount) && typeof lockfile.settings === 'object' && lockfile.settings !== null && !Array.isArray(lockfile.settings)) {
    record.lockfile = lockfile as RecordedLockfile;
  }
  return record;
}

/**
 * Writes the record atomically, naming the output folder it is about (`outDir`, resolved): the
 * cache's pruning removes the records of a folder that is gone. A cache folder that cannot be
 * written only costs speed.
 */
export function saveRunRecord(file: string, record: RunRecord, outDir: string): void {
  writeCacheFile(file, `${JSON.stringify({ outDir, ...record })}\n`);
}
