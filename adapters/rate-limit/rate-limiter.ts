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
 * depends on this alone, so that the memory store used now and a shared PostgreSQL or Redis store
 * later are interchangeable. Errors of the store are thrown, not swallowed.
 */
export interface RateLimiter {
  consume(bucket: string): Promise<RateLimitOutcome>;
}
