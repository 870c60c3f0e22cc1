import { requirePlatformScope, requirePlatformTarget } from '../../domain/platform-token/platform-access.js';
import type { PlatformScope } from '../../domain/platform-token/platform-scope.js';
import { callerOf } from './management-gatekeeper.middleware.js';
import type { ManagementContext } from './management-state.js';
import { companyIdOf } from './path-ids.js';

/**
 * The one scope each operation needs (ADR 17), by its OpenAPI operationId: the routes check it and the OpenAPI
 * document publishes it from this table. GET /platform-token (the caller's own token) needs none.
 */
export const OPERATION_SCOPES = {
  createCompany: 'companies:write',
  getCompany: 'companies:read',
  listKeys: 'keys:read',
  issueKey: 'keys:write',
  getKey: 'keys:read',
  revokeKey: 'keys:write',
  rollKey: 'keys:write',
  listKeyEvents: 'key-events:read',
} as const satisfies Record<string, PlatformScope>;

export type ScopedOperation = keyof typeof OPERATION_SCOPES;

/**
 * An operation on the company in the path: the scope first (403 naming it), then the id's form (a 404 without
 * a store read, as before), then the token's companies (403 naming the company). Returns the company id.
 */
export function authorizeForCompany(ctx: ManagementContext & Parameters<typeof companyIdOf>[0], operation: ScopedOperation): string {
  const caller = callerOf(ctx);
  requirePlatformScope(caller, OPERATION_SCOPES[operation]);
  const companyId = companyIdOf(ctx);
  requirePlatformTarget(caller, { companyId });
  return companyId;
}

/** An operation on the platform as a whole (creating a company): the scope, and a token for every company. */
export function authorizeForEveryCompany(ctx: ManagementContext, operation: ScopedOperation): void {
  const caller = callerOf(ctx);
  requirePlatformScope(caller, OPERATION_SCOPES[operation]);
  requirePlatformTarget(caller, 'every-company');
}
