import type { Container } from 'inversify';
import type { ManagementDependencies } from '../adapters/management/management-dependencies.js';
import { CONFIG, LOGGER } from './container/infrastructure.tokens.js';
import { RATE_LIMIT_STORE } from './container/rate-limit.module.js';
import { resolve } from './container/typed-binding.js';
import { USE_CASES } from './container/use-case.tokens.js';
import { tracedUseCase } from './telemetry/traced-use-case.js';
import { requestTracing } from './telemetry/tracing.js';

/**
 * Hands the management adapter its use cases from the container (the adapter knows no container), and the
 * public API's rate limiter and budget: one store, with buckets of its own (see the adapter's gatekeeper).
 * With a shared rate-limit store, use `openManagementDependencies`, which opens it first.
 */
export function managementDependencies(container: Container): ManagementDependencies {
  const config = resolve(container, CONFIG);
  return {
    authenticatePlatformToken: tracedUseCase('authenticatePlatformToken', resolve(container, USE_CASES.authenticatePlatformToken)),
    createCompany: tracedUseCase('createCompany', resolve(container, USE_CASES.createCompany)),
    getCompany: tracedUseCase('getCompany', resolve(container, USE_CASES.getCompany)),
    listKeys: tracedUseCase('listKeys', resolve(container, USE_CASES.listKeys)),
    getKey: tracedUseCase('getKey', resolve(container, USE_CASES.getKey)),
    issueKey: tracedUseCase('issueKey', resolve(container, USE_CASES.issueKey)),
    revokeKey: tracedUseCase('revokeKey', resolve(container, USE_CASES.revokeKey)),
    rollKey: tracedUseCase('rollKey', resolve(container, USE_CASES.rollKey)),
    listKeyEvents: tracedUseCase('listKeyEvents', resolve(container, USE_CASES.listKeyEvents)),
    rateLimiter: resolve(container, RATE_LIMIT_STORE).limiter,
    tokenCeilingLimiter: resolve(container, RATE_LIMIT_STORE).limiterFor(config.managementTokenRateLimitPoints),
    logger: resolve(container, LOGGER),
    tracing: requestTracing(config.region),
    settings: { rateLimitPoints: config.rateLimitPoints, rateLimitWindowS: config.rateLimitWindowS, tokenCeilingPoints: config.managementTokenRateLimitPoints },
  };
}

/** As managementDependencies, after opening the rate-limit store (a pool and its table, or a Redis connection). */
export async function openManagementDependencies(container: Container): Promise<ManagementDependencies> {
  await container.getAsync(RATE_LIMIT_STORE);
  return managementDependencies(container);
}
