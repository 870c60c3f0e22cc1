import { ContainerModule } from 'inversify';
import { portToken } from '../../application/ports/port-token.js';
import type { Databases } from '../database/open-databases.js';
import { memoryRateLimitStore, openSharedRateLimitStore, type RateLimitStore } from '../rate-limit-store.js';
import { CONFIG, LOGGER, POSTGRES_DATABASES } from './infrastructure.tokens.js';
import { bindPort, resolve } from './typed-binding.js';

/**
 * RATE_LIMIT_STORE's limiter. The memory store is built at once; a shared store opens asynchronously
 * (a pool and its table, or a Redis connection), so resolve it with `getAsync` first (startHttpServer
 * does); a plain `get` before that fails loudly instead of handing out a promise. Deactivation closes it.
 */
export const RATE_LIMIT_STORE = portToken<RateLimitStore>('RateLimitStore');

export const rateLimitModule = new ContainerModule(({ bind }) => {
  bindPort(bind, RATE_LIMIT_STORE)
    .toDynamicValue((ctx) => {
      const config = resolve(ctx, CONFIG);
      if (config.rateLimitStore === 'memory') return memoryRateLimitStore(config);
      // STORE=postgres knows the database it opened, the embedded server's included; STORE=memory has only DATABASE_URL.
      const databases = ctx.get<Databases>(POSTGRES_DATABASES, { optional: true });
      return openSharedRateLimitStore(config, { databaseUrl: databases?.businessUrl ?? config.databaseUrl, logger: resolve(ctx, LOGGER) });
    })
    .onDeactivation((store) => store.close());
});
