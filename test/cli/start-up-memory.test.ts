import { afterEach, describe, expect, it, vi } from 'vitest';
import { growHeapSlowlyWhenLarge, LARGE_RUN_BYTES } from '../../src/cli/start-up.js';

afterEach(() => {
  vi.useRealTimers();
});

describe('a run that grows large grows its heap slowly', () => {
  it('sets the heap growing flag once, when the resident memory passes the mark, and never before', () => {
    vi.useFakeTimers();
    let rss = LARGE_RUN_BYTES - 1;
    const flags: string[] = [];
    growHeapSlowlyWhenLarge(() => rss, (flag) => flags.push(flag), 50);
    vi.advanceTimersByTime(500);
    expect(flags).toEqual([]);
    rss = LARGE_RUN_BYTES;
    vi.advanceTimersByTime(50);
    expect(flags).toEqual(['--heap-growing-percent=30']);
    vi.advanceTimersByTime(500);
    expect(flags).toHaveLength(1);
  });
});
