import type { Middleware } from 'koa';
import type { Logger } from 'pino';
import { StoreUnavailableError } from '../../application/ports/store-unavailable.error.js';
import { API_KEY_CHALLENGE, mapError } from './error-mapping.js';
import { loggableError } from './loggable-error.js';
import type { HttpState } from './http-state.js';
import { PROBLEM_CONTENT_TYPE, problemType, type ProblemDocument } from './problem.js';

/**
 * The one place where errors become responses. Headers set before the error (X-Request-Id, RateLimit,
 * Retry-After, Allow, Cache-Control) are kept; the body is replaced by a problem document. A problem
 * that passes by itself (the database does not answer) adds its own Retry-After; a 401, the challenge of its
 * listener (`challenge`: the service key's by default, the platform token's on the management listener, which
 * depends on what the request presented).
 */
export function errorMiddleware<S extends HttpState = HttpState>(logger: Logger, challenge: string | ((state: S) => string) = API_KEY_CHALLENGE): Middleware<S> {
  const challengeOf = typeof challenge === 'string' ? () => challenge : challenge;
  return async (ctx, next) => {
    try {
      await next();
    } catch (error) {
      const { problem, expected } = mapError(error);
      if (!expected) logger.error({ err: loggableError(error), requestId: ctx.state.requestId }, 'unexpected error');
      // The reason only (a code such as ECONNREFUSED or 57P01): the driver's message may quote the SQL and its data.
      if (error instanceof StoreUnavailableError) logger.warn({ requestId: ctx.state.requestId, reason: error.reason }, 'the database does not answer');
      if (problem.retryAfterS !== undefined) ctx.set('Retry-After', String(problem.retryAfterS));
      if (problem.status === 401) ctx.set('WWW-Authenticate', challengeOf(ctx.state));
      const document: ProblemDocument = {
        type: problemType(problem.code),
        title: problem.title,
        status: problem.status,
        code: problem.code,
        detail: problem.detail,
        requestId: ctx.state.requestId,
        ...(problem.errors === undefined ? {} : { errors: problem.errors }),
      };
      ctx.state.problemCode = problem.code;
      ctx.status = problem.status;
      ctx.type = PROBLEM_CONTENT_TYPE;
      ctx.body = JSON.stringify(document);
    }
  };
}
