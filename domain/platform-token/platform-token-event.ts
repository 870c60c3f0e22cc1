/**
 * The audit trail of platform tokens: who issued or revoked which token, when. Kept in the key registry's
 * `key_events` beside the keys' events, with no company (a token is the platform's, not a company's), so it is
 * in no company's trail; `admin platform-token events` reads it.
 */
export const PLATFORM_TOKEN_EVENT_TYPES = ['platform_token_issued', 'platform_token_revoked'] as const;
export type PlatformTokenEventType = (typeof PLATFORM_TOKEN_EVENT_TYPES)[number];

export interface PlatformTokenEvent {
  /** IdGenerator.newId() (UUIDv7). */
  readonly id: string;
  readonly tokenId: string;
  readonly type: PlatformTokenEventType;
  readonly at: Date;
  /** Who asked for it (the admin CLI's --actor, 'admin-cli' by default). */
  readonly actor: string;
  /** The channel: 'admin-cli'. */
  readonly via: string;
  /** 'platform_token_issued': the token's expiry, null for none. */
  readonly expiresAt: Date | null;
}

export function copyPlatformTokenEvent(event: PlatformTokenEvent): PlatformTokenEvent {
  return { ...event, at: new Date(event.at.getTime()), expiresAt: event.expiresAt === null ? null : new Date(event.expiresAt.getTime()) };
}
