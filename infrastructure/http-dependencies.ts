import type { Container } from 'inversify';
import type { HttpDependencies } from '../adapters/http/http-dependencies.js';
import { createMemoryRateLimiter } from '../adapters/rate-limit/flexible-rate-limiter.js';
import type { RateLimiter } from '../adapters/rate-limit/rate-limiter.js';
import type { AppConfig } from './config.js';
import { CONFIG, LOGGER, READINESS } from './container/infrastructure.tokens.js';
import { resolve } from './container/typed-binding.js';
import { USE_CASES } from './container/use-case.tokens.js';

/** Hands the HTTP adapter what it needs from the container; the adapter itself knows no container. */
export function httpDependencies(container: Container): HttpDependencies {
  const config = resolve(container, CONFIG);
  return {
    listVacancies: resolve(container, USE_CASES.listVacancies),
    listCandidates: resolve(container, USE_CASES.listCandidates),
    submitApplication: resolve(container, USE_CASES.submitApplication),
    authenticateKey: resolve(container, USE_CASES.authenticateKey),
    rateLimiter: rateLimiterFor(config),
    logger: resolve(container, LOGGER),
    readiness: resolve(container, READINESS),
    settings: {
      rateLimitPoints: config.rateLimitPoints,
      rateLimitWindowS: config.rateLimitWindowS,
      publicBaseUrl: config.publicBaseUrl,
      region: config.region,
    },
  };
}

function rateLimiterFor(config: AppConfig): RateLimiter {
  const budget = { points: config.rateLimitPoints, windowS: config.rateLimitWindowS };
  switch (config.rateLimitStore) {
    case 'memory':
      return createMemoryRateLimiter(budget);
    default:
      throw new Error(`RATE_LIMIT_STORE=${config.rateLimitStore} is not available in this build yet; use memory.`);
  }
}
