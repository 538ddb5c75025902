import { readLockfile } from '../lock/index.js';
import { LockError } from '../model/errors.js';
import { withRunLock, writeOutput, type WriteResult } from '../write/index.js';
import { resolvePaths, type BaseOptions } from './options.js';
import { assessOutput, renderFiles } from './sync-output.js';

/** What {@link generate} did. */
export interface GenerateResult {
  messageCount: number;
  write: WriteResult;
  outDir: string;
}

/** Rebuilds the output folder from the lockfile alone; never touches the network. */
export async function generate(options: BaseOptions & { lockWaitMs?: number }): Promise<GenerateResult> {
  const paths = resolvePaths(options);
  return withRunLock(
    paths.outDir,
    async (view) => {
      const lock = await readLockfile(view, paths.lockfilePath);
      if (!lock) {
        throw new LockError(`no lockfile at ${paths.lockfilePath}.`, {
          hint: 'Run `schema-sync pull` first to fetch the listing and write the lockfile, or pass --lockfile.',
        });
      }
      const output = await assessOutput(lock, options, paths, view);
      const files = await renderFiles(lock, options, paths, output.stale);
      const write = await writeOutput({ outDir: paths.outDir, view, expected: output.expected, files, manifest: output.manifest });
      return { messageCount: lock.messages.length, write, outDir: paths.outDir };
    },
    { waitMs: options.lockWaitMs },
  );
}
