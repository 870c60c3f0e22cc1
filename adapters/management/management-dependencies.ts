import type { Logger } from 'pino';
import type { AuthenticatePlatformToken } from '../../application/use-cases/authenticate-platform-token.use-case.js';
import type { CreateCompany } from '../../application/use-cases/create-company.use-case.js';
import type { GetCompany } from '../../application/use-cases/get-company.use-case.js';
import type { GetKey } from '../../application/use-cases/get-key.use-case.js';
import type { IssueKey } from '../../application/use-cases/issue-key.use-case.js';
import type { ListKeyEvents } from '../../application/use-cases/list-key-events.use-case.js';
import type { ListKeys } from '../../application/use-cases/list-keys.use-case.js';
import type { RevokeKey } from '../../application/use-cases/revoke-key.use-case.js';
import type { RollKey } from '../../application/use-cases/roll-key.use-case.js';
import type { TracingSettings } from '../http/server-span.middleware.js';
import type { RateLimiter } from '../rate-limit/rate-limiter.js';

export interface ManagementSettings {
  /** The budget the rate limiter enforces (the public API's numbers); echoed in RateLimit-Policy. */
  readonly rateLimitPoints: number;
  readonly rateLimitWindowS: number;
  /** A platform token's ceiling per window across all its buckets (MANAGEMENT_TOKEN_RATE_LIMIT_POINTS). */
  readonly tokenCeilingPoints: number;
}

/** Everything the management adapter needs, handed over by the composition root: use cases only, no repository. */
export interface ManagementDependencies {
  readonly authenticatePlatformToken: Pick<AuthenticatePlatformToken, 'execute'>;
  readonly createCompany: Pick<CreateCompany, 'execute'>;
  readonly getCompany: Pick<GetCompany, 'execute'>;
  readonly listKeys: Pick<ListKeys, 'execute'>;
  readonly getKey: Pick<GetKey, 'execute'>;
  readonly issueKey: Pick<IssueKey, 'execute'>;
  readonly revokeKey: Pick<RevokeKey, 'execute'>;
  readonly rollKey: Pick<RollKey, 'execute'>;
  readonly listKeyEvents: Pick<ListKeyEvents, 'execute'>;
  readonly rateLimiter: RateLimiter;
  /** The same store, with `tokenCeilingPoints` per window: a token's ceiling. */
  readonly tokenCeilingLimiter: Pick<RateLimiter, 'consume'>;
  readonly logger: Logger;
  /** Present when tracing is on (OTEL_*): each request's span gets its route, region and company. */
  readonly tracing?: TracingSettings | undefined;
  readonly settings: ManagementSettings;
}
