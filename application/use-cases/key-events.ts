import type { KeyEvent, KeyEventType } from '../../domain/service-key/key-event.js';
import { normalizeActor, type ServiceKey } from '../../domain/service-key/service-key.js';
import type { IdGenerator } from '../ports/id-generator.port.js';
import { ConcurrentKeyChangeError } from '../ports/service-key-repository.port.js';
import type { Actor } from './actor.js';

/** How often a change refused by ConcurrentKeyChangeError is tried again, each time on a fresh read. */
export const KEY_CHANGE_RETRIES = 3;

/** An event of `key`, by `actor` (null: the service itself). */
export function keyEvent(
  ids: IdGenerator,
  key: ServiceKey,
  type: KeyEventType,
  at: Date,
  actor: Actor | null,
  extra: { readonly successorKeyId?: string; readonly expiresAt?: Date | null } = {},
): KeyEvent {
  return {
    id: ids.newId(),
    companyId: key.companyId,
    keyId: key.id,
    type,
    at: new Date(at.getTime()),
    // Stored as the key stores createdBy and revokedBy, so that the trail and the key name one actor alike.
    actor: actor === null ? null : normalizeActor(actor.name),
    via: actor?.via ?? null,
    successorKeyId: extra.successorKeyId ?? null,
    expiresAt: extra.expiresAt == null ? null : new Date(extra.expiresAt.getTime()),
  };
}

/**
 * Runs a read-change-write of the key registry, and again (reading afresh) when another request changed
 * the key in between; the last refusal is thrown.
 */
export async function retryingKeyChanges<T>(attempt: () => Promise<T>): Promise<T> {
  for (let retry = 0; ; retry++) {
    try {
      return await attempt();
    } catch (error) {
      if (!(error instanceof ConcurrentKeyChangeError) || retry >= KEY_CHANGE_RETRIES) throw error;
    }
  }
}
