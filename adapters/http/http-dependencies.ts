import type { Logger } from 'pino';
import type { AuthenticateKey } from '../../application/use-cases/authenticate-key.use-case.js';
import type { ListCandidates } from '../../application/use-cases/list-candidates.use-case.js';
import type { ListVacancies } from '../../application/use-cases/list-vacancies.use-case.js';
import type { SubmitApplication } from '../../application/use-cases/submit-application.use-case.js';
import type { RateLimiter } from '../rate-limit/rate-limiter.js';
import type { HttpMetrics } from './metrics/http-metrics.js';
import type { TracingSettings } from './server-span.middleware.js';

export interface HttpSettings {
  /** The budget the rate limiter enforces; echoed in RateLimit-Policy, so build the limiter from the same numbers. */
  readonly rateLimitPoints: number;
  readonly rateLimitWindowS: number;
  /** The budget per window of conditional list requests (If-None-Match), the limiter's figure of notModifiedRateLimiter. */
  readonly notModifiedRateLimitPoints: number;
  /** `{base_url}` of this deployment, ending in `/api`; the OpenAPI document's server. */
  readonly publicBaseUrl: string;
  readonly region: string;
  /** How many proxies stand in front: the client address is the X-Forwarded-For entry that many hops from the right. Default 0. */
  readonly trustProxy?: number;
}

/** Everything the HTTP adapter needs, handed over by the composition root: no container in here. */
export interface HttpDependencies {
  readonly listVacancies: Pick<ListVacancies, 'execute'>;
  readonly listCandidates: Pick<ListCandidates, 'execute'>;
  /** The identifier-only pages (`fields=id`), of the same use cases. */
  readonly listVacancyIds: Pick<ListVacancies, 'executeIds'>;
  readonly listCandidateIds: Pick<ListCandidates, 'executeIds'>;
  readonly submitApplication: Pick<SubmitApplication, 'execute'>;
  readonly authenticateKey: Pick<AuthenticateKey, 'execute'>;
  /** `peek` before a key id not seen is looked up in the registry (the gatekeeper), `consume` for every request. */
  readonly rateLimiter: Pick<RateLimiter, 'consume' | 'peek'>;
  /**
   * The budget of conditional list requests (If-None-Match), per key and window: each spends a point of it, and only one
   * that is not answered 304 also spends a point of rateLimiter's.
   */
  readonly notModifiedRateLimiter: Pick<RateLimiter, 'consume'>;
  readonly logger: Logger;
  /** Whether the stores answer; /readyz reports it. */
  readonly readiness: () => Promise<boolean>;
  /** Whether the process is stopping (SIGTERM): /readyz answers 503 from then on, while requests are still served. */
  readonly stopping: () => boolean;
  /** Present when metrics are on (METRICS=on): requests are counted, for the metrics listener's GET /metrics. */
  readonly metrics?: HttpMetrics | undefined;
  /** Present when tracing is on (OTEL_*): each request's span gets its route, region and company. */
  readonly tracing?: TracingSettings | undefined;
  readonly settings: HttpSettings;
}
