import { API_KEY_CHALLENGE } from '../error-mapping.js';

/**
 * The headers of the API as OpenAPI header objects (DESIGN 3: Request id, Rate limit, No lost changes,
 * Repeated externalId, Personal data). The patterns are the exact wire forms the service writes.
 */
export const headerComponents = {
  RequestId: {
    description: "The client's X-Request-Id when it was 1..128 visible ASCII characters, otherwise a generated UUID. Also in every error body and log line.",
    required: true,
    schema: { type: 'string', pattern: '^[!-~]{1,128}$' },
    example: '5f0c2a1e-93b7-4d8e-a1c4-6b2f0e7d9a31',
  },
  RateLimitPolicy: {
    description:
      'IETF draft RateLimit headers: the budget of the key (or of the client address, without a valid key), q requests per w seconds. ' +
      'A conditional list request (If-None-Match) names a second budget, "not-modified": its own budget of conditional requests.',
    required: true,
    schema: { type: 'string', pattern: '^"default";q=[0-9]+;w=[0-9]+(, "not-modified";q=[0-9]+;w=[0-9]+)?$' },
    example: '"default";q=600;w=60',
  },
  RateLimit: {
    description:
      'IETF draft RateLimit headers: r requests remain in the current window, which resets in t seconds; after a conditional list ' +
      'request, also what remains of the "not-modified" budget.',
    required: true,
    schema: { type: 'string', pattern: '^"default";r=[0-9]+;t=[0-9]+(, "not-modified";r=[0-9]+;t=[0-9]+)?$' },
    example: '"default";r=598;t=41',
  },
  RetryAfter: {
    description: 'Whole seconds to wait before the next request (at least 1).',
    required: true,
    schema: { type: 'integer', minimum: 1 },
    example: 17,
  },
  SyncWatermark: {
    description:
      'A safe since for the next sync run: every change this response could not see is stamped strictly later. Take it from the ' +
      'first page of a pass, before paging on, and use it as since once the pass has reached nextCursor null.',
    required: true,
    schema: { type: 'string', format: 'date-time', pattern: '^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}\\.[0-9]{3}Z$' },
    example: '2026-11-02T09:41:27.317Z',
  },
  ETag: {
    description:
      'A strong entity tag of this page: the SHA-256 of its bytes (marked -gzip or -br when the page was sent compressed). Send it ' +
      'back as If-None-Match to be answered 304 while the page is byte-identical.',
    required: true,
    schema: { type: 'string', pattern: '^"[A-Za-z0-9_-]{43}(-gzip|-br)?"$' },
    example: '"n4bQgYhMfWWaL-qgxVrQFaO_TxsrC4Is0V1sFbDwCgg"',
  },
  IdempotentReplayed: {
    description: 'The application repeats an earlier externalId: nothing was created or changed.',
    required: true,
    schema: { type: 'string', const: 'true' },
    example: 'true',
  },
  IdempotencyConflict: {
    description: 'Sent when this body differs from the first one with the same externalId: an externalId was probably reused by mistake. Nothing was changed.',
    required: false,
    schema: { type: 'string', const: 'body-differs' },
    example: 'body-differs',
  },
  ApiKeyChallenge: {
    description:
      'How to authenticate (RFC 9110): send the service key in the X-API-Key header. The same on every 401, whatever was wrong with the key.',
    required: true,
    schema: { type: 'string', const: API_KEY_CHALLENGE },
    example: API_KEY_CHALLENGE,
  },
  NoStore: {
    description:
      'No cache may keep any answer, success or error: each holds one company\'s data (candidates: personal data), or at least ' +
      'the request id and rate-limit state of one caller.',
    required: true,
    schema: { type: 'string', const: 'no-store' },
    example: 'no-store',
  },
};

export type HeaderName = keyof typeof headerComponents;

export const headerRef = (name: HeaderName) => ({ $ref: `#/components/headers/${name}` });

/** What every response behind the rate limiter carries. */
export const limitedHeaders = {
  'X-Request-Id': headerRef('RequestId'),
  'RateLimit-Policy': headerRef('RateLimitPolicy'),
  RateLimit: headerRef('RateLimit'),
  'Cache-Control': headerRef('NoStore'),
};

/** A header that a response of this status carries only on some paths (say, a failure before the limiter counted). */
export const sometimes = (name: HeaderName, when: string) => ({ ...headerComponents[name], required: false, description: `${headerComponents[name].description} Sent ${when}.` });

/** What a 5xx carries: the request id and Cache-Control always; the rate-limit headers once the limiter has counted the request. */
export const failureHeaders = {
  'X-Request-Id': headerRef('RequestId'),
  'Cache-Control': headerRef('NoStore'),
  'RateLimit-Policy': sometimes('RateLimitPolicy', 'when the failure came after the rate limiter counted the request'),
  RateLimit: sometimes('RateLimit', 'when the failure came after the rate limiter counted the request'),
};

/** If-None-Match on the list operations (RFC 9110 13.1.2). */
export const ifNoneMatchParameter = {
  name: 'If-None-Match',
  in: 'header',
  required: false,
  description:
    'The ETag of a page you hold (or several, separated by commas; * for any). While the page this request would get is ' +
    'byte-identical, the answer is 304 without a body, which spends a point of the "not-modified" budget instead of the ' +
    'request budget; otherwise the page, which spends both.',
  schema: { type: 'string' },
  example: '"n4bQgYhMfWWaL-qgxVrQFaO_TxsrC4Is0V1sFbDwCgg"',
};

/**
 * A request may name itself; the response echoes the id. Any value is taken (one that is not an id is replaced,
 * never refused), so the schema admits every string and the rule for echoing is in the description.
 */
export const requestIdParameter = {
  name: 'X-Request-Id',
  in: 'header',
  required: false,
  description:
    'An id of your own for this request. 1..128 visible ASCII characters (! to ~) are echoed in the response, its error body ' +
    'and our log; any other value is not refused but replaced by a generated UUID.',
  schema: { type: 'string' },
  example: 'portal-7f3a91c2',
};
