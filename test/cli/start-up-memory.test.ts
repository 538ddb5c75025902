import { afterEach, describe, expect, it, vi } from 'vitest';
import { growHeapSlowlyWhenLarge, LARGE_RUN } from '../../src/cli/start-up.js';

afterEach(() => {
  vi.useRealTimers();
});

describe('a run that grows large grows its heap slowly', () => {
  it.each([
    ['resident memory', { rss: LARGE_RUN.rss, arrayBuffers: 0 }],
    ['buffers (an answer being read)', { rss: 0, arrayBuffers: LARGE_RUN.arrayBuffers }],
  ])('sets the heap growing flag once, when %s passes the mark, and never before', (_, large) => {
    vi.useFakeTimers();
    let usage = { rss: LARGE_RUN.rss - 1, arrayBuffers: LARGE_RUN.arrayBuffers - 1 };
    const flags: string[] = [];
    growHeapSlowlyWhenLarge(() => usage, (flag) => flags.push(flag), 50);
    vi.advanceTimersByTime(500);
    expect(flags).toEqual([]);
    usage = large;
    vi.advanceTimersByTime(50);
    expect(flags).toEqual(['--heap-growing-percent=20']);
    vi.advanceTimersByTime(500);
    expect(flags).toHaveLength(1);
  });
});
