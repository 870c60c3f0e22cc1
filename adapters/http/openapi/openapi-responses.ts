import { PROBLEM_CONTENT_TYPE, problemType } from '../problem.js';
import type { ProblemCode } from '../schemas/problem.schema.js';
import { ref } from '../schemas/schema-helpers.js';
import { failureHeaders, headerRef, limitedHeaders } from './openapi-headers.js';

/**
 * The error responses of the operations. Each status has its own problem schema (status and codes
 * pinned) and examples as the service really writes them; the headers are those the service sets on
 * that path through the middlewares (see the gatekeeper: the rate limit is counted before the key is
 * judged, so a 401 carries RateLimit headers too; a 500 may come before the limiter answered).
 */
type Headers = Record<string, object>;

interface ProblemExample {
  readonly summary: string;
  readonly code: ProblemCode;
  readonly title: string;
  readonly detail: string;
  readonly errors?: readonly { pointer: string; parameter?: string; message: string }[];
}

function problemExamples(status: number, examples: Record<string, ProblemExample>) {
  return Object.fromEntries(
    Object.entries(examples).map(([name, { summary, code, title, detail, errors }], index) => {
      const requestId = `0b8e6f2c-4d1a-4c3e-9f7b-${`${status}${index}`.padStart(12, '0')}`;
      return [name, { summary, value: { type: problemType(code), title, status, code, detail, requestId, ...(errors ? { errors } : {}) } }];
    }),
  );
}

function problemResponse(description: string, schema: object, status: number, examples: Record<string, ProblemExample>, headers: Headers) {
  return { description, headers, content: { [PROBLEM_CONTENT_TYPE]: { schema, examples: problemExamples(status, examples) } } };
}

const validation = (detail: string, errors: ProblemExample['errors']): ProblemExample => ({
  summary: 'The request failed validation',
  code: 'validation_failed',
  title: 'Validation failed',
  detail,
  errors,
});

const queryProblemExamples = {
  query: validation('The query string failed validation.', [
    { pointer: '/limit', parameter: 'limit', message: 'must be a whole number from 1 to 500' },
    { pointer: '/since', parameter: 'since', message: 'must be an RFC 3339 date-time with a time zone, or a date YYYY-MM-DD' },
  ]),
  unknown: {
    summary: 'A parameter the operation does not take',
    code: 'validation_failed',
    title: 'Validation failed',
    detail: 'The query string failed validation.',
    errors: [{ pointer: '/stauts', parameter: 'stauts', message: 'is not a parameter of this operation, which takes since, limit, cursor, status' }],
  },
  cursor: {
    summary: 'A cursor of another query',
    code: 'invalid_cursor',
    title: 'Invalid cursor',
    detail: 'The cursor belongs to another query: keep since, status, vacancyId and fields as they were on the first page.',
    errors: [{ pointer: '/cursor', parameter: 'cursor', message: 'The cursor belongs to another query: keep since, status, vacancyId and fields as they were on the first page.' }],
  },
} satisfies Record<string, ProblemExample>;

const bodyProblemExamples = {
  body: validation('The request body failed validation.', [
    { pointer: '/externalId', message: 'must not be empty' },
    { pointer: '/candidate/name', message: 'must not be blank' },
    { pointer: '/candidate/email', message: 'must be an e-mail address' },
  ]),
  malformed: validation('The request body is not valid JSON.', [{ pointer: '', message: 'must be valid JSON' }]),
  query: {
    summary: 'A query parameter, which this operation does not take',
    code: 'validation_failed',
    title: 'Validation failed',
    detail: 'The query string failed validation.',
    errors: [{ pointer: '/dryRun', parameter: 'dryRun', message: 'is not a parameter: this operation takes none' }],
  },
} satisfies Record<string, ProblemExample>;

