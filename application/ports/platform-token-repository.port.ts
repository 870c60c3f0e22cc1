import type { PlatformTokenEvent } from '../../domain/platform-token/platform-token-event.js';
import type { PlatformToken } from '../../domain/platform-token/platform-token.js';
import { portToken } from './port-token.js';

/** A change of platform tokens and its events, written at once in the key registry. */
export interface PlatformTokenChange {
  readonly inserted?: readonly PlatformToken[];
  /**
   * Tokens to store as revoked, each read unrevoked: the write fails with ConcurrentKeyChangeError when one
   * was revoked meanwhile, so that two revocations at once record one event.
   */
  readonly revoked?: readonly PlatformToken[];
  readonly events: readonly PlatformTokenEvent[];
}

/** Platform tokens live in the key registry, shared by both regions; their events in its key_events. */
export interface PlatformTokenRepository {
  /** Stores a new token, without an event (tests). */
  insert(token: PlatformToken): Promise<void>;
  findById(id: string): Promise<PlatformToken | null>;
  /** Writes revocation, without a check or an event; a revocation stored before is kept. */
  update(token: PlatformToken): Promise<void>;
  /** All of it in one transaction of the key registry, or none of it. */
  write(change: PlatformTokenChange): Promise<void>;
  /** Every token, oldest first (createdAt, then id). */
  list(): Promise<PlatformToken[]>;
  /** The tokens' events newest first: (at desc, id desc); `after` is the last event of the previous page. */
  listEvents(page: { readonly limit: number; readonly after: string | null }): Promise<PlatformTokenEvent[]>;
}

export const PLATFORM_TOKEN_REPOSITORY = portToken<PlatformTokenRepository>('PlatformTokenRepository');
