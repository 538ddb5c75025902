import { parseLockfile } from '../lock/index.js';
import { LockError } from '../model/errors.js';
import { withRunLock, type WriteResult } from '../write/index.js';
import { resolvePaths, stageTimer, type BaseOptions } from './options.js';
import { renderAndWrite } from './render-and-write.js';
import { loadRunMemo, saveRunMemo } from './run-memo.js';
import { assessOutput, runCacheDir } from './sync-output.js';

/** What {@link generate} did. */
export interface GenerateResult {
  messageCount: number;
  write: WriteResult;
  outDir: string;
}

/** Rebuilds the output folder from the lockfile alone; never touches the network. */
export async function generate(options: BaseOptions & { lockWaitMs?: number }): Promise<GenerateResult> {
  const paths = resolvePaths(options);
  const mark = stageTimer(options.onStage);
  return withRunLock(
    paths.outDir,
    async (view) => {
      const text = await view.readLockfile(paths.lockfilePath);
      if (text === undefined) {
        throw new LockError(`no lockfile at ${paths.lockfilePath}.`, {
          hint: 'Run `schema-sync pull` first to fetch the listing and write the lockfile, or pass --lockfile.',
        });
      }
      const lock = parseLockfile(text, paths.lockfilePath);
      const cache = runCacheDir(options, paths.cwd);
      const memo = loadRunMemo(paths.outDir, cache);
      const output = await assessOutput({ text, parsed: () => lock }, options, paths, view, memo);
      const { write, manifestSha } = await renderAndWrite(lock, options, paths, view, output, { onRendered: () => mark('emit') });
      mark('write');
      saveRunMemo(paths.outDir, cache, { ...memo, plan: { key: output.planKey, manifestSha } });
      return { messageCount: lock.messages.length, write, outDir: paths.outDir };
    },
    { waitMs: options.lockWaitMs },
  );
}
