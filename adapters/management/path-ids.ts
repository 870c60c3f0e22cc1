import { NotFoundError } from '../../domain/shared/domain-error.js';
import { KEY_ID_PATTERN } from './schemas/management-response.schema.js';

/** A routed request's path parameters, as @koa/router decodes them. */
interface Routed {
  readonly params: Readonly<Record<string, string | undefined>>;
}

/**
 * Ids are made by the service (company ids by its IdGenerator, key ids 12 base62 characters): an id of
 * another form names nothing, and is answered with the same 404 as an unknown one without asking a store
 * (which could choke on it: PostgreSQL's text refuses U+0000).
 */
const COMPANY_ID = /^[\x21-\x7e]{1,64}$/;
const KEY_ID = new RegExp(KEY_ID_PATTERN);

/** Whether `text` could be a company id of ours. */
export function isCompanyId(text: string): boolean {
  return COMPANY_ID.test(text);
}

export function companyIdOf(ctx: Routed): string {
  const companyId = String(ctx.params.companyId ?? '');
  if (!isCompanyId(companyId)) throw new NotFoundError('company', `Company ${companyId} not found.`);
  return companyId;
}

export function keyIdOf(ctx: Routed): string {
  const keyId = String(ctx.params.keyId ?? '');
  if (!KEY_ID.test(keyId)) throw new NotFoundError('service key', `Service key ${keyId} not found.`);
  return keyId;
}
