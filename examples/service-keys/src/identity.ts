import { checkActor } from '../../../domain/service-key/actor.js';
import { ProblemCollector } from '../../../domain/shared/domain-error.js';
import type { CallerContext } from './management-client.js';

/**
 * Who is acting, and for which company. Two ways, chosen by SERVICE_KEYS_IDENTITY:
 *
 * - `config` (the default): one company and one platform user for every request, from SERVICE_KEYS_COMPANY_ID
 *   and SERVICE_KEYS_ACTOR. For running the example next to the API, or a page that only an administrator
 *   reaches through the platform's own sign-in.
 * - `headers`: the platform embeds the page through its reverse proxy, which signs its user in and sets
 *   `X-Platform-Company` and `X-Platform-User` on every request (replacing whatever the browser sent), the
 *   user percent-encoded as UTF-8 (encodeURIComponent), as the management API takes X-Actor. The page trusts
 *   them, so it must listen only where the proxy reaches it; a request without them is answered 401 and
 *   nothing is called.
 *
 * Either way the user is sent to the management API as `X-Actor`, and it is that API that records it.
 */
export type IdentitySource = { readonly kind: 'config'; readonly caller: CallerContext } | { readonly kind: 'headers' };

export const COMPANY_HEADER = 'x-platform-company';
export const USER_HEADER = 'x-platform-user';

const COMPANY_ID_MAX_LENGTH = 200;

/** `headers`: each header's values as sent (IncomingMessage.headersDistinct), so that a repeated one is refused. */
export function callerOf(source: IdentitySource, headers: Readonly<Record<string, readonly string[] | undefined>>): CallerContext | null {
  if (source.kind === 'config') return source.caller;
  const companyId = single(headers[COMPANY_HEADER]);
  const actor = decoded(single(headers[USER_HEADER]));
  if (companyId === null || actor === null) return null;
  if (!isActor(actor) || companyId.length > COMPANY_ID_MAX_LENGTH || !/^[\x21-\x7e]+$/.test(companyId)) return null;
  return { companyId, actor };
}

/**
 * What the management API takes as an actor: the domain's rule itself (1 to 200 characters; no control
 * characters, invisible format characters or line separators), and no spaces at either end.
 */
export function isActor(value: string): boolean {
  const problems = new ProblemCollector();
  checkActor(problems, '/actor', value);
  return problems.problems.length === 0 && value.trim() === value;
}

function decoded(value: string | null): string | null {
  if (value === null) return null;
  try {
    return decodeURIComponent(value);
  } catch {
    return null;
  }
}

function single(values: readonly string[] | undefined): string | null {
  if (values === undefined || values.length !== 1) return null;
  const text = values[0]?.trim();
  return text === undefined || text === '' ? null : text;
}
