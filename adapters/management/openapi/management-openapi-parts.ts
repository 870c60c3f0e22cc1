import { ACTOR_MAX_LENGTH } from '../../../domain/service-key/actor.js';
import { headerComponents, requestIdParameter } from '../../http/openapi/openapi-headers.js';
import { PROBLEM_CONTENT_TYPE, problemType } from '../../http/problem.js';
import { ref } from '../../http/schemas/schema-helpers.js';
import { INVALID_PLATFORM_TOKEN_CHALLENGE, MANAGEMENT_ROOT, PLATFORM_TOKEN_CHALLENGE } from '../management-state.js';
import type { ManagementProblemCode } from '../schemas/management-problem.schema.js';
import { KEY_ID_PATTERN } from '../schemas/management-response.schema.js';

/** The headers of the management API; the wire forms are the public API's (DESIGN 3), the budgets the token's. */
export const managementHeaders = {
  RequestId: headerComponents.RequestId,
  RateLimitPolicy: {
    ...headerComponents.RateLimitPolicy,
    description:
      'IETF draft RateLimit headers: q requests per w seconds, of the budget the request spent: the platform token\'s for the company ' +
      'in the path, the token\'s own for POST /companies, the client address\'s without a valid token; the token\'s ceiling ' +
      'across companies when that refused the request.',
  },
  RateLimit: headerComponents.RateLimit,
  RetryAfter: headerComponents.RetryAfter,
  NoStore: {
    ...headerComponents.NoStore,
    description: 'No cache may keep any answer: each names one request and one caller\'s budget, and a new key\'s secret is in one of them.',
  },
  BearerChallenge: {
    description:
      'How to authenticate (RFC 6750 3.1): a platform token as Authorization: Bearer pt_... With error="invalid_token" when the ' +
      'request sent a token (after the Bearer scheme) and it is malformed, unknown, wrong, revoked or expired, without an error when it ' +
      'sent none (no Authorization header, another scheme, or the scheme alone). It never says which way a token was wrong.',
    required: true,
    schema: { type: 'string', enum: [PLATFORM_TOKEN_CHALLENGE, INVALID_PLATFORM_TOKEN_CHALLENGE] },
    example: INVALID_PLATFORM_TOKEN_CHALLENGE,
  },
  Location: {
    description: 'Where what was created is read (GET), as an absolute path on this listener: the company, or the new key.',
    required: true,
    schema: { type: 'string', pattern: `^${MANAGEMENT_ROOT}/companies/` },
    example: `${MANAGEMENT_ROOT}/companies/019a98c0-5e00-7000-8a00-000000000001/keys/Q7rT2mZk9LpA`,
  },
};

type HeaderName = keyof typeof managementHeaders;
const headerRef = (name: HeaderName) => ({ $ref: `#/components/headers/${name}` });
const sometimes = (name: HeaderName, when: string) => ({ ...managementHeaders[name], required: false, description: `${managementHeaders[name].description} Sent ${when}.` });

/** What every answer behind the rate limiter carries. */
export const limitedHeaders = {
  'X-Request-Id': headerRef('RequestId'),
  'RateLimit-Policy': headerRef('RateLimitPolicy'),
  RateLimit: headerRef('RateLimit'),
  'Cache-Control': headerRef('NoStore'),
};

/** What a 201 carries. */
export const createdHeaders = { ...limitedHeaders, Location: headerRef('Location') };

/** A 5xx: the rate-limit headers only once the limiter has counted the request. */
const failureHeaders = {
  'X-Request-Id': headerRef('RequestId'),
  'Cache-Control': headerRef('NoStore'),
  'RateLimit-Policy': sometimes('RateLimitPolicy', 'when the failure came after the rate limiter counted the request'),
  RateLimit: sometimes('RateLimit', 'when the failure came after the rate limiter counted the request'),
};

