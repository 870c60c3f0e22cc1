import { addressGroupOf } from '../rate-limit/address-group.js';
import { MANAGEMENT_ROOT } from './management-state.js';
import { isCompanyId } from './path-ids.js';

/** The company a path names, undecoded: `/internal/v1/companies/{companyId}` and everything under it. */
const COMPANY_PATH = new RegExp(`^${MANAGEMENT_ROOT}/companies/([^/]+)(?:/|$)`);

/**
 * The bucket a request with a valid platform token spends. A company's routes spend the budget the token has
 * for that company, so that one company's busy page does not use up every other company's; POST /companies
 * and the rest spend the token's own. The id is decoded as the router decodes it, so that two spellings of one
 * company share a budget; a path whose id names no company (a 404 without a store read) spends the token's.
 */
export function tokenBucketOf(tokenId: string, path: string): string {
  const raw = COMPANY_PATH.exec(path)?.[1];
  const companyId = raw === undefined ? null : decoded(raw);
  const base = `platform-token:${tokenId}`;
  return companyId !== null && isCompanyId(companyId) ? `${base}:company:${companyId}` : base;
}

/**
 * The ceiling every request with a valid token spends besides its bucket above, whatever company it names: a
 * caller cannot multiply its budget by naming more companies (made-up ones are a 404, and spend it too).
 */
export function tokenCeilingBucketOf(tokenId: string): string {
  return `platform-token-ceiling:${tokenId}`;
}

/** The bucket of a request without a valid token (none, a bad one, the OpenAPI document): its client address's (an IPv6 address's /64). */
export function addressBucketOf(ip: string): string {
  return `management-address:${addressGroupOf(ip)}`;
}

/** As @koa/router decodes a path parameter: text that is not valid percent-encoding stays as it is. */
function decoded(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}
