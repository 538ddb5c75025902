import { defineConfig } from 'vitest/config';

const jsonOut = process.env['VITEST_JSON'];

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    // e2e tests spawn CLI processes and servers; the machines have two cores.
    maxWorkers: 2,
    // .ci/run asks for the JSON report to print its plain "N passed, N failed" line.
    reporters: jsonOut ? ['default', ['json', { outputFile: jsonOut }]] : ['default'],
  },
});
