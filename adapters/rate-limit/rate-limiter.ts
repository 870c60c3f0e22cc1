/** What one request's consumption of its bucket decided. */
export interface RateLimitOutcome {
  readonly allowed: boolean;
  /** Requests left in the current window, never negative. */
  readonly remaining: number;
  /** Time until the window resets and the budget is full again. */
  readonly resetAfterMs: number;
}

/**
 * A fixed budget of requests per window and bucket (a key id, or a client address). The HTTP adapter
 * depends on this alone, so that the memory store and the shared PostgreSQL and Redis stores are
 * interchangeable. A shared store's failure is absorbed by its per-process insurance; any error that
 * is left is thrown, not swallowed, so a request is never let through unlimited.
 */
export interface RateLimiter {
  consume(bucket: string): Promise<RateLimitOutcome>;
  /**
   * What `consume` would decide now, without spending anything: `allowed` is false once the budget of the
   * window is spent. One read of the store (a map lookup for the memory store); while a shared store fails,
   * its per-process insurance answers, as for `consume`.
   */
  peek(bucket: string): Promise<RateLimitOutcome>;
}
