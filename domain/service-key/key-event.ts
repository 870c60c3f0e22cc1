/**
 * The audit trail of service keys (issue 14): what happened to which key, when, and who did it. Kept in the
 * key registry beside the keys, shared by both regions.
 */
export const KEY_EVENT_TYPES = ['issued', 'rolled', 'revoked', 'expired', 'first_used'] as const;
export type KeyEventType = (typeof KEY_EVENT_TYPES)[number];

/** The event types a key has at most one of; the stores enforce it. */
export const ONCE_PER_KEY_EVENT_TYPES: readonly KeyEventType[] = ['expired', 'first_used'];

/** A page of the trail: 1..100 events, 50 unless asked. */
export const KEY_EVENTS_LIMIT_MIN = 1;
export const KEY_EVENTS_LIMIT_MAX = 100;
export const KEY_EVENTS_LIMIT_DEFAULT = 50;

/** `via` of what the admin CLI does. */
export const VIA_ADMIN_CLI = 'admin-cli';

export interface KeyEvent {
  /** IdGenerator.newId() (UUIDv7). */
  readonly id: string;
  readonly companyId: string;
  readonly keyId: string;
  readonly type: KeyEventType;
  readonly at: Date;
  /** The platform user (X-Actor), 'admin-cli' by default for the CLI; null for expired and first_used. */
  readonly actor: string | null;
  /** 'platform-token:<tokenId>' | 'admin-cli' | null (the service itself). */
  readonly via: string | null;
  /** 'rolled' only: the new key. */
  readonly successorKeyId: string | null;
  /** 'rolled': when the old key expires; 'expired': the expiry that was met. */
  readonly expiresAt: Date | null;
}

export function isKeyEventType(value: unknown): value is KeyEventType {
  return typeof value === 'string' && (KEY_EVENT_TYPES as readonly string[]).includes(value);
}

/** `via` of a change made by a platform service with this token. */
export function viaPlatformToken(tokenId: string): string {
  return `platform-token:${tokenId}`;
}

export function copyKeyEvent(event: KeyEvent): KeyEvent {
  return {
    ...event,
    at: new Date(event.at.getTime()),
    expiresAt: event.expiresAt === null ? null : new Date(event.expiresAt.getTime()),
  };
}
