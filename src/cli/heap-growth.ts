/**
 * How the CLI lets V8's heap grow once a run is large (one of the tricks of start-up.ts): far
 * below its heap limit V8 lets the heap grow up to 4× past what a collection left live before it
 * collects again, and a run over a large listing leaves that much garbage at each step (the
 * answer's bytes, text and JSON, the lockfile's pieces, each module's text, the plan of
 * 100,000 types): its peak memory is then several times its live data. A large run grows its
 * heap by 20 % at a time instead. Only a large one: collecting more often costs a small run CPU
 * time (a 10,000-type cold pull ~7 %).
 */
import v8 from 'node:v8';

/**
 * When a run counts as large: its resident memory, the memory of its buffers (an answer of tens
 * of MB being read), or its heap (a listing of tens of thousands of types, parsed), past these.
 * A 10,000-type pull stays well below all three.
 */
export const LARGE_RUN = { rss: 320 * 1024 * 1024, arrayBuffers: 64 * 1024 * 1024, heapUsed: 128 * 1024 * 1024 };

/** The V8 flag a large run is given. */
export const SLOW_HEAP_GROWTH = '--heap-growing-percent=20';

/** What {@link growHeapSlowlyIfLarge} reads of a process's memory (`process.memoryUsage()`). */
export interface MemoryUsage {
  rss: number;
  arrayBuffers: number;
  heapUsed: number;
}

/** Sets {@link SLOW_HEAP_GROWTH} when `usage` says the run is large (see {@link LARGE_RUN}); gives whether it did. */
export function growHeapSlowlyIfLarge(usage: MemoryUsage = process.memoryUsage(), setFlag: (flag: string) => void = (flag) => v8.setFlagsFromString(flag)): boolean {
  const large = usage.rss >= LARGE_RUN.rss || usage.arrayBuffers >= LARGE_RUN.arrayBuffers || usage.heapUsed >= LARGE_RUN.heapUsed;
  if (large) setFlag(SLOW_HEAP_GROWTH);
  return large;
}

/**
 * Checks every `everyMs` (between the run's asynchronous steps, e.g. while an answer streams in)
 * until the run is large, then sets the flag. A timer never fires during the long synchronous
 * work of a large run (validating, planning, rendering), so the CLI checks at the end of each
 * stage too (`libraryHooks` in main.ts).
 */
export function growHeapSlowlyWhenLarge(usage: () => MemoryUsage, setFlag: (flag: string) => void, everyMs = 50): void {
  const timer = setInterval(() => {
    if (growHeapSlowlyIfLarge(usage(), setFlag)) clearInterval(timer);
  }, everyMs);
  timer.unref();
}
