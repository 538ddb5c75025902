import { relative, sep } from 'node:path';
import { defineConfig } from 'vitest/config';
import { BaseSequencer, type TestSpecification } from 'vitest/node';
import { asciiStringWidth, INLINE } from './test/helpers/ascii-string-width.js';

const jsonOut = process.env['VITEST_JSON'];

/** Files that replace a module (vi.mock): they need a module registry of their own. */
const MOCKING = ['test/model/descriptor-fields.test.ts', 'test/config/settings-table.test.ts'];

/**
 * The files that take longest, longest first (as measured: the per-file times vitest prints,
 * which count a file's hooks, under load; the JSON report's start and end times of a file leave
 * its beforeAll out; refresh the order when it drifts). Two workers take files from one queue;
 * with the long ones first, the many short ones fill in at the end and both workers end together.
 * Vitest orders by the durations of the last run it remembers, and without one (a fresh clone, as
 * in CI) by file size, which put the longest file halfway down the queue, where it went on
 * running alone after the other worker had run out of files.
 */
const LONG_FIRST = [
  'test/e2e/install.test.ts',
  'test/hardening/interrupted-runs.test.ts',
  'test/emit/typecheck.test.ts',
  'test/emit/prettier-batch.test.ts',
  'test/emit/render-selected.test.ts',
  'test/hardening/hostile-folders.test.ts',
  'test/hardening/parallel-runs.test.ts',
  'test/e2e/workflows.test.ts',
  'test/e2e/typescript-projects.test.ts',
  'test/e2e/interrupted-cold-pull.test.ts',
  'test/emit/records-as-sent.test.ts',
  'test/e2e/impact.test.ts',
  'test/hardening/properties.test.ts',
  'test/emit/global-names.test.ts',
  'test/api/library.test.ts',
  'test/e2e/consumer-matrix.test.ts',
  'test/e2e/pull.test.ts',
  'test/hardening/hostile-files.test.ts',
  'test/emit/emit-files.test.ts',
  'test/e2e/start-up.test.ts',
  'test/lock/serialize.test.ts',
  'test/impact/matrix.test.ts',
  'test/e2e/demo.test.ts',
  'test/hardening/network-faults.test.ts',
];

/**
 * Vitest's order, with {@link LONG_FIRST} at its head and the {@link MOCKING} files at its end.
 * A worker that takes a file of the other project ends, and the next file of its own project
 * starts a new worker, which loads the CLI, ts-morph, TypeScript and prettier again: with the
 * isolated files among the long ones, both shared workers were replaced midway. At the end they
 * run once each, in the workers that start for them anyway.
 */
class LongFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const rank = (file: TestSpecification): number => {
      const path = relative(this.ctx.config.root, file.moduleId).split(sep).join('/');
      if (MOCKING.includes(path)) return LONG_FIRST.length + 1;
      const at = LONG_FIRST.indexOf(path);
      return at === -1 ? LONG_FIRST.length : at;
    };
    return (await super.sort(files)).sort((a, b) => rank(a) - rank(b));
  }
}

export default defineConfig({
  // The CLI run in a test's own process measures its help text as the built CLI does.
  plugins: [asciiStringWidth()],
  test: {
    // Generated code that tests import from the run's temporary folder (test/helpers/temp-folder.ts)
    // runs natively, as a consumer's Node runs it, not through vite's transform of each module.
    server: { deps: { inline: INLINE, external: [/\/node_modules\//, /^\/dev\/shm\/ss-tmp-/] } },
    testTimeout: 60_000,
    hookTimeout: 60_000,
    // e2e tests spawn CLI processes and servers; the machines have two cores.
    maxWorkers: 2,
    // Property tests draw from a fixed seed (SCHEMA_SYNC_TEST_SEED chooses another).
    setupFiles: ['test/helpers/fixed-seed.ts'],
    sequence: { sequencer: LongFirst },
    // Where the checkout is in a folder only root can enter, a copy of the CLI that the tests
    // that run as `nobody` can read (made first, in the system's temp folder: hard links to the
    // checkout's files where they share a disk). Then the run's own temporary folder (on a RAM
    // file system when there is a roomy one) and its cache folder inside it, removed at its end.
    globalSetup: ['test/helpers/other-user-install.ts', 'test/helpers/temp-folder.ts', 'test/helpers/cache-folder.ts'],
    // .ci/run asks for the JSON report to print its plain "N passed, N failed" line.
    reporters: jsonOut ? ['default', ['json', { outputFile: jsonOut }]] : ['default'],
    projects: [
      {
        extends: true,
        // The files of a worker share loaded modules (src/ keeps no module-level state): each
        // file would otherwise load the CLI, ts-morph and prettier again.
        test: { name: 'shared', include: ['test/**/*.test.ts'], exclude: MOCKING, isolate: false },
      },
      { extends: true, test: { name: 'isolated', include: MOCKING } },
    ],
  },
});
