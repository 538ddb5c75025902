import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { cacheFileOf, writeCacheFile } from '../model/cache-dir.js';

/**
 * What the last run learnt, kept in the cache folder (never in the output folder or lockfile)
 * so that a run where nothing changed does almost nothing:
 *
 * - `listing`: the service's answer with this fingerprint parses to the lockfile with this hash;
 *   the same answer against the same lockfile is then "no changes" without validating it;
 * - `plan`: the output of the lockfile and settings with this key is exactly the files the
 *   manifest with this hash lists; the folder is then checked against the manifest (by stat,
 *   see the stat cache) without planning 10,000 files.
 *
 * Each fact is used only when every hash it names matches what is on disk now, so a stale or
 * missing memo costs time, never correctness.
 */
export interface RunMemo {
  listing?: { fingerprint: string; lockfileSha: string; messageCount: number; warnings: string[] };
  plan?: { key: string; manifestSha: string };
}

/** The memo file of an output folder, or undefined without a cache folder. */
function memoFile(outDir: string, cacheDir: string | undefined): string | undefined {
  return cacheDir === undefined ? undefined : cacheFileOf(cacheDir, outDir, 'memo', 'json');
}

/** Reads the memo of `outDir`; empty when there is none or it is damaged. */
export function loadRunMemo(outDir: string, cacheDir: string | undefined): RunMemo {
  const file = memoFile(outDir, cacheDir);
  if (file === undefined) return {};
  try {
    const parsed = JSON.parse(readFileSync(file, 'utf8')) as RunMemo;
    const memo: RunMemo = {};
    const { listing, plan } = parsed;
    if (listing && typeof listing.fingerprint === 'string' && typeof listing.lockfileSha === 'string' && Number.isInteger(listing.messageCount) && Array.isArray(listing.warnings) && listing.warnings.every((w) => typeof w === 'string')) {
      memo.listing = listing;
    }
    if (plan && typeof plan.key === 'string' && typeof plan.manifestSha === 'string') memo.plan = plan;
    return memo;
  } catch {
    return {};
  }
}

/** Writes the memo of `outDir` atomically; a cache folder that cannot be written only costs speed. */
export function saveRunMemo(outDir: string, cacheDir: string | undefined, memo: RunMemo): void {
  const file = memoFile(outDir, cacheDir);
  if (file === undefined) return;
  writeCacheFile(file, `${JSON.stringify(memo)}\n`);
}

/** The last few hashes taken: a run hashes the same 4 MB lockfile text at several steps. */
const recent: Array<{ content: string | Buffer; sha: string }> = [];

/** The hash the memo records of a lockfile or manifest. */
export function contentSha(content: string | Buffer): string {
  const known = recent.find((entry) => entry.content === content);
  if (known !== undefined) return known.sha;
  const sha = createHash('sha256').update(content).digest('hex').slice(0, 32);
  recent.unshift({ content, sha });
  recent.length = Math.min(recent.length, 4);
  return sha;
}
