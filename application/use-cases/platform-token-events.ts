import type { PlatformTokenEvent, PlatformTokenEventType } from '../../domain/platform-token/platform-token-event.js';
import type { PlatformToken } from '../../domain/platform-token/platform-token.js';
import { normalizeActor } from '../../domain/service-key/actor.js';
import type { IdGenerator } from '../ports/id-generator.port.js';
import type { Actor } from './actor.js';

/** An event of `token` by `actor`, as keyEvent makes one of a key. */
export function platformTokenEvent(ids: IdGenerator, token: PlatformToken, type: PlatformTokenEventType, at: Date, actor: Actor): PlatformTokenEvent {
  const expiresAt = type === 'platform_token_issued' ? token.toSnapshot().expiresAt : null;
  return { id: ids.newId(), tokenId: token.id, type, at: new Date(at.getTime()), actor: normalizeActor(actor.name), via: actor.via, expiresAt };
}
