import type { Clock } from '../../application/ports/clock.port.js';

/**
 * A clock that moves 1 ms at every reading, so that every write is stamped strictly later than the one
 * before (as on a real machine, but deterministic), and that a test can move forward by hand.
 */
export class TickingClock implements Clock {
  private current: number;

  constructor(start: Date = new Date('2026-11-01T10:00:00.000Z')) {
    this.current = start.getTime();
  }

  now(): Date {
    const reading = new Date(this.current);
    this.current += 1;
    return reading;
  }

  /** The moment the next reading will give, without taking it. */
  peek(): Date {
    return new Date(this.current);
  }

  advance(ms: number): void {
    this.current += ms;
  }
}
