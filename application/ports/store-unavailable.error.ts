import { DomainError } from '../../domain/shared/domain-error.js';

/**
 * Part of every persistence port's contract: the store cannot be reached right now (the database is
 * down, restarting, unreachable, or too slow to answer within its timeouts). It says nothing about the
 * request, which may succeed when retried; adapters raise it for connection-level failures only, never
 * for a problem of the data. It lives beside the ports rather than in domain/ because it is no rule of
 * the business: the domain knows nothing of stores.
 */
export class StoreUnavailableError extends DomainError {
  readonly code = 'service_unavailable';

  /**
   * @param reason what failed, as a code safe to log (`ECONNREFUSED`, `57P01`, `pool_timeout`, ...): never
   *   the driver's message, which may quote SQL with the request's data in it.
   */
  /**
   * True when the database answered but ended this work's statement or transaction (a statement or idle
   * timeout): other work may go through meanwhile. False when the database itself cannot be reached.
   */
  readonly workOnly: boolean;

  constructor(
    readonly reason: string,
    options: { cause?: unknown; workOnly?: boolean } = {},
  ) {
    super('The service cannot reach its database right now. Retry after the time given in Retry-After.', { cause: options.cause });
    this.name = 'StoreUnavailableError';
    this.workOnly = options.workOnly ?? false;
  }
}
