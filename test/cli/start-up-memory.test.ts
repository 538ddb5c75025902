import { afterEach, describe, expect, it, vi } from 'vitest';
import { growHeapSlowlyIfLarge, growHeapSlowlyWhenLarge, LARGE_RUN } from '../../src/cli/heap-growth.js';

afterEach(() => {
  vi.useRealTimers();
});

describe('a run that grows large grows its heap slowly', () => {
  it.each([
    ['resident memory', { rss: LARGE_RUN.rss, arrayBuffers: 0, heapUsed: 0 }],
    ['buffers (an answer being read)', { rss: 0, arrayBuffers: LARGE_RUN.arrayBuffers, heapUsed: 0 }],
    ['heap (a listing of many types, parsed)', { rss: 0, arrayBuffers: 0, heapUsed: LARGE_RUN.heapUsed }],
  ])('sets the heap growing flag once, when %s passes the mark, and never before', (_, large) => {
    vi.useFakeTimers();
    let usage = { rss: LARGE_RUN.rss - 1, arrayBuffers: LARGE_RUN.arrayBuffers - 1, heapUsed: LARGE_RUN.heapUsed - 1 };
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

  it('at the end of a stage (no timer fires during a long synchronous one): only a large run', () => {
    const flags: string[] = [];
    expect(growHeapSlowlyIfLarge({ rss: LARGE_RUN.rss - 1, arrayBuffers: 0, heapUsed: LARGE_RUN.heapUsed - 1 }, (flag) => flags.push(flag))).toBe(false);
    expect(flags).toEqual([]);
    expect(growHeapSlowlyIfLarge({ rss: 0, arrayBuffers: 0, heapUsed: LARGE_RUN.heapUsed }, (flag) => flags.push(flag))).toBe(true);
    expect(flags).toEqual(['--heap-growing-percent=20']);
  });
});
