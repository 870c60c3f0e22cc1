import { RateLimiterMemory, RateLimiterRes, type RateLimiterAbstract } from 'rate-limiter-flexible';
import type { RateLimiter, RateLimitOutcome } from './rate-limiter.js';

export interface RateLimitBudget {
  /** Requests allowed per window. */
  readonly points: number;
  readonly windowS: number;
}

/** Prefix of every bucket in every store (and the default table name of the PostgreSQL store). */
export const RATE_LIMIT_KEY_PREFIX = 'integration-api';

/**
 * A RateLimiter on any store of rate-limiter-flexible. A store that is shared by several instances
 * (postgres, redis) gives them one budget; such a store gets an `insuranceLimiter` (see
 * shared-store-rate-limiter.ts) so that an outage of it degrades to per-process limits instead of failed
 * requests.
 */
export class FlexibleRateLimiter implements RateLimiter {
  constructor(private readonly limiter: Pick<RateLimiterAbstract, 'consume' | 'get' | 'points'>) {}

  async consume(bucket: string): Promise<RateLimitOutcome> {
    try {
      return outcomeOf(true, await this.limiter.consume(bucket, 1));
    } catch (rejection) {
      // The library rejects with a RateLimiterRes when the budget is spent, with an Error when its store failed.
      if (rejection instanceof RateLimiterRes) return outcomeOf(false, rejection);
      throw rejection;
    }
  }

  async peek(bucket: string): Promise<RateLimitOutcome> {
    const res = await this.limiter.get(bucket);
    // No record: nothing spent in a window that has not begun.
    if (res === null) return { allowed: true, remaining: this.limiter.points, resetAfterMs: 0 };
    const remaining = Math.max(0, this.limiter.points - res.consumedPoints);
    return { allowed: remaining > 0, remaining, resetAfterMs: Math.max(0, res.msBeforeNext) };
  }
}

function outcomeOf(allowed: boolean, res: RateLimiterRes): RateLimitOutcome {
  return {
    allowed,
    remaining: allowed ? Math.max(0, res.remainingPoints) : 0,
    resetAfterMs: Math.max(0, res.msBeforeNext),
  };
}

/** The library's options for a budget, common to every store. */
export function budgetOptions(budget: RateLimitBudget): { points: number; duration: number; keyPrefix: string } {
  return { points: budget.points, duration: budget.windowS, keyPrefix: RATE_LIMIT_KEY_PREFIX };
}

/** One process's budget: for a single instance, development and tests. */
export function createMemoryRateLimiter(budget: RateLimitBudget): RateLimiter {
  return new FlexibleRateLimiter(new RateLimiterMemory(budgetOptions(budget)));
}
