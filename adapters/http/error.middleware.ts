import type { Logger } from 'pino';
import { mapError } from './error-mapping.js';
import type { HttpMiddleware } from './http-state.js';
import { PROBLEM_CONTENT_TYPE, problemType, type ProblemDocument } from './problem.js';

/**
 * The one place where errors become responses. Headers set before the error (X-Request-Id, RateLimit,
 * Retry-After, Allow, Cache-Control) are kept; the body is replaced by a problem document.
 */
export function errorMiddleware(logger: Logger): HttpMiddleware {
  return async (ctx, next) => {
    try {
      await next();
    } catch (error) {
      const { problem, expected } = mapError(error);
      if (!expected) logger.error({ err: error, requestId: ctx.state.requestId }, 'unexpected error');
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
