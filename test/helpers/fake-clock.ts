import type { ProgressClock } from '../../src/cli/progress.js';

interface Timer {
  due: number;
  /** Set for a repeating timer. */
  every?: number;
  fn: () => void;
  order: number;
}

/**
 * A clock the test moves by hand: `now()` starts at 0, and timers fire only inside `advance`, in
 * the order of their due times, each seeing `now()` at its due time. Nothing waits for real time,
 * so a test gives the same result on a slow machine as on a fast one.
 */
export class FakeClock implements ProgressClock {
  #now = 0;
  #order = 0;
  #timers = new Set<Timer>();

  now(): number {
    return this.#now;
  }

  after(ms: number, fn: () => void): () => void {
    return this.#add({ due: this.#now + ms, fn, order: this.#order++ });
  }

  every(ms: number, fn: () => void): () => void {
    // A zero interval would fire forever within one advance.
    return this.#add({ due: this.#now + Math.max(1, ms), every: Math.max(1, ms), fn, order: this.#order++ });
  }

  /** How many timers are waiting. */
  get pending(): number {
    return this.#timers.size;
  }

  /** Moves time forward by `ms`, firing every timer that falls due on the way (also those due now). */
  advance(ms: number): void {
    const end = this.#now + ms;
    for (;;) {
      const next = [...this.#timers].filter((t) => t.due <= end).sort((a, b) => a.due - b.due || a.order - b.order)[0];
      if (next === undefined) break;
      this.#now = next.due;
      if (next.every === undefined) this.#timers.delete(next);
      else next.due += next.every;
      next.fn();
    }
    this.#now = end;
  }

  #add(timer: Timer): () => void {
    this.#timers.add(timer);
    return () => void this.#timers.delete(timer);
  }
}
