import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    // e2e tests spawn CLI processes and servers; two cores, so keep the pool small.
    maxWorkers: 2,
  },
});
