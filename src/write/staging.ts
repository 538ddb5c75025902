import { mkdirSync, writeFileSync } from 'node:fs';
import { mkdir, rm } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { WriteError } from '../model/errors.js';
import { TXN_DIR, TXN_FILES } from './journal.js';
import { checkTargets, writeFailure } from './target-checks.js';

/**
 * The files of a run's transaction, prepared in its folder as each is rendered and compared
 * (before the commit point, so a run that stops early did nothing). Made under the run lock, after any interrupted run was recovered; the folder is made fresh on
 * the first file, so a run with nothing to write never touches it.
 */
export interface Staging {
  /** Writes `bytes` as the prepared file of `path` (a plain path inside the output folder). */
  write(path: string, bytes: Uint8Array): Promise<void>;
  /** The paths written, in the order they were. */
  readonly paths: readonly string[];
  /** Removes what was prepared: the run stops before its commit point. */
  discard(): Promise<void>;
}

/** A staging of the transaction of the output folder `outDir`. */
export function openStaging(outDir: string): Staging {
  const txnDir = join(outDir, TXN_DIR);
  const paths: string[] = [];
  const folders = new Set<string>();
  return {
    paths,
    async write(path, bytes) {
      try {
        if (paths.length === 0) {
          // Never through a symbolic link: the output folder itself is checked before anything is made in it.
          checkTargets(outDir, { paths: [] });
          await rm(txnDir, { recursive: true, force: true });
          await mkdir(join(txnDir, TXN_FILES), { recursive: true });
        }
        const where = join(txnDir, TXN_FILES, path);
        const folder = dirname(where);
        if (!folders.has(folder)) {
          mkdirSync(folder, { recursive: true });
          folders.add(folder);
        }
        writeFileSync(where, bytes);
        paths.push(path);
      } catch (error) {
        throw error instanceof WriteError ? error : writeFailure(error, txnDir);
      }
    },
    async discard() {
      if (paths.length > 0) await rm(txnDir, { recursive: true, force: true }).catch(() => undefined);
    },
  };
}