export const responses = {
  badQuery: () =>
    problemResponse(
      'The query failed validation (validation_failed, listing every problem, unknown parameters included), or the cursor is malformed or belongs to another query (invalid_cursor).',
      { oneOf: [ref('ValidationProblem'), ref('InvalidCursorProblem')] },
      400,
      queryProblemExamples,
      limitedHeaders,
    ),

  badBody: () =>
    problemResponse(
      'The body failed validation, or is not valid JSON; errors lists every problem. Or a query parameter was sent (the operation takes none): errors names each.',
      ref('ValidationProblem'),
      400,
      bodyProblemExamples,
      limitedHeaders,
    ),

  unauthorized: () =>
    problemResponse('The key is missing, malformed, unknown, revoked or expired; the body is the same in every case.', ref('UnauthorizedProblem'), 401, {
      unauthorized: { summary: 'No valid key', code: 'unauthorized', title: 'Unauthorized', detail: 'A valid service key is required in the X-API-Key header.' },
    }, { ...limitedHeaders, 'WWW-Authenticate': headerRef('ApiKeyChallenge') }),

  forbidden: (scope: string) =>
    problemResponse(`The key lacks the scope ${scope}.`, ref('ForbiddenProblem'), 403, {
      forbidden: { summary: 'A key without the scope', code: 'forbidden', title: 'Forbidden', detail: `The service key lacks the scope ${scope}.` },
    }, limitedHeaders),

  vacancyNotFound: () =>
    problemResponse('The vacancy does not exist or belongs to another company: one response for both, so that foreign ids cannot be probed.', ref('NotFoundProblem'), 404, {
      notFound: { summary: 'An unknown vacancy', code: 'not_found', title: 'Not found', detail: 'Vacancy not found (/vacancyId).' },
    }, limitedHeaders),

  payloadTooLarge: (limitBytes: number) =>
    problemResponse(`The body is larger than ${limitBytes} bytes (counted after any Content-Encoding is undone).`, ref('PayloadTooLargeProblem'), 413, {
      tooLarge: { summary: 'A body over the limit', code: 'payload_too_large', title: 'Payload too large', detail: `The request body is larger than ${limitBytes} bytes.` },
    }, limitedHeaders),

  unsupportedMediaType: () =>
    problemResponse('The body is not sent as Content-Type: application/json (UTF-8).', ref('UnsupportedMediaTypeProblem'), 415, {
      mediaType: {
        summary: 'A form post',
        code: 'unsupported_media_type',
        title: 'Unsupported media type',
        detail: 'The request body must be JSON, sent with Content-Type: application/json (UTF-8).',
      },
    }, limitedHeaders),

  rateLimited: (points: number, windowS: number) =>
    problemResponse('The request budget is spent. Wait Retry-After seconds; every operation of the key shares the budget.', ref('RateLimitedProblem'), 429, {
      rateLimited: {
        summary: 'Too many requests',
        code: 'rate_limited',
        title: 'Too many requests',
        detail: `The request budget of ${points} requests per ${windowS} s is spent. Retry after the time given in Retry-After.`,
      },
    }, { ...limitedHeaders, 'Retry-After': headerRef('RetryAfter') }),

  serviceUnavailable: () =>
    problemResponse('The service cannot reach its database right now. Retry after Retry-After seconds: the request may be repeated as it was.', ref('ServiceUnavailableProblem'), 503, {
      unavailable: {
        summary: 'The database does not answer',
        code: 'service_unavailable',
        title: 'Service unavailable',
        detail: 'The service cannot reach its database right now. Retry after the time given in Retry-After.',
      },
    }, { ...failureHeaders, 'Retry-After': headerRef('RetryAfter') }),

  internalError: () =>
    problemResponse('An unexpected error on our side; it is logged with the request id. Safe to retry later: every operation is idempotent.', ref('InternalErrorProblem'), 500, {
      internal: { summary: 'An unexpected error', code: 'internal_error', title: 'Internal error', detail: 'An unexpected error occurred. Quote the requestId when you report it.' },
    }, failureHeaders),
};
