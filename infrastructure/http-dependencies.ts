import type { Container } from 'inversify';
import type { HttpDependencies } from '../adapters/http/http-dependencies.js';
import { CONFIG, LOGGER, READINESS, STOP_REQUEST } from './container/infrastructure.tokens.js';
import { RATE_LIMIT_STORE } from './container/rate-limit.module.js';
import { resolve } from './container/typed-binding.js';
import { USE_CASES } from './container/use-case.tokens.js';
import { httpMetricsFor } from './http-metrics.js';
import { tracedUseCase } from './telemetry/traced-use-case.js';
import { requestTracing } from './telemetry/tracing.js';

/**
 * Hands the HTTP adapter what it needs from the container; the adapter itself knows no container.
 * With a shared rate-limit store (postgres, redis), use `openHttpDependencies`, which opens it first.
 */
export function httpDependencies(container: Container): HttpDependencies {
  const config = resolve(container, CONFIG);
  const stopRequest = resolve(container, STOP_REQUEST);
  return {
    listVacancies: tracedUseCase('listVacancies', resolve(container, USE_CASES.listVacancies)),
    listCandidates: tracedUseCase('listCandidates', resolve(container, USE_CASES.listCandidates)),
    listVacancyIds: { executeIds: tracedUseCase('listVacancyIds', idsOf(resolve(container, USE_CASES.listVacancies))).execute },
    listCandidateIds: { executeIds: tracedUseCase('listCandidateIds', idsOf(resolve(container, USE_CASES.listCandidates))).execute },
    submitApplication: tracedUseCase('submitApplication', resolve(container, USE_CASES.submitApplication)),
    authenticateKey: tracedUseCase('authenticateKey', resolve(container, USE_CASES.authenticateKey)),
    rateLimiter: resolve(container, RATE_LIMIT_STORE).limiter,
    notModifiedRateLimiter: resolve(container, RATE_LIMIT_STORE).limiterFor(config.notModifiedRateLimitPoints),
    logger: resolve(container, LOGGER),
    readiness: resolve(container, READINESS),
    stopping: () => stopRequest.isRequested,
    metrics: httpMetricsFor(container),
    tracing: requestTracing(config.region),
    settings: {
      rateLimitPoints: config.rateLimitPoints,
      rateLimitWindowS: config.rateLimitWindowS,
      notModifiedRateLimitPoints: config.notModifiedRateLimitPoints,
      publicBaseUrl: config.publicBaseUrl,
      region: config.region,
      trustProxy: config.trustProxy,
    },
  };
}

/** As httpDependencies, after opening the rate-limit store (a pool and its table, or a Redis connection). */
export async function openHttpDependencies(container: Container): Promise<HttpDependencies> {
  await container.getAsync(RATE_LIMIT_STORE);
  return httpDependencies(container);
}

/** A list use case's identifier pass as a use case of its own, for its span. */
function idsOf<C, R>(useCase: { executeIds(command: C): Promise<R> }): { execute(command: C): Promise<R> } {
  return { execute: (command) => useCase.executeIds(command) };
}
