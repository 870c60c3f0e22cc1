import { DomainError } from '../shared/domain-error.js';
import type { PlatformScope } from './platform-scope.js';

/** What an authenticated platform token may do: its scopes, and the companies it is limited to (null: every one). */
export interface PlatformAccess {
  readonly scopes: readonly PlatformScope[];
  readonly companies: readonly string[] | null;
}

/** A call outside what the token may do; the message names what is missing, as the public API's 403 names the scope. */
export class PlatformForbiddenError extends DomainError {
  readonly code = 'forbidden';
  constructor(
    message: string,
    readonly missing: { readonly scope?: PlatformScope; readonly companyId?: string; readonly everyCompany?: true },
  ) {
    super(message);
    this.name = 'PlatformForbiddenError';
  }
}

/**
 * Where an operation acts: on one company (its id from the path), or on the platform as a whole (creating a
 * company, which a token limited to named companies cannot do: the new company would be outside its limit).
 */
export type PlatformTarget = { readonly companyId: string } | 'every-company';

/** Refuses the call unless the token has `scope` and reaches `target`; the scope is checked first. */
export function requirePlatformAccess(access: PlatformAccess, scope: PlatformScope, target: PlatformTarget): void {
  requirePlatformScope(access, scope);
  requirePlatformTarget(access, target);
}

export function requirePlatformScope(access: PlatformAccess, scope: PlatformScope): void {
  if (!access.scopes.includes(scope)) throw new PlatformForbiddenError(`The platform token lacks the scope ${scope}.`, { scope });
}

/** A token limited to companies reaches those only, whether another company exists or not (403, never 404). */
export function requirePlatformTarget(access: PlatformAccess, target: PlatformTarget): void {
  if (access.companies === null) return;
  if (target === 'every-company') {
    throw new PlatformForbiddenError('The platform token is limited to named companies; this operation needs a token for every company.', { everyCompany: true });
  }
  if (!access.companies.includes(target.companyId)) {
    throw new PlatformForbiddenError(`The platform token is not allowed for company ${target.companyId}.`, { companyId: target.companyId });
  }
}
