import type { KeyEvent } from '../../domain/service-key/key-event.js';
import type { ServiceKey, ServiceKeySnapshot } from '../../domain/service-key/service-key.js';
import { DomainError } from '../../domain/shared/domain-error.js';
import { portToken } from './port-token.js';

/**
 * A change of the key registry written at once (issue 14): new keys, changed keys and their events.
 * Each updated key carries what it held when it was read, so that two changes made at once cannot both
 * pass (two rolls of one key would give it two successors).
 */
export interface KeyRegistryChange {
  readonly inserted?: readonly ServiceKey[];
  /**
   * Each updated key with what it held when read: the write fails with ConcurrentKeyChangeError when the
   * stored revokedAt, expiresAt or rolledTo differ from `read`.
   */
  readonly updated?: readonly { readonly key: ServiceKey; readonly read: ServiceKeySnapshot }[];
  readonly events?: readonly KeyEvent[];
}

/** A key changed between its read and the write meant to change it; nothing of that write was stored. */
export class ConcurrentKeyChangeError extends DomainError {
  readonly code = 'key_changed';
  constructor(readonly keyId: string) {
    super(`Service key ${keyId} was changed by another request at the same time; try again.`);
    this.name = 'ConcurrentKeyChangeError';
  }
}

/** Whether a stored key still holds what `read` held, in the fields a KeyRegistryChange guards. */
export function sameGuardedState(stored: ServiceKeySnapshot, read: ServiceKeySnapshot): boolean {
  const time = (d: Date | null) => (d === null ? null : d.getTime());
  return time(stored.revokedAt) === time(read.revokedAt) && time(stored.expiresAt) === time(read.expiresAt) && stored.rolledTo === read.rolledTo;
}

/** Service keys and their events live in the key registry, shared by both regions. */
export interface ServiceKeyRepository {
  /** Stores a new key, without an event (seeding, tests). */
  insert(key: ServiceKey): Promise<void>;
  findById(id: string): Promise<ServiceKey | null>;
  /** Every key of the company, oldest first. */
  listByCompany(companyId: string): Promise<ServiceKey[]>;
  /** Writes revocation (and any other change of the key's own state), without a check or an event. */
  update(key: ServiceKey): Promise<void>;
  /** All of it in one transaction of the key registry, or none of it. lastUsedAt of updated keys is kept as stored. */
  write(change: KeyRegistryChange): Promise<void>;
  /**
   * Records that the key was used at this moment, unless a later use is recorded already; and `firstUse`,
   * in the same transaction, iff no use of the key was recorded before.
   */
  recordUsage(keyId: string, at: Date, firstUse?: KeyEvent): Promise<void>;
  /** Stores an 'expired' or 'first_used' event unless the key has one of that type already. */
  recordEventOnce(event: KeyEvent): Promise<void>;
  /**
   * The company's events newest first in the order they were recorded (committed), not by `at`: an event
   * recorded after a call began comes above everything that call returned. `after` is the id of the last
   * event of the previous page; an unknown one gives no events.
   */
  listEvents(companyId: string, page: { readonly limit: number; readonly after: string | null }): Promise<KeyEvent[]>;
}

export const SERVICE_KEY_REPOSITORY = portToken<ServiceKeyRepository>('ServiceKeyRepository');
