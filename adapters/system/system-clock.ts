import type { Clock } from '../../application/ports/clock.port.js';

/**
 * The wall clock, made monotonic within the process: a step back of the system time must not stamp
 * a later write earlier than an earlier one, or a sync client could miss it.
 */
export class SystemClock implements Clock {
  private last = 0;

  now(): Date {
    const current = Math.max(Date.now(), this.last);
    this.last = current;
    return new Date(current);
  }
}
