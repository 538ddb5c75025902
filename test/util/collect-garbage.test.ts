/** The collection a run makes once it has parsed a large answer: it collects, and leaves `gc` exposed nowhere. */
import vm from 'node:vm';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { collectGarbage } from '../../src/util/collect-garbage.js';

describe('collectGarbage', () => {
  it('collects what nothing holds any more', async () => {
    // Made in an earlier turn: a WeakRef keeps its target for the rest of the turn it was made in.
    const weak = new WeakRef({ payload: 'x'.repeat(1 << 20) });
    await nextTurn();
    collectGarbage();
    expect(weak.deref()).toBeUndefined();
  });

  it('exposes gc neither to the caller nor to a context made later', () => {
    const before = typeof (globalThis as { gc?: unknown }).gc;
    collectGarbage();
    expect(typeof (globalThis as { gc?: unknown }).gc).toBe(before);
    expect(vm.runInNewContext('typeof gc')).toBe('undefined');
  });
});
