/**
 * What a platform token may do on the management API: one scope per operation (ADR 17 lists which). A token
 * issued before scopes existed has them all (Migration20261202000000PlatformTokenScopes).
 */
export const PLATFORM_SCOPES = ['companies:read', 'companies:write', 'keys:read', 'keys:write', 'key-events:read'] as const;
export type PlatformScope = (typeof PLATFORM_SCOPES)[number];

export function isPlatformScope(value: unknown): value is PlatformScope {
  return typeof value === 'string' && (PLATFORM_SCOPES as readonly string[]).includes(value);
}
