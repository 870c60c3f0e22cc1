import type { Redis } from 'ioredis';
import { RateLimiterRedis } from 'rate-limiter-flexible';
import { budgetOptions } from './flexible-rate-limiter.js';
import type { RateLimiter } from './rate-limiter.js';
import { StoreOutageGuard, type SharedStoreOptions } from './store-outage-guard.js';

export interface RedisRateLimiterOptions extends SharedStoreOptions {
  /** An ioredis client with `enableOfflineQueue: false`, so that a command fails at once while Redis is away. */
  readonly client: Redis;
}

/**
 * One budget for every instance on this Redis: a key per bucket, counted by the library's Lua script
 * (INCRBY with the window as the key's TTL). While the connection is not ready, requests go straight to
 * the per-process insurance instead of waiting for a reconnect.
 */
export function createRedisRateLimiter(options: RedisRateLimiterOptions): RateLimiter {
  const guard = new StoreOutageGuard(options);
  const limiter = new RateLimiterRedis({
    ...budgetOptions(options.budget),
    storeClient: options.client,
    rejectIfRedisNotReady: true,
    insuranceLimiter: guard.insurance(),
  });
  return guard.limiterOf(limiter);
}
