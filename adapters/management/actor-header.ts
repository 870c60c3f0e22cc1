import type { Actor } from '../../application/use-cases/actor.js';
import { viaPlatformToken } from '../../domain/service-key/key-event.js';
import { ACTOR_MAX_LENGTH, checkActor } from '../../domain/service-key/actor.js';
import { ProblemCollector } from '../../domain/shared/domain-error.js';
import { validationProblem, type ProblemItem } from '../http/problem.js';
import { callerOf } from './management-gatekeeper.middleware.js';
import type { ManagementContext } from './management-state.js';

export const ACTOR_HEADER = 'X-Actor';

/**
 * A problem with a request header. Like a query parameter's (`{ pointer: "/limit", parameter: "limit" }`), the
 * pointer treats the headers as an object of their names, so that clients can read `pointer` on every 400,
 * and `header` says plainly which header is meant.
 */
export interface HeaderProblemItem extends ProblemItem {
  readonly header: string;
}

/** Header values are bytes; only visible ASCII and spaces pass, so that every client sends the same text for the same actor. */
const ASCII_TEXT = /^[\x20-\x7e]*$/;

/**
 * The platform user acting, from X-Actor: required on every route but the OpenAPI document, 1 to
 * ACTOR_MAX_LENGTH characters without control characters (the domain's rule). The value is percent-decoded
 * as UTF-8, as encodeURIComponent writes it: a header carries no reliable charset, and browsers' and Node's
 * fetch refuse characters beyond Latin-1. Plain ASCII passes unchanged, but for `%` itself (send `%25`).
 * Checked before the query and the body are read; `via` names the platform token that sent it.
 */
export function actorOf(ctx: ManagementContext): Actor {
  const caller = callerOf(ctx);
  const values = ctx.req.headersDistinct[ACTOR_HEADER.toLowerCase()] ?? [];
  const problem = (message: string) => validationProblem(`The ${ACTOR_HEADER} header is invalid.`, [headerProblem(message)]);
  if (values.length > 1) throw problem('must be given once');
  const raw = values[0] ?? '';
  if (raw === '') throw problem(`is required: name the platform user who acts, 1 to ${ACTOR_MAX_LENGTH} characters`);
  if (!ASCII_TEXT.test(raw)) throw problem('must be visible ASCII: percent-encode other characters as UTF-8, as encodeURIComponent does');
  let name: string;
  try {
    name = decodeURIComponent(raw);
  } catch {
    throw problem('is not valid percent-encoded UTF-8 (send a % itself as %25)');
  }
  const problems = new ProblemCollector();
  checkActor(problems, '', name);
  if (problems.problems.length > 0) {
    throw validationProblem(`The ${ACTOR_HEADER} header is invalid.`, problems.problems.map(({ message }) => headerProblem(message)));
  }
  return { name, via: viaPlatformToken(caller.tokenId) };
}

function headerProblem(message: string): HeaderProblemItem {
  return { pointer: `/${ACTOR_HEADER}`, header: ACTOR_HEADER, message };
}
