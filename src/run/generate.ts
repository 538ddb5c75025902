import { withRunLock, type WriteResult } from '../write/index.js';
import { assessOutput } from './assess-output.js';
import type { BaseOptions } from './options.js';
import { requireLockfile } from './read-lockfile.js';
import { renderAndWrite } from './render-and-write.js';
import { openRun } from './run-context.js';

/** What {@link generate} did. */
export interface GenerateResult {
  messageCount: number;
  write: WriteResult;
  outDir: string;
}

/** Rebuilds the output folder from the lockfile alone; never touches the network. */
export async function generate(options: BaseOptions & { lockWaitMs?: number }): Promise<GenerateResult> {
  const run = await openRun(options);
  return withRunLock(
    run.paths.outDir,
    async (view) => {
      const lockfile = await requireLockfile(view, run.paths.lockfilePath, {
        detail: '.',
        hint: 'Run `schema-sync pull` first to fetch the listing and write the lockfile, or pass --lockfile.',
      });
      const { messages } = lockfile.parse();
      const output = await assessOutput(run, view, lockfile);
      const { write, facts } = await renderAndWrite(run, view, { lockfile, output });
      run.mark('write');
      run.cache.remember(facts);
      return { messageCount: messages.length, write, outDir: run.paths.outDir };
    },
    { lockfilePath: run.paths.lockfilePath, waitMs: options.lockWaitMs },
  );
}
