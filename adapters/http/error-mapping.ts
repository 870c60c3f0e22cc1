import { ConcurrentKeyChangeError } from '../../application/ports/service-key-repository.port.js';
import { StoreUnavailableError } from '../../application/ports/store-unavailable.error.js';
import { TransferToOwnVacancyError } from '../../domain/candidate/transfer-errors.js';
import { InvalidCursorError } from '../../domain/paging/cursor.js';
import { PlatformForbiddenError } from '../../domain/platform-token/platform-access.js';
import { PlatformUnauthorizedError } from '../../domain/platform-token/platform-token.js';
import { ForbiddenError, KeyAlreadyRolledError, KeyNotActiveError, UnauthorizedError } from '../../domain/service-key/service-key.js';
import { ConflictError, DomainError, NotFoundError, ValidationError } from '../../domain/shared/domain-error.js';
import { HttpProblem, type ProblemItem } from './problem.js';

export type DomainErrorClass = abstract new (...args: never[]) => DomainError;

export interface ProblemMapping {
  readonly status: number;
  readonly title: string;
  /** Sent as Retry-After (whole seconds): the failure is passing, and the request may be repeated as it was. */
  readonly retryAfterS?: number;
}

/**
 * Retry-After of a 503 for a store that does not answer: long enough for a database restart or a
 * failover to make progress, short enough that clients resume soon after. Fixed: the service cannot
 * know when its database will be back.
 */
export const STORE_UNAVAILABLE_RETRY_AFTER_S = 5;

/**
 * The challenge every 401 carries (RFC 9110 15.5.2 requires one): how to authenticate, not why it failed,
 * so that it is the same for a missing, unknown, revoked or expired key, like the body. `ApiKey` is the
 * scheme OpenAPI calls apiKey and `header` names where the key goes; no registered scheme fits (Bearer
 * would send clients to the Authorization header, which the service never reads).
 */
export const API_KEY_CHALLENGE = 'ApiKey header="X-API-Key"';

/**
 * Every error class of the domain, and the response it becomes. A test walks domain/ and fails when a
 * DomainError subclass is missing here, so that none falls through to a 500. StoreUnavailableError and
 * ConcurrentKeyChangeError are the ports' (application/ports), not the domain's; the first is the one 5xx
 * here, with its own test (tests/faults).
 */
export const DOMAIN_ERROR_MAPPINGS: ReadonlyMap<DomainErrorClass, ProblemMapping> = new Map<DomainErrorClass, ProblemMapping>([
  [ValidationError, { status: 400, title: 'Validation failed' }],
  [InvalidCursorError, { status: 400, title: 'Invalid cursor' }],
  [UnauthorizedError, { status: 401, title: 'Unauthorized' }],
  [ForbiddenError, { status: 403, title: 'Forbidden' }],
  [NotFoundError, { status: 404, title: 'Not found' }],
  [ConflictError, { status: 409, title: 'Conflict' }],
  [TransferToOwnVacancyError, { status: 409, title: 'Conflict' }],
  // The management API's (adapters/management), which shares this table: the public API raises none of them.
  [PlatformUnauthorizedError, { status: 401, title: 'Unauthorized' }],
  [PlatformForbiddenError, { status: 403, title: 'Forbidden' }],
  [KeyNotActiveError, { status: 409, title: 'Conflict' }],
  [KeyAlreadyRolledError, { status: 409, title: 'Conflict' }],
  [ConcurrentKeyChangeError, { status: 409, title: 'Conflict' }],
  [StoreUnavailableError, { status: 503, title: 'Service unavailable', retryAfterS: STORE_UNAVAILABLE_RETRY_AFTER_S }],
]);

/** The mapping of an error class: its own, or the nearest mapped ancestor's. */
export function mappingOf(errorClass: Function): ProblemMapping | undefined {
  for (let current: unknown = errorClass; typeof current === 'function'; current = Object.getPrototypeOf(current)) {
    const mapping = DOMAIN_ERROR_MAPPINGS.get(current as DomainErrorClass);
    if (mapping !== undefined) return mapping;
  }
  return undefined;
}

export interface MappedProblem {
  readonly status: number;
  readonly code: string;
  readonly title: string;
  readonly detail: string;
  readonly errors?: readonly ProblemItem[];
  readonly retryAfterS?: number;
}

const INTERNAL: MappedProblem = {
  status: 500,
  code: 'internal_error',
  title: 'Internal error',
  detail: 'An unexpected error occurred. Quote the requestId when you report it.',
};

/** The fields at fault: a validation's problems, or the cursor parameter of an invalid cursor. */
function fieldProblemsOf(error: DomainError): ProblemItem[] | undefined {
  if (error instanceof ValidationError) return error.problems.map(({ pointer, message }) => ({ pointer, message }));
  if (error instanceof InvalidCursorError) return [{ pointer: '/cursor', parameter: 'cursor', message: error.message }];
  return undefined;
}

/** What a thrown value becomes on the wire; `expected` is false for errors that are a defect of ours. */
export function mapError(error: unknown): { problem: MappedProblem; expected: boolean } {
  if (error instanceof HttpProblem) {
    const { status, code, title, detail, errors } = error;
    return { problem: { status, code, title, detail, ...(errors === undefined ? {} : { errors }) }, expected: true };
  }
  if (error instanceof DomainError) {
    const mapping = mappingOf(error.constructor);
    if (mapping === undefined) return { problem: INTERNAL, expected: false };
    const errors = fieldProblemsOf(error);
    return {
      problem: {
        status: mapping.status,
        code: error.code,
        title: mapping.title,
        detail: error instanceof NotFoundError ? notFoundDetail(error) : error.message,
        ...(errors === undefined ? {} : { errors }),
        ...(mapping.retryAfterS === undefined ? {} : { retryAfterS: mapping.retryAfterS }),
      },
      expected: true,
    };
  }
  return { problem: INTERNAL, expected: false };
}

/**
 * A 404's detail names what was not found, never the identifier asked for: one that belongs to another company
 * then reads byte for byte as one that does not exist, whichever two identifiers a caller compares (spec 4.3,
 * rule 5; DESIGN 3), and the caller has the identifier it sent. Named by a field of the body, the field is given.
 */
function notFoundDetail(error: NotFoundError): string {
  return `${error.resource.charAt(0).toUpperCase()}${error.resource.slice(1)} not found${error.pointer === undefined ? '' : ` (${error.pointer})`}.`;
}
