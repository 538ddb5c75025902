import { defineConfig } from 'vitest/config';

const jsonOut = process.env['VITEST_JSON'];

/** Files that replace a module (vi.mock): they need a module registry of their own. */
const MOCKING = ['test/cli/verbose-stages.test.ts', 'test/model/descriptor-fields.test.ts'];

export default defineConfig({
  test: {
    testTimeout: 60_000,
    hookTimeout: 60_000,
    // e2e tests spawn CLI processes and servers; the machines have two cores.
    maxWorkers: 2,
    // Property tests draw from a fixed seed (SCHEMA_SYNC_TEST_SEED chooses another).
    setupFiles: ['test/helpers/fixed-seed.ts'],
    // The run's own cache folder, removed at its end.
    // And, where the checkout is in a folder only root can enter, a copy of the CLI that the
    // tests that run as `nobody` can read.
    globalSetup: ['test/helpers/cache-folder.ts', 'test/helpers/other-user-install.ts'],
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
