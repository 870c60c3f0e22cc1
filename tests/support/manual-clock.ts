import type { Clock } from '../../application/ports/clock.port.js';
import { T0 } from './builders.js';

/** A clock the test moves by hand. */
export class ManualClock implements Clock {
  private current: number;

  constructor(start: Date = T0) {
    this.current = start.getTime();
  }

  now(): Date {
    return new Date(this.current);
  }

  advance(ms: number): Date {
    this.current += ms;
    return this.now();
  }

  set(to: Date): void {
    this.current = to.getTime();
  }
}
