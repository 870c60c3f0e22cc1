import { queryFingerprint } from '../../domain/paging/cursor.js';
import type { PlatformTokenEvent } from '../../domain/platform-token/platform-token-event.js';
import { decodeKeyEventCursor, encodeKeyEventCursor } from '../../domain/service-key/key-event-cursor.js';
import { KEY_EVENTS_LIMIT_DEFAULT, KEY_EVENTS_LIMIT_MAX, KEY_EVENTS_LIMIT_MIN } from '../../domain/service-key/key-event.js';
import { ProblemCollector } from '../../domain/shared/domain-error.js';
import type { PlatformTokenRepository } from '../ports/platform-token-repository.port.js';

export interface PlatformTokenEventPage {
  readonly items: readonly PlatformTokenEvent[];
  readonly nextCursor: string | null;
}

/** A cursor of the tokens' trail means nothing in a company's, and the other way round. */
const FINGERPRINT = queryFingerprint(['platform-token-events']);

/**
 * The platform tokens' events (issued, revoked), newest first in the order they were recorded, paged as a
 * company's key events are, with the same guarantee: a reader that pages down to the first event it already
 * knows has seen every event (ADR 17).
 */
export class ListPlatformTokenEvents {
  constructor(private readonly tokens: PlatformTokenRepository) {}

  async execute(command: { readonly limit?: number; readonly cursor: string | null }): Promise<PlatformTokenEventPage> {
    const limit = command.limit ?? KEY_EVENTS_LIMIT_DEFAULT;
    const problems = new ProblemCollector();
    if (!Number.isSafeInteger(limit) || limit < KEY_EVENTS_LIMIT_MIN || limit > KEY_EVENTS_LIMIT_MAX) {
      problems.add('/limit', `must be an integer from ${KEY_EVENTS_LIMIT_MIN} to ${KEY_EVENTS_LIMIT_MAX}`);
    }
    problems.throwIfAny('The query is invalid.');
    const after = command.cursor === null ? null : decodeKeyEventCursor(command.cursor, FINGERPRINT);
    // One more than asked, to tell whether another page exists.
    const rows = await this.tokens.listEvents({ limit: limit + 1, after });
    const items = rows.slice(0, limit);
    const last = items[items.length - 1];
    return { items, nextCursor: rows.length > limit && last !== undefined ? encodeKeyEventCursor(last.id, FINGERPRINT) : null };
  }
}
