import type { Problem, ProblemCode } from './types.js';

/** An error response of the API: its status and, when the body is a problem document, the problem. */
export class ApiError extends Error {
  override readonly name = 'ApiError';

  constructor(
    readonly status: number,
    /** The problem+json body; null when the body was something else (a proxy's page, say). */
    readonly problem: Problem | null,
    /** X-Request-Id of the response: quote it when you report a problem. */
    readonly requestId: string | null,
    /** What Retry-After asked for, in milliseconds, when it was sent. */
    readonly retryAfterMs: number | null,
    /** How many attempts were made, retries included. */
    readonly attempts: number,
  ) {
    super(problem === null ? `HTTP ${status}` : `${status} ${problem.code}: ${problem.detail}`);
  }

  /** The stable code of the problem, e.g. validation_failed; null without a problem body. */
  get code(): ProblemCode | null {
    return this.problem?.code ?? null;
  }
}

/** The API could not be reached (refused, reset, timed out), after every attempt allowed. */
export class NetworkError extends Error {
  override readonly name = 'NetworkError';

  constructor(
    message: string,
    readonly attempts: number,
    options: { cause: unknown },
  ) {
    super(message, options);
  }
}

/**
 * The API answered with a redirect, which the client never follows: fetch would carry X-API-Key to the
 * redirect's target, whatever its origin (it drops only Authorization across origins). The API itself
 * never redirects, so a redirect means a base URL that points elsewhere (http for https, an old host, a
 * proxy's login page): fix the base URL. Not retried.
 */
export class RedirectError extends Error {
  override readonly name = 'RedirectError';

  constructor(
    message: string,
    /** The 3xx status; 0 where fetch hides redirects (in a browser). */
    readonly status: number,
    /** The Location header as sent; null when there was none or fetch hides it. */
    readonly location: string | null,
  ) {
    super(message);
  }
}

/** Reads a response body as a problem document when it is one. */
export function problemOf(contentType: string | null, text: string): Problem | null {
  if (!/^application\/problem\+json\b/i.test(contentType ?? '')) return null;
  try {
    const body: unknown = JSON.parse(text);
    if (typeof body === 'object' && body !== null && typeof (body as { code?: unknown }).code === 'string') return body as Problem;
  } catch {
    // Not JSON after all: no problem document to show.
  }
  return null;
}