export const managementParameters = {
  RequestId: requestIdParameter,
  Actor: {
    name: 'X-Actor',
    in: 'header',
    required: true,
    description:
      `The platform user on whose behalf the call is made: opaque to the service, kept in the key events and as createdBy or ` +
      `revokedBy. 1 to ${ACTOR_MAX_LENGTH} characters (after NFC normalisation) without control characters, invisible ` +
      'format characters (bidi controls, zero-width characters) or line separators, percent-encoded as UTF-8 the way ' +
      'encodeURIComponent writes it (header values carry no reliable charset): plain ASCII is sent as it is, but for % ' +
      'itself (%25). Required on every operation but this document; checked after the token and before the query and the body.',
    schema: { type: 'string', minLength: 1, pattern: '^[ -~]+$' },
    example: '%D0%90%D0%B9%D0%B3%D0%B5%D1%80%D0%B8%D0%BC%20%D0%9D.',
  },
  CompanyId: {
    name: 'companyId',
    in: 'path',
    required: true,
    description: 'The company, as POST /companies answered. An unknown id is a 404.',
    schema: { type: 'string', minLength: 1 },
    example: '019a98c0-5e00-7000-8a00-000000000001',
  },
  KeyId: {
    name: 'keyId',
    in: 'path',
    required: true,
    description: 'The key: its id, never the key itself. A key of another company is a 404, as an unknown one.',
    schema: { type: 'string', pattern: KEY_ID_PATTERN },
    example: 'Q7rT2mZk9LpA',
  },
};

export const parameterRef = (name: keyof typeof managementParameters) => ({ $ref: `#/components/parameters/${name}` });

interface ProblemExample {
  readonly summary: string;
  readonly code: ManagementProblemCode;
  readonly title: string;
  readonly detail: string;
  readonly errors?: readonly { pointer: string; parameter?: string; header?: string; message: string }[];
}

/** An error response whose examples are written as the service writes them (every field, a request id each). */
export function problemResponse(status: number, description: string, schema: object, examples: Record<string, ProblemExample>, headers: object = limitedHeaders) {
  const values = Object.entries(examples).map(([name, { summary, code, title, detail, errors }], index) => {
    const requestId = `7c1d2e3f-4a5b-4c6d-8e9f-${`${status}${index}`.padStart(12, '0')}`;
    return [name, { summary, value: { type: problemType(code), title, status, code, detail, requestId, ...(errors ? { errors } : {}) } }];
  });
  return { description, headers, content: { [PROBLEM_CONTENT_TYPE]: { schema, examples: Object.fromEntries(values) } } };
}

export const commonResponses = {
  unauthorized: () =>
    problemResponse(401, 'The platform token is missing, malformed, unknown, revoked or expired; the body is the same in every case, WWW-Authenticate says whether a token was sent.', ref('UnauthorizedProblem'), {
      unauthorized: { summary: 'No valid token', code: 'unauthorized', title: 'Unauthorized', detail: 'A valid platform token is required as "Authorization: Bearer pt_...".' },
    }, { ...limitedHeaders, 'WWW-Authenticate': headerRef('BearerChallenge') }),
  rateLimited: (points: number, windowS: number) =>
    problemResponse(429, 'The request budget is spent: the token\'s for this company (its own for POST /companies), its ceiling across companies, or the client address\'s without a valid token. An address that spent its budget is refused before its token is read, a valid one too. Wait Retry-After seconds.', ref('RateLimitedProblem'), {
      rateLimited: { summary: 'Too many requests', code: 'rate_limited', title: 'Too many requests', detail: `The request budget of ${points} requests per ${windowS} s is spent. Retry after the time given in Retry-After.` },
    }, { ...limitedHeaders, 'Retry-After': headerRef('RetryAfter') }),
  internalError: () =>
    problemResponse(500, 'An unexpected error on our side; it is logged with the request id.', ref('InternalErrorProblem'), {
      internal: { summary: 'An unexpected error', code: 'internal_error', title: 'Internal error', detail: 'An unexpected error occurred. Quote the requestId when you report it.' },
    }, failureHeaders),
  serviceUnavailable: () =>
    problemResponse(503, 'The key registry does not answer right now. Retry after Retry-After seconds: the request may be repeated as it was.', ref('ServiceUnavailableProblem'), {
      unavailable: { summary: 'The database does not answer', code: 'service_unavailable', title: 'Service unavailable', detail: 'The service cannot reach its database right now. Retry after the time given in Retry-After.' },
    }, { ...failureHeaders, 'Retry-After': headerRef('RetryAfter') }),
};
