/** The collection a run makes once it has parsed a large answer: it collects, and leaves `gc` exposed nowhere. */
import vm from 'node:vm';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { garbageCollector } from '../../src/util/collect-garbage.js';

describe('garbageCollector', () => {
  it('full: collects what nothing holds any more', async () => {
    // Made in an earlier turn: a WeakRef keeps its target for the rest of the turn it was made in.
    const weak = new WeakRef({ payload: 'x'.repeat(1 << 20) });
    await nextTurn();
    garbageCollector().full();
    expect(weak.deref()).toBeUndefined();
  });

  it('young: leaves none of the large texts a render let go resident', () => {
    const collector = garbageCollector();
    collector.full();
    const before = process.memoryUsage().heapUsed;
    // Large strings, each made in V8's young large-object space and let go at once (how much
    // piles up before V8's own scavenge is its business; the bench's memory rows measure it).
    let length = 0;
    for (let i = 0; i < 40; i++) length += 'y'.repeat(500_000 + i).length;
    expect(length).toBeGreaterThan(20_000_000);
    collector.young();
    expect(process.memoryUsage().heapUsed - before).toBeLessThan(5_000_000);
  });

  it('exposes gc neither to the caller nor to a context made later', () => {
    const before = { own: typeof (globalThis as { gc?: unknown }).gc, later: vm.runInNewContext('typeof gc') as unknown };
    const collector = garbageCollector();
    collector.full();
    collector.young();
    expect({ own: typeof (globalThis as { gc?: unknown }).gc, later: vm.runInNewContext('typeof gc') as unknown }).toEqual(before);
  });

  it("uses the process's own gc when it has one (started with --expose-gc), flags untouched", () => {
    const host = globalThis as { gc?: unknown };
    const had = host.gc;
    const calls: unknown[] = [];
    host.gc = (options?: unknown) => void calls.push(options);
    try {
      const collector = garbageCollector();
      collector.full();
      collector.young();
      expect(calls).toEqual([undefined, { type: 'minor' }]);
      expect(vm.runInNewContext('typeof gc')).toBe('undefined');
    } finally {
      if (had === undefined) delete host.gc;
      else host.gc = had;
    }
  });
});
