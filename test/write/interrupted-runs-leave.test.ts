/**
 * What a failed or interrupted run leaves (issue 29 item 11): no empty folders it made for its
 * output (a folder that was there before, or that holds anything, stays), and an interrupt that
 * says whether the run changed nothing or finished its change. In-process: the signal handler
 * withRunLock installs is called directly, no signal is sent.
 */
import { mkdir, readdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { generate } from '../../src/run/generate.js';
import { Interrupted, withRunLock } from '../../src/write/index.js';
import { removeDir, tempDir } from '../helpers/cli.js';

let dir: string;
beforeEach(async () => {
  dir = await tempDir();
});
afterEach(() => removeDir(dir));

/** Everything under `dir`, folders with a trailing slash. */
async function tree(): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  return entries.map((entry) => `${join(entry.parentPath, entry.name).slice(dir.length + 1)}${entry.isDirectory() ? '/' : ''}`).sort();
}

describe('a failed run', () => {
  it('removes the output folder and the parents it made, innermost first', async () => {
    await expect(generate({ cwd: dir, out: 'src/generated/schema', cacheDir: false })).rejects.toThrow(/no lockfile/);
    expect(await tree()).toEqual([]);
  });

  it('keeps a folder that was there before, and one that holds anything', async () => {
    await mkdir(join(dir, 'src'));
    await expect(generate({ cwd: dir, out: 'src/generated/schema', cacheDir: false })).rejects.toThrow(/no lockfile/);
    expect(await tree()).toEqual(['src/']);

    await expect(
      withRunLock(
        join(dir, 'a', 'b'),
        async () => {
          await writeFile(join(dir, 'a', 'note.txt'), 'not the run’s');
          throw new Error('failed');
        },
        { lockfilePath: join(dir, 'x.lock.json') },
      ),
    ).rejects.toThrow('failed');
    expect(await tree()).toEqual(['a/', 'a/note.txt', 'src/']);
  });
});

describe('an interrupted run', () => {
  /** Calls the SIGINT handler withRunLock installed (the last one added), as a Ctrl-C would. */
  const ctrlC = () => (process.listeners('SIGINT').at(-1) as (signal: NodeJS.Signals) => void)('SIGINT');
  const options = () => ({ lockfilePath: join(dir, 'x.lock.json') });

  it('before its end rolls back: Interrupted, not completed', async () => {
    const run = withRunLock(
      join(dir, 'out'),
      async (_view, interrupt) => {
        ctrlC();
        interrupt.throwIfAborted();
      },
      options(),
    );
    await expect(run).rejects.toEqual(expect.objectContaining({ name: 'Interrupted', signal: 'SIGINT', completed: false }));
    expect(await tree()).toEqual([]);
  });

  it('past its commit point finishes: Interrupted, completed', async () => {
    const run = withRunLock(
      join(dir, 'out'),
      async () => {
        ctrlC();
        await writeFile(join(dir, 'out', 'done.txt'), 'committed');
      },
      options(),
    );
    const error: unknown = await run.catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(Interrupted);
    expect(error).toMatchObject({ signal: 'SIGINT', completed: true });
    expect(await tree()).toEqual(['out/', 'out/done.txt']);
  });
});
