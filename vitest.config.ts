import { relative, sep } from 'node:path';
import { defineConfig } from 'vitest/config';
import { BaseSequencer, type TestSpecification } from 'vitest/node';
import { asciiStringWidth, INLINE } from './test/helpers/ascii-string-width.js';

const jsonOut = process.env['VITEST_JSON'];

/** Files that replace a module (vi.mock): they need a module registry of their own. */
const MOCKING = ['test/cli/verbose-stages.test.ts', 'test/model/descriptor-fields.test.ts', 'test/config/settings-table.test.ts'];

/**
 * Files that run far longer than any other (two full builds of the package and npm installs):
 * started first. Vitest orders by the durations of the last run it remembers, and without one (a
 * fresh clone, as in CI) by file size, which put this file halfway down the queue, where it went
 * on running alone after the other worker had run out of files.
 */
const LONG_FIRST = ['test/e2e/install.test.ts'];

/** Vitest's order, with {@link LONG_FIRST} at its head. */
class LongFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const rank = (file: TestSpecification): number => {
      const at = LONG_FIRST.indexOf(relative(this.ctx.config.root, file.moduleId).split(sep).join('/'));
      return at === -1 ? LONG_FIRST.length : at;
    };
    return (await super.sort(files)).sort((a, b) => rank(a) - rank(b));
  }
}

export default defineConfig({
  // The CLI run in a test's own process measures its help text as the built CLI does.
  plugins: [asciiStringWidth()],
  test: {
    server: { deps: { inline: INLINE } },
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
