import { tmpdir } from 'node:os';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import * as runPull from '../../src/run/pull.js';
import type { PullOptions, PullResult } from '../../src/run/pull.js';
import { runInProcess } from './fake-io.js';

// The CLI side of per-stage timings: whatever the run layer reports through `onStage`, --verbose
// prints as "<stage>: <ms> ms" (and nothing without --verbose). The run layer is stubbed here, for
// this file's tests only (the files of a worker share their modules: vitest.config.ts).
beforeAll(() => {
  vi.spyOn(runPull, 'pull').mockImplementation(async (options: PullOptions & { onStage?: (stage: string, ms: number) => void }): Promise<PullResult> => {
    for (const [stage, ms] of [['fetch', 120], ['diff', 3], ['emit', 40], ['write', 7]] as const) options.onStage?.(stage, ms);
    return {
      report: { inSync: true, summary: { added: 0, removed: 0, changed: 0, renamed: 0, breaking: 0, dangerous: 0, safe: 0, accepted: 0 }, changes: [], accepted: [], staleFiles: [], settings: [] },
      messageCount: 0,
      firstLock: false,
      write: { written: [], deleted: [] } as unknown as PullResult['write'],
      outDir: '/x',
      lockfilePath: '/x.lock.json',
      lockfileText: undefined,
    } as unknown as PullResult;
  });
});
afterAll(() => {
  vi.restoreAllMocks();
});

describe('--verbose per-stage timings', () => {
  it('prints one line per stage the library reports', async () => {
    const run = await runInProcess(['pull', '--base-url', 'http://127.0.0.1:9', '--verbose'], { cwd: tmpdir(), env: {} });
    expect(run.code).toBe(0);
    expect(run.stderr).toContain('fetch: 120 ms\ndiff: 3 ms\nemit: 40 ms\nwrite: 7 ms\n');
  });

  it('prints none without --verbose', async () => {
    const run = await runInProcess(['pull', '--base-url', 'http://127.0.0.1:9'], { cwd: tmpdir(), env: {} });
    expect(run.stderr).not.toMatch(/fetch: \d+ ms/);
  });
});
